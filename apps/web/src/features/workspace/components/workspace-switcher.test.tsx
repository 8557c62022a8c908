import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getAccessToken } from '../../../lib/access-token';
import { json } from '../../../test/billing-fixture';
import { stubScreenWidth } from '../../../test/dom-stubs';
import { renderApp } from '../../../test/render-app';
import {
  callsTo,
  cleanUpWorkspaceTest,
  makeWorkspaceSummary,
  stubWorkspaceApi,
} from '../../../test/workspace-fixture';

const acme = { workspace_id: 'w1', name: 'Acme', role: 'admin', is_owner: true, is_current: true };
const globex = { workspace_id: 'w2', name: 'Globex', role: 'member', is_owner: false, is_current: false };

afterEach(cleanUpWorkspaceTest);
// A desktop screen: from xl (1280 px) the switcher sits in the header.
beforeEach(() => stubScreenWidth(1280));

describe('the workspace switcher (accounts §4)', () => {
  it('is not shown to a member of one workspace', async () => {
    const calls = stubWorkspaceApi({ 'GET /v1/user/workspaces': () => json({ workspaces: [acme] }) });
    renderApp('/app/workspace');
    await screen.findByRole('heading', { level: 1, name: 'Workspace' }, { timeout: 5000 });
    await waitFor(() => expect(callsTo(calls, 'GET /v1/user/workspaces')).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: 'Workspace' })).toBeNull();
  });

  it('switches workspace: the call, a token refresh, everything fetched again', async () => {
    let current = 'w1';
    const calls = stubWorkspaceApi({
      'GET /v1/user/workspaces': () =>
        json({
          workspaces: [acme, globex].map((w) => ({ ...w, is_current: w.workspace_id === current })),
        }),
      'POST /v1/user/switch-workspace': ({ body }) => {
        current = (body as { workspace_id: string }).workspace_id;
        return json({ status: 'ok' });
      },
      'GET /v1/workspace': () =>
        json(
          current === 'w1'
            ? makeWorkspaceSummary()
            : makeWorkspaceSummary({ workspace_id: 'w2', name: 'Globex', role: 'member', is_owner: false }),
        ),
    });
    renderApp('/app/workspace');
    // The page first: the header is drawn again when the page's file has loaded.
    expect(await screen.findByText('Acme', { selector: 'strong' }, { timeout: 5000 })).toBeTruthy();
    const select = (await screen.findByRole('combobox', { name: 'Workspace' })) as HTMLSelectElement;
    expect(select.value).toBe('w1');

    fireEvent.change(select, { target: { value: 'w2' } });
    expect(await screen.findByText('You are working in Globex', {}, { timeout: 5000 })).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/user/switch-workspace')[0]?.body).toEqual({ workspace_id: 'w2' });
    expect(callsTo(calls, 'POST /v1/auth/refresh')).toHaveLength(1);
    expect(getAccessToken()).toBe('t2');
    // The page shows the new workspace, and the switcher names it current.
    expect(await screen.findByText('Globex', { selector: 'strong' })).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Workspace' }) as HTMLSelectElement).value).toBe('w2');
  });

  it('sits in the menu sheet on a phone, and only there', async () => {
    stubScreenWidth(390);
    stubWorkspaceApi({ 'GET /v1/user/workspaces': () => json({ workspaces: [acme, globex] }) });
    renderApp('/app/workspace');
    expect(await screen.findByText('Acme', { selector: 'strong' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Workspace' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const sheet = await screen.findByRole('dialog', { name: 'Menu' });
    const select = (await within(sheet).findByRole('combobox', { name: 'Workspace' })) as HTMLSelectElement;
    expect(select.value).toBe('w1');
    expect(screen.getAllByRole('combobox', { name: 'Workspace' })).toHaveLength(1);
  });
});

import type { StoredSecret } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSecret } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const VALUE = 'sk_live_never_shown';

describe('/app/conversational-ai/settings', () => {
  it('adds a secret without ever showing its value, replaces it, and deletes it after asking', async () => {
    let secrets: StoredSecret[] = [];
    const calls = stubWorkspaceApi({
      'GET /v1/convai/secrets': () => json({ secrets, next_cursor: null }),
      'POST /v1/convai/secrets': ({ body }) => {
        const { name } = body as { name: string };
        secrets = [makeSecret({ secret_id: 'sec1', name })];
        return json({ type: 'stored', secret_id: 'sec1', name });
      },
      'PATCH /v1/convai/secrets/sec1': ({ body }) => {
        const { name } = body as { name: string };
        return json({ type: 'stored', secret_id: 'sec1', name });
      },
      'DELETE /v1/convai/secrets/sec1': () => {
        secrets = [];
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/conversational-ai/settings');
    expect(await screen.findByText('No secrets yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add your first secret' }));
    let dialog = await screen.findByRole('dialog', { name: 'New secret' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add secret' }));
    expect(within(dialog).getByText('Give the secret a name.')).toBeTruthy();
    expect(within(dialog).getByText('Enter the secret’s value.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Orders key' } });
    const value = within(dialog).getByLabelText('Value') as HTMLInputElement;
    expect(value.type).toBe('password');
    fireEvent.change(value, { target: { value: VALUE } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add secret' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST /v1/convai/secrets')[0]?.body).toEqual({
      type: 'new',
      name: 'Orders key',
      value: VALUE,
    });
    const list = await screen.findByRole('list', { name: 'Secrets' });
    expect(within(list).getByText('Orders key')).toBeTruthy();
    expect(document.body.textContent).not.toContain(VALUE);

    fireEvent.click(within(list).getByRole('button', { name: 'Replace Orders key' }));
    dialog = await screen.findByRole('dialog', { name: 'Replace Orders key' });
    expect((within(dialog).getByLabelText('New value') as HTMLInputElement).value).toBe('');
    fireEvent.change(within(dialog).getByLabelText('New value'), { target: { value: 'sk_2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace value' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'PATCH /v1/convai/secrets/sec1')[0]?.body).toEqual({
      type: 'update',
      name: 'Orders key',
      value: 'sk_2',
    });

    fireEvent.click(within(list).getByRole('button', { name: 'Delete Orders key' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Orders key?' })).getByRole('button', {
        name: 'Delete secret',
      }),
    );
    expect(await screen.findByText('No secrets yet')).toBeTruthy();
  }, 20_000);
});

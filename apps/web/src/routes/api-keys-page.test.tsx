import type { ApiKeyResponse } from '@parla/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json, makeSubscription } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const NEW_KEY = `sk_${'ab'.repeat(24)}`;

function makeKey(overrides: Partial<ApiKeyResponse> = {}): ApiKeyResponse {
  return {
    key_id: 'k1',
    name: 'Build server',
    hint: 'sk_…abab',
    created_at_unix: 1_700_000_000,
    last_used_at_unix: null,
    character_limit: null,
    character_count: 0,
    is_disabled: false,
    ...overrides,
  };
}

/** A signed-in caller whose keys live in `keys`; the key calls change it as the server would. */
function stubApi(keys: ApiKeyResponse[]) {
  setAccessToken('t1');
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/user/subscription') return json(makeSubscription());
      if (key === 'GET /v1/user/api-keys') return json({ api_keys: keys });
      if (key === 'POST /v1/user/api-keys') {
        const created = makeKey({ key_id: 'k2', name: body.name, character_limit: body.character_limit });
        keys.push(created);
        return json({ xi_api_key: NEW_KEY, key_id: 'k2', api_key: created }, 201);
      }
      const edit = key.match(/^POST \/v1\/user\/api-keys\/(\w+)\/edit$/);
      if (edit) {
        const index = keys.findIndex((k) => k.key_id === edit[1]);
        keys[index] = { ...keys[index], ...body } as ApiKeyResponse;
        return json(keys[index]);
      }
      const remove = key.match(/^DELETE \/v1\/user\/api-keys\/(\w+)$/);
      if (remove) {
        keys.splice(
          keys.findIndex((k) => k.key_id === remove[1]),
          1,
        );
        return json({ status: 'ok' });
      }
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('/app/developers/api-keys', () => {
  it('creates a key, checks the form first, and shows the new key once', async () => {
    const calls = stubApi([]);
    renderApp('/app/developers/api-keys');
    expect(await screen.findByText('No API keys yet', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Create API key' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(within(dialog).getByText('Give the key a name.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Build server ' } });
    fireEvent.change(within(dialog).getByLabelText('Credit limit (optional)'), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(within(dialog).getByText('The credit limit is a whole number from 1 up, or empty.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Credit limit (optional)'), { target: { value: '500' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));

    const reveal = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(reveal).getByTestId('new-api-key').textContent).toBe(NEW_KEY);
    expect(within(reveal).getByText('Copy it now: for your safety it is not shown again.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /v1/user/api-keys')?.body).toEqual({
      name: 'Build server',
      character_limit: 500,
    });
    fireEvent.click(within(reveal).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('cell', { name: 'sk_…abab' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '500' })).toBeTruthy();
    expect(screen.queryByText(NEW_KEY)).toBeNull();

    // The dialog opens empty again.
    fireEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const again = await screen.findByRole('dialog', { name: 'Create API key' });
    expect((within(again).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  }, 20_000);

  it('edits, turns off and deletes a key', async () => {
    const calls = stubApi([makeKey({ character_limit: 2000, last_used_at_unix: null })]);
    renderApp('/app/developers/api-keys');
    const row = (await screen.findByRole('cell', { name: 'Build server' }, { timeout: 5000 })).closest('tr');
    expect(within(row as HTMLElement).getByText('2,000')).toBeTruthy();
    expect(within(row as HTMLElement).getByText('Never')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Edit Build server' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit "Build server"' });
    expect((within(edit).getByLabelText('Name') as HTMLInputElement).value).toBe('Build server');
    expect((within(edit).getByLabelText('Credit limit (optional)') as HTMLInputElement).value).toBe('2000');
    fireEvent.change(within(edit).getByLabelText('Name'), { target: { value: 'CI' } });
    fireEvent.change(within(edit).getByLabelText('Credit limit (optional)'), { target: { value: '' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.key === 'POST /v1/user/api-keys/k1/edit')?.body).toEqual({
      name: 'CI',
      character_limit: null,
    });
    expect(await screen.findByRole('cell', { name: 'Workspace limit' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Turn off CI' }));
    expect(await screen.findByText('"CI" is off.')).toBeTruthy();
    expect(await screen.findByText('Off')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Turn on CI' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Delete CI' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete "CI"?' });
    expect(
      within(confirm).getByText('Calls with this key fail from now on. This cannot be undone.'),
    ).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete key' }));
    expect(await screen.findByText('"CI" was deleted.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'DELETE /v1/user/api-keys/k1')).toBe(true);
    expect(await screen.findByText('No API keys yet')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  }, 20_000);

  it('shows the server message in the form when the key cannot be created', async () => {
    stubApi([]);
    const stubbed = vi.mocked(fetch).getMockImplementation() as typeof fetch;
    vi.mocked(fetch).mockImplementation(async (url, init) =>
      init?.method === 'POST' && String(url).endsWith('/v1/user/api-keys')
        ? apiError(400, 'max_api_keys_reached', 'You have too many keys.')
        : stubbed(url, init),
    );
    renderApp('/app/developers/api-keys');
    fireEvent.click(await screen.findByRole('button', { name: 'Create your first key' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API key' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'One more' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('You have too many keys.');
    expect(screen.queryByTestId('new-api-key')).toBeNull();
  });
});

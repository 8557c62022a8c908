import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { libraryPage, makeLibraryVoice } from '../test/voices-fixture';

function stubApi(pages: Array<ReturnType<typeof libraryPage>>) {
  setAccessToken('t1');
  const calls: Array<{ key: string; query: URLSearchParams; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = '', search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const query = new URLSearchParams(search);
      calls.push({ key, query, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/shared-voices') return json(pages[Number(query.get('page'))] ?? libraryPage([]));
      if (key === 'POST /v1/voices/add/owner1/lib9') return json({ voice_id: 'copy9' });
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

describe('/app/voice-lab/share/:publicUserId/:voiceId', () => {
  it('finds the voice among its owner’s shared voices, shows it and adds it', async () => {
    const wanted = makeLibraryVoice({ voice_id: 'lib9', name: 'Wanted Wendy', cloned_by_count: 1 });
    const calls = stubApi([
      libraryPage([makeLibraryVoice({ voice_id: 'lib1' })], true),
      libraryPage([wanted], false),
    ]);
    renderApp('/app/voice-lab/share/owner1/lib9');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Wanted Wendy' }, { timeout: 5000 }),
    ).toBeTruthy();
    const lookups = calls.filter((call) => call.key === 'GET /v1/shared-voices');
    expect(lookups.map((call) => [call.query.get('owner_id'), call.query.get('page')])).toEqual([
      ['owner1', '0'],
      ['owner1', '1'],
    ]);
    expect(screen.getByText('1 time')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play the preview of Wanted Wendy' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add to my voices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Wanted Wendy to your voices' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add to my voices' }));
    expect(await screen.findByText('Voice added')).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /v1/voices/add/owner1/lib9')?.body).toEqual({
      new_name: 'Wanted Wendy',
    });
  });

  it('says plainly when the voice is not shared (any more)', async () => {
    stubApi([libraryPage([makeLibraryVoice({ voice_id: 'lib1' })], false)]);
    renderApp('/app/voice-lab/share/owner1/gone');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'This voice is not available' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse the voice library' }).getAttribute('href')).toBe(
      '/app/voice-library',
    );
  });
});

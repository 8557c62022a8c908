import type { VoiceResponse } from '@parla/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMedia } from '../features/player/player-test-kit';
import { resetVoiceSafetyMemory } from '../features/voices/use-voice-safety-alerts';
import { setAccessToken } from '../lib/access-token';
import { apiError, freeSubscription, json } from '../test/billing-fixture';
import { makeVoice } from '../test/catalogue-fixture';
import { stubMicrophoneDenied, stubRecorder } from '../test/recorder-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { makeOwnVoice, makeSample, voicePage } from '../test/voices-fixture';

const starter = makeUser({
  subscription: {
    ...freeSubscription,
    tier: 'starter',
    voice_limit: 10,
    can_use_instant_voice_cloning: true,
  },
});
const premade = makeVoice({ voice_id: 'sarah', name: 'Sarah' });

interface Call {
  key: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}
type Handler = (call: Call) => Response | Promise<Response>;

/** A signed-in user and the voice routes; `handlers` answer other "METHOD path" keys or replace these. */
function stubApi(
  {
    own = [makeOwnVoice()],
    user = starter,
  }: { own?: VoiceResponse[]; user?: ReturnType<typeof makeUser> } = {},
  handlers: Record<string, Handler> = {},
) {
  setAccessToken('t1');
  const calls: Call[] = [];
  const base: Record<string, Handler> = {
    'GET /v1/user': () => json(user),
    'GET /v1/voices': () => json({ voices: [premade, ...own] }),
    'GET /v2/voices': () => json(voicePage(own)),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = '', search = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const raw = init?.body;
      const body = raw instanceof FormData ? raw : typeof raw === 'string' ? JSON.parse(raw) : undefined;
      const call = { key, query: new URLSearchParams(search), body, headers: new Headers(init?.headers) };
      calls.push(call);
      const handler = handlers[key] ?? base[key];
      return handler ? handler(call) : apiError(404, 'not_found');
    }),
  );
  return calls;
}

const count = (calls: Call[], key: string) => calls.filter((call) => call.key === key).length;

function renderPage(path = '/app/voice-lab') {
  return renderApp(path);
}

const findList = () => screen.findByRole('list', { name: 'My voices' }, { timeout: 5000 });

async function openAddDialog(choice: 'Instant voice clone' | 'Voice design') {
  fireEvent.click(await screen.findByRole('button', { name: 'Add a voice' }, { timeout: 5000 }));
  fireEvent.click(await screen.findByRole('button', { name: new RegExp(`^${choice}`) }));
  return screen.findByRole('dialog', { name: choice });
}

const wav = (name: string, type = 'audio/wav') => new File([new Uint8Array([1, 2, 3, 4])], name, { type });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  resetVoiceSafetyMemory();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('/app/voice-lab: my voices', () => {
  it('lists own voices with their kind, labels, date and samples, and the states that matter', async () => {
    const calls = stubApi({
      own: [
        makeOwnVoice({
          voice_id: 'c1',
          name: 'Studio Ada',
          labels: { gender: 'female', accent: 'british', language: 'en' },
          samples: [makeSample(), makeSample({ sample_id: 's2' })],
        }),
        makeOwnVoice({
          voice_id: 'g1',
          name: 'Deep Giant',
          category: 'generated',
          samples: [],
          sharing: { status: 'enabled', public_owner_id: 'p1' },
        }),
        makeOwnVoice({
          voice_id: 'x1',
          name: 'Gone Gina',
          sharing: { status: 'copied_disabled' },
          is_owner: false,
          samples: [],
        }),
        makeOwnVoice({ voice_id: 'b1', name: 'Banned Bob', safety_control: 'BAN' }),
      ],
    });
    renderPage();
    const list = await findList();
    const row = (name: string) => within(list).getByRole('listitem', { name });
    expect(within(row('Studio Ada')).getByText('Cloned')).toBeTruthy();
    expect(
      within(row('Studio Ada')).getByText(/Female · British · English · Created .* · 2 samples/),
    ).toBeTruthy();
    expect(within(row('Deep Giant')).getByText('Designed')).toBeTruthy();
    expect(within(row('Deep Giant')).getByText('Shared')).toBeTruthy();
    expect(within(row('Gone Gina')).getByText('From the library')).toBeTruthy();
    expect(within(row('Gone Gina')).getByText('Unavailable')).toBeTruthy();
    expect(within(row('Gone Gina')).getByText(/Its owner stopped sharing this voice/)).toBeTruthy();
    expect(within(row('Gone Gina')).queryByRole('button', { name: 'Share Gone Gina' })).toBeNull();
    expect(within(row('Banned Bob')).getByText('Blocked')).toBeTruthy();
    expect(within(row('Banned Bob')).queryByRole('button', { name: 'Share Banned Bob' })).toBeNull();
    expect(screen.getByText('4 of 10 custom voices on your plan')).toBeTruthy();
    const search = calls.find((call) => call.key === 'GET /v2/voices')?.query;
    expect(search?.get('voice_type')).toBe('non-default');
    expect(search?.get('sort')).toBe('created_at_unix');
  });

  it('plays a preview in the bottom player', async () => {
    stubMedia();
    stubApi();
    renderPage();
    const list = await findList();
    fireEvent.click(within(list).getByRole('button', { name: 'Play the preview of My clone' }));
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('My clone · preview')).toBeTruthy();
    const audio = document.querySelector('audio');
    expect(audio?.getAttribute('src')).toBe('http://localhost/v1/voices/c1/preview');
  });

  it('offers the three ways in when there are no voices yet', async () => {
    stubApi({ own: [] });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'No voices of your own yet' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse the library' }).getAttribute('href')).toBe(
      '/app/voice-library',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Design a voice' }));
    expect(await screen.findByRole('dialog', { name: 'Voice design' })).toBeTruthy();
  });

  it('shows the server’s error with a retry', async () => {
    stubApi({}, { 'GET /v2/voices': () => apiError(400, 'invalid_request', 'The list could not be read.') });
    renderPage();
    expect(await screen.findByText('The list could not be read.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('deletes a voice only once confirmed, then refreshes the voice pickers', async () => {
    const calls = stubApi({}, { 'DELETE /v1/voices/c1': () => json({ status: 'ok' }) });
    renderPage();
    const list = await findList();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(1));
    fireEvent.click(within(list).getByRole('button', { name: 'Delete My clone' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete My clone?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(count(calls, 'DELETE /v1/voices/c1')).toBe(0);

    fireEvent.click(within(list).getByRole('button', { name: 'Delete My clone' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete My clone?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete voice' }));
    expect(await screen.findByText('Voice deleted')).toBeTruthy();
    expect(count(calls, 'DELETE /v1/voices/c1')).toBe(1);
    // The pickers' `['voices']` list and the user (voice counters) load again.
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(2));
    await waitFor(() => expect(count(calls, 'GET /v1/user')).toBeGreaterThanOrEqual(2));
  });
});

describe('/app/voice-lab: instant voice clone', () => {
  it('on a free plan, says cloning needs Starter and links to the plans instead of the form', async () => {
    stubApi({ user: makeUser() });
    renderPage();
    const dialog = await openAddDialog('Instant voice clone');
    expect(within(dialog).getByText('Instant voice cloning starts with the Starter plan')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(
      '/app/subscription',
    );
    expect(within(dialog).queryByLabelText('Audio samples')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Design a voice instead' }));
    expect(await screen.findByRole('dialog', { name: 'Voice design' })).toBeTruthy();
  });

  it('opens on the clone form from the URL, and refuses an incomplete form before any request', async () => {
    const calls = stubApi();
    const router = renderPage('/app/voice-lab?creationType=cloneVoice');
    const dialog = await screen.findByRole('dialog', { name: 'Instant voice clone' }, { timeout: 5000 });
    expect(
      await within(dialog).findByText(
        /approximate a voice by moving a base voice’s pitch and vocal-tract size/,
      ),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Audio samples'), {
      target: { files: [wav('notes.txt', 'text/plain')] },
    });
    expect(within(dialog).getByText(/notes\.txt is not an audio file/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone voice' }));
    expect(within(dialog).getByText('Add at least one audio sample of the voice.')).toBeTruthy();
    expect(within(dialog).getByText('Give the voice a name.')).toBeTruthy();
    expect(
      within(dialog).getByText('Confirm that you have the rights and the consent to clone this voice.'),
    ).toBeTruthy();
    expect(document.activeElement?.id).toMatch(/-files$/);
    expect(count(calls, 'POST /v1/voices/add')).toBe(0);
    // Escape closes the dialog and the URL forgets the creation type.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('');
  });

  it('posts the samples and fields as multipart, then the new voice reaches the pickers', async () => {
    const calls = stubApi(
      {},
      { 'POST /v1/voices/add': () => json({ voice_id: 'new1', requires_verification: false }) },
    );
    renderPage();
    await findList();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(1));
    const dialog = await openAddDialog('Instant voice clone');
    const input = within(dialog).getByLabelText('Audio samples');
    fireEvent.change(input, { target: { files: [wav('one.wav'), wav('two.mp3', 'audio/mpeg')] } });
    const chosen = within(dialog).getByRole('list', { name: 'Chosen samples' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(2);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Ada  ' } });
    fireEvent.change(within(dialog).getByLabelText(/^Description/), { target: { value: 'Warm and clear.' } });
    fireEvent.change(within(dialog).getByLabelText('Gender'), { target: { value: 'female' } });
    fireEvent.change(within(dialog).getByLabelText('Accent'), { target: { value: 'British' } });
    fireEvent.change(within(dialog).getByLabelText('Language'), { target: { value: 'en' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Remove background noise' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /I have the rights and the consent/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone voice' }));

    expect(await screen.findByText('Voice created')).toBeTruthy();
    const sent = calls.find((call) => call.key === 'POST /v1/voices/add');
    expect(sent?.headers.get('authorization')).toBe('Bearer t1');
    expect(sent?.headers.has('content-type')).toBe(false);
    const form = sent?.body as FormData;
    expect(form.getAll('files').map((each) => (each as File).name)).toEqual(['one.wav', 'two.mp3']);
    expect([...form.entries()].filter(([key]) => key !== 'files')).toEqual([
      ['name', 'Ada'],
      ['description', 'Warm and clear.'],
      ['labels', JSON.stringify({ gender: 'female', accent: 'british', language: 'en' })],
      ['remove_background_noise', 'true'],
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(2));
  });

  it('shows the server’s refusal naming the file, and the plans when the limit is reached', async () => {
    let answer = () => apiError(422, 'invalid_request', 'notes.wav: The file is not audio we can read.');
    stubApi({}, { 'POST /v1/voices/add': () => answer() });
    renderPage();
    const dialog = await openAddDialog('Instant voice clone');
    fireEvent.change(within(dialog).getByLabelText('Audio samples'), {
      target: { files: [wav('notes.wav')] },
    });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Ada' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /I have the rights/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone voice' }));
    expect(await within(dialog).findByText('notes.wav: The file is not audio we can read.')).toBeTruthy();
    expect(within(dialog).queryByRole('link', { name: 'See plans' })).toBeNull();

    answer = () => apiError(403, 'voice_limit_reached', 'You have reached your limit of 10 custom voices.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone voice' }));
    expect(await within(dialog).findByText('You have reached your limit of 10 custom voices.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'See plans' })).toBeTruthy();

    answer = () =>
      apiError(403, 'voice_cloning_not_allowed', 'Instant voice cloning is available from the Starter plan.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone voice' }));
    expect(
      await within(dialog).findByText('Instant voice cloning starts with the Starter plan'),
    ).toBeTruthy();
  });
});

describe('/app/voice-lab: voice design', () => {
  const previews = ['g1', 'g2', 'g3'].map((id, index) => ({
    audio_base_64: btoa(`mp3-${id}`),
    generated_voice_id: id,
    media_type: 'audio/mpeg',
    duration_secs: 6 + index,
    language: 'en',
  }));

  it('generates three previews to play, then saves the one picked under a name', async () => {
    stubMedia();
    const calls = stubApi(
      {},
      {
        'POST /v1/text-to-voice/design': () => json({ previews, text: 'The quick brown fox, read aloud.' }),
        'POST /v1/text-to-voice': () =>
          json(makeOwnVoice({ voice_id: 'd1', name: 'Giant', category: 'generated' })),
      },
    );
    renderPage();
    const dialog = await openAddDialog('Voice design');
    const description = within(dialog).getByLabelText('Describe the voice');
    fireEvent.change(description, { target: { value: 'deep male' } });
    expect(within(dialog).getByText('Understood: male, deep')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Describe the voice in at least 20 characters.',
    );
    expect(count(calls, 'POST /v1/text-to-voice/design')).toBe(0);
    expect(within(dialog).getByText('9 / 1000')).toBeTruthy();

    fireEvent.change(description, { target: { value: 'A deep, slow male voice with a British accent' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate' }));
    const list = await within(dialog).findByRole('list', { name: 'Previews' });
    expect(within(list).getAllByRole('radio')).toHaveLength(3);
    expect(calls.find((call) => call.key === 'POST /v1/text-to-voice/design')?.body).toEqual({
      voice_description: 'A deep, slow male voice with a British accent',
      auto_generate_text: true,
    });
    expect((within(list).getByRole('radio', { name: /Preview 1/ }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(list).getByRole('button', { name: 'Play Preview 1' }));
    // The bar is outside the modal dialog, so hidden from assistive technology while the dialog is open.
    const bar = await screen.findByRole('region', { name: 'Audio player', hidden: true });
    expect(within(bar).getByText('Voice design · Preview 1')).toBeTruthy();
    expect(document.querySelector('audio')?.getAttribute('src')).toBe(
      `data:audio/mpeg;base64,${btoa('mp3-g1')}`,
    );

    fireEvent.click(within(list).getByRole('radio', { name: /Preview 2/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save voice' }));
    expect(within(dialog).getByText('Give the voice a name.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Giant' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save voice' }));
    expect(await screen.findByText('Voice saved')).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /v1/text-to-voice')?.body).toEqual({
      voice_name: 'Giant',
      voice_description: 'A deep, slow male voice with a British accent',
      generated_voice_id: 'g2',
      played_not_selected_voice_ids: ['g1'],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Voice design' })).toBeNull());
  });
});

describe('/app/voice-lab: edit and share', () => {
  it('plays a sample with the bearer token, deletes one once confirmed, and saves the details', async () => {
    stubMedia();
    const calls = stubApi(
      {
        own: [
          makeOwnVoice({
            labels: { language: 'en', use_case: 'news' },
            samples: [makeSample(), makeSample({ sample_id: 's2', file_name: 'take-2.wav' })],
          }),
        ],
      },
      {
        'GET /v1/voices/c1/samples/s1/audio': () =>
          new Response(new Uint8Array([1]), { headers: { 'content-type': 'audio/wav' } }),
        'DELETE /v1/voices/c1/samples/s2': () => json({ status: 'ok' }),
        'POST /v1/voices/c1/edit': () => json({ status: 'ok' }),
      },
    );
    renderPage();
    fireEvent.click(within(await findList()).getByRole('button', { name: 'Edit My clone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit My clone' });
    const samples = within(dialog).getByRole('list', { name: 'Samples' });
    fireEvent.click(within(samples).getByRole('button', { name: 'Play the sample take-1.wav' }));
    await waitFor(() => expect(count(calls, 'GET /v1/voices/c1/samples/s1/audio')).toBe(1));
    expect(
      calls.find((call) => call.key === 'GET /v1/voices/c1/samples/s1/audio')?.headers.get('authorization'),
    ).toBe('Bearer t1');

    fireEvent.click(within(samples).getByRole('button', { name: 'Delete the sample take-2.wav' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this sample?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete sample' }));
    expect(await screen.findByText('Sample deleted')).toBeTruthy();
    expect(count(calls, 'DELETE /v1/voices/c1/samples/s2')).toBe(1);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Renamed' } });
    fireEvent.change(within(dialog).getByLabelText('Gender'), { target: { value: 'male' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Voice saved')).toBeTruthy();
    const form = calls.find((call) => call.key === 'POST /v1/voices/c1/edit')?.body as FormData;
    expect(form.getAll('files')).toEqual([]);
    expect(form.get('name')).toBe('Renamed');
    expect(JSON.parse(String(form.get('labels')))).toEqual({
      language: 'en',
      use_case: 'news',
      gender: 'male',
    });
  });

  it('shares a voice in the library with live moderation', async () => {
    const calls = stubApi(
      {},
      { 'POST /v1/voices/c1/share': () => json(makeOwnVoice({ sharing: { status: 'enabled' } })) },
    );
    renderPage();
    fireEvent.click(within(await findList()).getByRole('button', { name: 'Share My clone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share My clone' });
    const moderation = within(dialog).getByRole('switch', { name: 'Live moderation' }) as HTMLInputElement;
    expect(moderation.disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Share in the voice library' }));
    fireEvent.click(moderation);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Shared in the voice library')).toBeTruthy();
    expect(calls.find((call) => call.key === 'POST /v1/voices/c1/share')?.body).toEqual({
      enabled: true,
      live_moderation_enabled: true,
      free_users_allowed: true,
    });
  });
});

describe('/app/voice-lab: voice safety (history/voices §4)', () => {
  it('opens "Voice blocked" for a BAN voice new in a later load of the voice list, not on the first', async () => {
    let own = [makeOwnVoice(), makeOwnVoice({ voice_id: 'old-ban', name: 'Old Ban', safety_control: 'BAN' })];
    const calls = stubApi(
      {},
      {
        'GET /v1/voices': () => json({ voices: [premade, ...own] }),
        'GET /v2/voices': () => json(voicePage(own)),
        'DELETE /v1/voices/c1': () => json({ status: 'ok' }),
      },
    );
    renderPage();
    const list = await findList();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(1));
    // Let the first load's answer reach the page: the banned voice in it opens nothing.
    await act(() => Promise.resolve());
    expect(screen.queryByRole('dialog')).toBeNull();

    own = [...own.slice(1), makeOwnVoice({ voice_id: 'new-ban', name: 'New Ban', safety_control: 'BAN' })];
    fireEvent.click(within(list).getByRole('button', { name: 'Delete My clone' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete My clone?' })).getByRole('button', {
        name: 'Delete voice',
      }),
    );
    const blocked = await screen.findByRole('dialog', { name: 'Voice blocked' });
    // Only the new one: the banned voice of the first load was seen then.
    expect(within(blocked).getByText(/Moderation has blocked New Ban\./)).toBeTruthy();
    expect(within(blocked).queryByText(/Old Ban/)).toBeNull();
    fireEvent.click(within(blocked).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Voice blocked' })).toBeNull());
  });

  it('keeps "Voice check needed" closed in the clone flow, and opens it otherwise', async () => {
    let own = [makeOwnVoice()];
    const calls = stubApi(
      {},
      {
        'GET /v1/voices': () => json({ voices: [premade, ...own] }),
        'GET /v2/voices': () => json(voicePage(own)),
        'POST /v1/voices/add': () => json({ voice_id: 'cap1', requires_verification: false }),
        'DELETE /v1/voices/c1': () => json({ status: 'ok' }),
      },
    );
    const router = renderPage();
    const list = await findList();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(1));
    // A new clone that moderation flags arrives while the URL says creationType=cloneVoice: no dialog.
    await act(() => router.navigate('/app/voice-lab?creationType=cloneVoice'));
    const dialog = await screen.findByRole('dialog', { name: 'Instant voice clone' });
    fireEvent.change(within(dialog).getByLabelText('Audio samples'), { target: { files: [wav('one.wav')] } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Fresh Clone' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /I have the rights/ }));
    own = [...own, makeOwnVoice({ voice_id: 'cap1', name: 'Fresh Clone', safety_control: 'CAPTCHA' })];
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clone voice' }));
    expect(await screen.findByText('Voice created')).toBeTruthy();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('');

    // Outside the clone flow, the next flagged voice opens the dialog.
    own = [
      ...own.slice(1),
      makeOwnVoice({ voice_id: 'cap2', name: 'Other Clone', safety_control: 'CAPTCHA' }),
    ];
    fireEvent.click(within(list).getByRole('button', { name: 'Delete My clone' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete My clone?' })).getByRole('button', {
        name: 'Delete voice',
      }),
    );
    const check = await screen.findByRole('dialog', { name: 'Voice check needed' });
    expect(within(check).getByText(/Moderation has asked for a check on Other Clone:/)).toBeTruthy();
  });
});

describe('/app/voice-lab: verify a voice (history/voices §5)', () => {
  const unverified = (overrides: Partial<VoiceResponse> = {}) =>
    makeOwnVoice({
      voice_id: 'c1',
      name: 'My clone',
      voice_verification: {
        requires_verification: true,
        is_verified: false,
        verification_failures: [],
        verification_attempts_count: 0,
      },
      ...overrides,
    });
  const sentences = [
    'I would like a cup of coffee with a little milk and no sugar.',
    'The weather will be sunny with a light breeze from the west.',
  ];
  /** `GET …/captcha` answers the sentences in turn, valid ten minutes from now. */
  const captchaHandler = () => {
    let asked = 0;
    return () =>
      json({
        text: sentences[asked++ % sentences.length],
        expires_at_unix: Math.floor(Date.now() / 1000) + 600,
      });
  };
  const captchaKey = 'GET /v1/voices/pvc/c1/captcha';
  const verifyKey = 'POST /v1/voices/pvc/c1/captcha';

  async function openVerifyDialog() {
    const list = await findList();
    fireEvent.click(within(list).getByRole('button', { name: 'Verify My clone' }));
    return screen.findByRole('dialog', { name: 'Verify My clone' });
  }

  it('offers Verify only on own voices that need verification', async () => {
    stubApi({
      own: [
        unverified(),
        makeOwnVoice({
          voice_id: 'v2',
          name: 'Verified Vera',
          voice_verification: {
            requires_verification: true,
            is_verified: true,
            verification_failures: [],
            verification_attempts_count: 1,
          },
        }),
        makeOwnVoice({ voice_id: 'v3', name: 'Plain Paul' }),
        unverified({
          voice_id: 'v4',
          name: 'Copied Cleo',
          is_owner: false,
          sharing: { status: 'copied' },
        }),
      ],
    });
    renderPage();
    const list = await findList();
    const row = (name: string) => within(list).getByRole('listitem', { name });
    expect(within(row('My clone')).getByText('Not verified')).toBeTruthy();
    expect(within(row('My clone')).getByText(/It cannot speak until you verify it/)).toBeTruthy();
    expect(within(row('My clone')).getByRole('button', { name: 'Verify My clone' })).toBeTruthy();
    for (const name of ['Verified Vera', 'Plain Paul', 'Copied Cleo'])
      expect(within(row(name)).queryByRole('button', { name: `Verify ${name}` })).toBeNull();
    expect(within(row('Verified Vera')).queryByText('Not verified')).toBeNull();
  });

  it('shows the sentence, posts a chosen file as `recording`, then closes and refreshes the voices', async () => {
    stubMedia();
    let own = [unverified()];
    const calls = stubApi(
      {},
      {
        'GET /v1/voices': () => json({ voices: [premade, ...own] }),
        'GET /v2/voices': () => json(voicePage(own)),
        [captchaKey]: captchaHandler(),
        [verifyKey]: () => {
          own = [makeOwnVoice({ voice_id: 'c1', name: 'My clone' })];
          return json({ status: 'ok' });
        },
      },
    );
    renderPage();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(1));
    const dialog = await openVerifyDialog();
    expect(await within(dialog).findByText(sentences[0] as string)).toBeTruthy();
    expect(count(calls, captchaKey)).toBe(1);

    // Sending with nothing recorded says what is missing, before any request.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify voice' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Record yourself reading the sentence/);
    expect(count(calls, verifyKey)).toBe(0);

    const input = within(dialog).getByLabelText('Recording file');
    fireEvent.change(input, { target: { files: [wav('notes.txt', 'text/plain')] } });
    expect(within(dialog).getByRole('alert').textContent).toMatch(/notes\.txt is not an audio file/);
    fireEvent.change(input, { target: { files: [wav('reading.wav')] } });
    const take = within(dialog).getByRole('region', { name: 'Your recording' });
    expect(within(take).getByText('reading.wav')).toBeTruthy();
    expect(within(take).getByLabelText('Play reading.wav').getAttribute('src')).toMatch(/^blob:/);
    expect(within(dialog).queryByRole('alert')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify voice' }));
    expect(await screen.findByText('Voice verified')).toBeTruthy();
    const sent = calls.find((call) => call.key === verifyKey);
    expect(sent?.headers.has('content-type')).toBe(false);
    const form = sent?.body as FormData;
    expect([...form.keys()]).toEqual(['recording']);
    expect((form.get('recording') as File).name).toBe('reading.wav');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The pickers' `['voices']` list loads again, and the row no longer asks for verification.
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(2));
    const list = await findList();
    await waitFor(() => expect(within(list).queryByRole('button', { name: 'Verify My clone' })).toBeNull());
    // Refreshing the voices never asks for another sentence.
    expect(count(calls, captchaKey)).toBe(1);
  });

  it('shows the server’s reason, and Try again fetches a new sentence to read', async () => {
    stubMedia();
    const calls = stubApi(
      { own: [unverified()] },
      {
        [captchaKey]: captchaHandler(),
        [verifyKey]: () =>
          apiError(
            400,
            'bad_request',
            'The recording does not say the captcha sentence. Read the sentence shown, clearly.',
          ),
      },
    );
    renderPage();
    const dialog = await openVerifyDialog();
    await within(dialog).findByText(sentences[0] as string);
    fireEvent.change(within(dialog).getByLabelText('Recording file'), {
      target: { files: [wav('reading.wav')] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify voice' }));
    expect(
      await within(dialog).findByText(
        'The recording does not say the captcha sentence. Read the sentence shown, clearly.',
      ),
    ).toBeTruthy();
    // The dialog stays open on the reading that failed.
    expect(within(dialog).getByRole('region', { name: 'Your recording' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText(sentences[1] as string)).toBeTruthy();
    expect(count(calls, captchaKey)).toBe(2);
    // The old reading went with the old sentence, and so did the message.
    expect(within(dialog).queryByRole('region', { name: 'Your recording' })).toBeNull();
    expect(within(dialog).queryByText(/does not say the captcha sentence/)).toBeNull();
    // Escape closes the dialog.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says why it cannot record, and still takes a file', async () => {
    stubMedia();
    stubApi({ own: [unverified()] }, { [captchaKey]: captchaHandler() });
    renderPage();
    const dialog = await openVerifyDialog();
    await within(dialog).findByText(sentences[0] as string);
    const record = within(dialog).getByRole('button', { name: 'Record' }) as HTMLButtonElement;
    expect(record.disabled).toBe(true);
    const note = document.getElementById(record.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toMatch(/cannot record audio/);
    expect(
      (within(dialog).getByRole('button', { name: 'Choose a file' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('says so when the microphone is refused', async () => {
    stubMedia();
    stubApi({ own: [unverified()] }, { [captchaKey]: captchaHandler() });
    stubMicrophoneDenied();
    renderPage();
    const dialog = await openVerifyDialog();
    await within(dialog).findByText(sentences[0] as string);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/Microphone access was denied/);
    expect(
      (within(dialog).getByRole('button', { name: 'Choose a file' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('records the reading, shows the time and Stop, and sends the take', async () => {
    stubMedia();
    const calls = stubApi(
      { own: [unverified()] },
      { [captchaKey]: captchaHandler(), [verifyKey]: () => json({ status: 'ok' }) },
    );
    const { stopTrack } = stubRecorder();
    renderPage();
    const dialog = await openVerifyDialog();
    await within(dialog).findByText(sentences[0] as string);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record' }));
    expect(await within(dialog).findByText('Recording')).toBeTruthy();
    expect(within(dialog).getByLabelText('Time recorded').textContent).toBe('0:00 / 1:00');
    const stop = within(dialog).getByRole('button', { name: 'Stop' });
    expect(document.activeElement).toBe(stop);
    fireEvent.click(stop);
    const take = await within(dialog).findByRole('region', { name: 'Your recording' });
    expect(within(take).getByText(/Recorded here/)).toBeTruthy();
    expect(within(take).getByRole('button', { name: 'Record again' })).toBeTruthy();
    expect(stopTrack).toHaveBeenCalled();
    const submit = within(dialog).getByRole('button', { name: 'Verify voice' });
    expect(document.activeElement).toBe(submit);
    fireEvent.click(submit);
    expect(await screen.findByText('Voice verified')).toBeTruthy();
    const form = calls.find((call) => call.key === verifyKey)?.body as FormData;
    const recording = form.get('recording') as File;
    expect(recording.name).toMatch(/^recording-.*\.webm$/);
    expect(recording.type).toBe('audio/webm;codecs=opus');
  });

  it('offers a new sentence once the one shown has expired', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      stubMedia();
      const calls = stubApi({ own: [unverified()] }, { [captchaKey]: captchaHandler() });
      renderPage();
      const dialog = await openVerifyDialog();
      await within(dialog).findByText(sentences[0] as string);
      expect(within(dialog).queryByText(/has expired/)).toBeNull();
      await act(() => vi.advanceTimersByTimeAsync(600_000));
      expect(within(dialog).getByRole('alert').textContent).toMatch(/This sentence has expired/);
      expect(
        (within(dialog).getByRole('button', { name: 'Choose a file' }) as HTMLButtonElement).disabled,
      ).toBe(true);
      fireEvent.click(within(dialog).getByRole('button', { name: 'New sentence' }));
      expect(await within(dialog).findByText(sentences[1] as string)).toBeTruthy();
      expect(count(calls, captchaKey)).toBe(2);
      expect(within(dialog).queryByText(/has expired/)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens from "Voice check needed" for an own voice', async () => {
    let own = [makeOwnVoice({ voice_id: 'x0', name: 'First' })];
    const calls = stubApi(
      {},
      {
        'GET /v1/voices': () => json({ voices: [premade, ...own] }),
        'GET /v2/voices': () => json(voicePage(own)),
        'DELETE /v1/voices/x0': () => json({ status: 'ok' }),
        [captchaKey]: captchaHandler(),
      },
    );
    renderPage();
    const list = await findList();
    await waitFor(() => expect(count(calls, 'GET /v1/voices')).toBe(1));
    await act(() => Promise.resolve());
    own = [
      unverified({ safety_control: 'CAPTCHA' }),
      makeOwnVoice({
        voice_id: 'copy1',
        name: 'Copied Cleo',
        is_owner: false,
        sharing: { status: 'copied' },
        safety_control: 'CAPTCHA',
      }),
    ];
    fireEvent.click(within(list).getByRole('button', { name: 'Delete First' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete First?' })).getByRole('button', {
        name: 'Delete voice',
      }),
    );
    const check = await screen.findByRole('dialog', { name: 'Voice check needed' });
    // A library copy is its owner's to verify.
    expect(within(check).queryByRole('button', { name: 'Verify Copied Cleo' })).toBeNull();
    fireEvent.click(within(check).getByRole('button', { name: 'Verify My clone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify My clone' });
    expect(await within(dialog).findByText(sentences[0] as string)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Voice check needed' })).toBeNull();
  });
});

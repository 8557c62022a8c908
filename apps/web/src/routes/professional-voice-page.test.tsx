import type { SpeakerSeparation, VoiceResponse } from '@parla/contracts';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMedia } from '../features/player/player-test-kit';
import { resetVoiceSafetyMemory } from '../features/voices/use-voice-safety-alerts';
import { setAccessToken } from '../lib/access-token';
import { readStorage, storageKeys } from '../lib/storage-keys';
import { apiError, freeSubscription, json } from '../test/billing-fixture';
import { stubRecorder } from '../test/recorder-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { makeOwnVoice, makeSample, voicePage } from '../test/voices-fixture';

const creator = makeUser({
  subscription: {
    ...freeSubscription,
    tier: 'creator',
    voice_limit: 30,
    professional_voice_limit: 1,
    can_use_instant_voice_cloning: true,
    can_use_professional_voice_cloning: true,
  },
});

/** A professional clone (pv1): samples of the given lengths, verified or not, in a training state. */
function pvc({
  seconds = [],
  verified = false,
  state = 'not_started',
  progress = null,
  failures = [],
  ...overrides
}: Partial<VoiceResponse> & {
  seconds?: number[];
  verified?: boolean;
  state?: string;
  progress?: number | null;
  failures?: string[];
} = {}): VoiceResponse {
  return makeOwnVoice({
    voice_id: 'pv1',
    name: 'Studio Me',
    category: 'professional',
    preview_url: null,
    samples: seconds.map((s, i) =>
      makeSample({ sample_id: `s${i}`, file_name: `take-${i}.wav`, duration_secs: s, size_bytes: 2_097_152 }),
    ),
    voice_verification: {
      requires_verification: true,
      is_verified: verified,
      verification_failures: failures,
      verification_attempts_count: failures.length,
    },
    fine_tuning: {
      is_allowed_to_fine_tune: true,
      state: { eleven_multilingual_v2: state, parla_v1: state },
      verification_failures: failures,
      verification_attempts_count: failures.length,
      manual_verification_requested: false,
      progress: progress === null ? null : { eleven_multilingual_v2: progress, parla_v1: progress },
    },
    ...overrides,
  });
}

const notSeparated = (sampleId: string): SpeakerSeparation => ({
  voice_id: 'pv1',
  sample_id: sampleId,
  status: 'not_started',
  speakers: null,
  selected_speaker_ids: null,
});

const twoSpeakers = (sampleId: string, selected: string[]): SpeakerSeparation => ({
  voice_id: 'pv1',
  sample_id: sampleId,
  status: 'completed',
  speakers: {
    speaker_0: { speaker_id: 'speaker_0', duration_secs: 41, utterances: [{ start: 0, end: 41 }] },
    speaker_1: { speaker_id: 'speaker_1', duration_secs: 12, utterances: [{ start: 41, end: 53 }] },
  },
  selected_speaker_ids: selected,
});

interface Call {
  key: string;
  body: unknown;
}
type Handler = (call: Call) => Response | Promise<Response>;

/** A signed-in user, the voice `voice()` answers, and `handlers` for other "METHOD path" keys. */
function stubApi(voice: () => VoiceResponse, handlers: Record<string, Handler> = {}, user = creator) {
  setAccessToken('t1');
  const calls: Call[] = [];
  const base: Record<string, Handler> = {
    'GET /v1/user': () => json(user),
    'GET /v1/voices': () => json({ voices: [voice()] }),
    'GET /v2/voices': () => json(voicePage([voice()])),
    'GET /v1/voices/pv1': () => json(voice()),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      const raw = init?.body;
      const body = raw instanceof FormData ? raw : typeof raw === 'string' ? JSON.parse(raw) : undefined;
      const call = { key, body };
      calls.push(call);
      const handler =
        handlers[key] ??
        base[key] ??
        (/\/speakers$/.test(key) ? () => json(notSeparated(key.split('/').at(-2) ?? '')) : undefined);
      return handler ? handler(call) : apiError(404, 'not_found');
    }),
  );
  return calls;
}

const count = (calls: Call[], key: string) => calls.filter((call) => call.key === key).length;

/** An XMLHttpRequest the test answers by hand (uploads go through XHR for their progress). */
class FakeXhr extends EventTarget {
  static sent: FakeXhr[] = [];
  upload = new EventTarget();
  status = 0;
  statusText = '';
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | undefined;
  withCredentials = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  resetVoiceSafetyMemory();
  FakeXhr.sent = [];
  Reflect.deleteProperty(navigator, 'mediaDevices');
  localStorage.clear();
});

// The whole app renders in each test, and a training is followed over several polls.
vi.setConfig({ testTimeout: 20_000 });

const findStep = (name: string) => screen.findByRole('heading', { level: 2, name }, { timeout: 5000 });

describe('/app/voice-lab/professional: the plan and the details', () => {
  it('on a plan without professional cloning, says so and links to the plans instead of the form', async () => {
    stubApi(() => pvc(), {}, makeUser());
    renderApp('/app/voice-lab/professional');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Your plan does not include professional voice cloning' },
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(screen.getByText(/starts with the Creator plan/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/app/subscription',
    );
    expect(screen.queryByRole('form', { name: 'Professional voice details' })).toBeNull();
  });

  it('when the plan’s professional slots are used, says so', async () => {
    const full = makeUser({ subscription: { ...creator.subscription, professional_voice_slots_used: 1 } });
    stubApi(() => pvc(), {}, full);
    renderApp('/app/voice-lab/professional');
    expect(
      await screen.findByRole('heading', { name: 'No professional voice slot left' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText(/allows 1 professional voice clone, and it is in use/)).toBeTruthy();
  });

  it('checks the details, creates the voice and goes on to its samples', async () => {
    const calls = stubApi(() => pvc(), { 'POST /v1/voices/pvc': () => json({ voice_id: 'pv1' }) });
    const router = renderApp('/app/voice-lab/professional');
    const form = await screen.findByRole('form', { name: 'Professional voice details' }, { timeout: 5000 });
    expect(within(form).getByRole('combobox', { name: 'Language' })).toHaveProperty('value', 'en');
    fireEvent.click(within(form).getByRole('button', { name: 'Create and add samples' }));
    expect(within(form).getByText('Give the voice a name.')).toBeTruthy();
    expect(within(form).getByText(/Confirm that this is your own voice/)).toBeTruthy();
    expect(document.activeElement).toBe(within(form).getByLabelText('Name'));
    expect(count(calls, 'POST /v1/voices/pvc')).toBe(0);

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: ' Studio Me ' } });
    fireEvent.change(within(form).getByRole('combobox', { name: 'Language' }), { target: { value: 'de' } });
    fireEvent.change(within(form).getByLabelText(/Description/), { target: { value: 'Warm and slow.' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /This is my own voice/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create and add samples' }));
    expect(await findStep('Samples')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/app/voice-lab/professional/pv1');
    expect(calls.find((call) => call.key === 'POST /v1/voices/pvc')?.body).toEqual({
      name: 'Studio Me',
      language: 'de',
      description: 'Warm and slow.',
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Studio Me' })).toBeTruthy();
    expect(screen.getByText('Draft')).toBeTruthy();
  });

  it('shows the server’s refusal in plain words', async () => {
    stubApi(() => pvc(), {
      'POST /v1/voices/pvc': () =>
        apiError(
          403,
          'voice_limit_reached',
          'Your plan allows 1 professional voice clone. Delete one or upgrade.',
        ),
    });
    renderApp('/app/voice-lab/professional');
    const form = await screen.findByRole('form', { name: 'Professional voice details' }, { timeout: 5000 });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Me' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /This is my own voice/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Create and add samples' }));
    expect(await within(form).findByText(/Your plan allows 1 professional voice clone/)).toBeTruthy();
    expect(within(form).getByRole('link', { name: 'See plans' })).toBeTruthy();
  });

  it('says when the voice does not exist', async () => {
    stubApi(() => pvc(), { 'GET /v1/voices/pv1': () => apiError(404, 'voice_not_found', 'No such voice.') });
    renderApp('/app/voice-lab/professional/pv1');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'This professional voice was not found' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
  });
});

describe('/app/voice-lab/professional/{id}: samples', () => {
  it('uploads with a progress bar, lists each sample with its length and size, and removes one', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    let voice = pvc();
    const calls = stubApi(() => voice, {
      'DELETE /v1/voices/pvc/pv1/samples/s1': () => {
        voice = pvc({ seconds: [25] });
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/voice-lab/professional/pv1');
    expect(await findStep('Samples')).toBeTruthy();
    expect(screen.getByText(/No samples yet/)).toBeTruthy();
    const next = screen.getByRole('button', { name: 'Continue to speakers' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);

    const files = [
      new File([new Uint8Array(8)], 'interview.wav', { type: 'audio/wav' }),
      new File([new Uint8Array(8)], 'notes.txt', { type: 'text/plain' }),
    ];
    fireEvent.change(screen.getByLabelText('Sample files'), { target: { files } });
    expect(screen.getByText(/notes\.txt is not an audio file/)).toBeTruthy();
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0];
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/v1/voices/pvc/pv1/samples');
    expect(xhr?.headers.authorization).toBe('Bearer t1');
    expect(((xhr?.body?.getAll('files') ?? []) as File[]).map((f) => f.name)).toEqual(['interview.wav']);
    expect(xhr?.body?.get('remove_background_noise')).toBe('false');
    expect(screen.getByText('Uploading interview.wav…')).toBeTruthy();
    act(() => xhr?.progress(40, 100));
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe(
      '40',
    );
    act(() => xhr?.progress(100, 100));
    expect(screen.getByText('Checking and measuring the audio…')).toBeTruthy();
    voice = pvc({ seconds: [25, 12] });
    act(() => xhr?.respond(200, []));

    const list = await screen.findByRole('list', { name: 'Uploaded samples' });
    expect(within(list).getByText('take-0.wav')).toBeTruthy();
    expect(within(list).getByText('25 s · 2.0 MB')).toBeTruthy();
    expect(screen.getByText('37 s of audio')).toBeTruthy();
    expect(next.disabled).toBe(false);

    fireEvent.click(within(list).getByRole('button', { name: 'Remove take-1.wav' }));
    await waitFor(() => expect(count(calls, 'DELETE /v1/voices/pvc/pv1/samples/s1')).toBe(1));
    expect(await screen.findByText(/25 s of audio · 5 s more needed/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue to speakers' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows why the server refused an upload, and a cancelled upload as cancelled', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    stubApi(() => pvc());
    renderApp('/app/voice-lab/professional/pv1');
    await findStep('Samples');
    const input = screen.getByLabelText('Sample files');
    fireEvent.change(input, {
      target: { files: [new File([new Uint8Array(8)], 'long.flac', { type: 'audio/flac' })] },
    });
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    act(() =>
      FakeXhr.sent[0]?.respond(422, {
        detail: {
          status: 'invalid_request',
          message: 'long.flac: The recording is 36000 s long; at most 1800 s is accepted.',
        },
      }),
    );
    expect(await screen.findByText(/at most 1800 s is accepted/)).toBeTruthy();

    fireEvent.change(input, {
      target: { files: [new File([new Uint8Array(8)], 'b.wav', { type: 'audio/wav' })] },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText('The upload was cancelled.')).toBeTruthy();
  });
});

describe('/app/voice-lab/professional/{id}: speakers', () => {
  it('separates a sample’s speakers, polls until done, plays one and keeps the chosen ones', async () => {
    stubMedia();
    let separation: SpeakerSeparation = notSeparated('s0');
    const calls = stubApi(() => pvc({ seconds: [53] }), {
      'GET /v1/voices/pvc/pv1/samples/s0/speakers': () => json(separation),
      'POST /v1/voices/pvc/pv1/samples/s0/separate-speakers': () => {
        separation = { ...notSeparated('s0'), status: 'pending' };
        return json({ status: 'ok' });
      },
      'POST /v1/voices/pvc/pv1/samples/s0': (call) => {
        separation = twoSpeakers(
          's0',
          (call.body as { selected_speaker_ids: string[] }).selected_speaker_ids,
        );
        return json({ voice_id: 'pv1' });
      },
      'GET /v1/voices/pvc/pv1/samples/s0/speakers/speaker_1/audio': () =>
        json({ audio_base_64: btoa('mp3'), media_type: 'audio/mpeg', duration_secs: 12 }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:speaker-1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    renderApp('/app/voice-lab/professional/pv1');
    // Enough audio and not verified: the flow opens on the verification; the speakers step is one click away.
    expect(await findStep('Verification')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Speakers/ }));
    expect(await findStep('Speakers')).toBeTruthy();
    const sample = screen.getByRole('listitem', { name: 'take-0.wav' });
    expect(within(sample).getByText('The whole recording is used as the voice.')).toBeTruthy();

    fireEvent.click(within(sample).getByRole('button', { name: 'Separate speakers' }));
    expect(
      await within(sample).findByRole('progressbar', { name: 'Separating the speakers of take-0.wav' }),
    ).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Continue to verification' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    separation = twoSpeakers('s0', ['speaker_0']);
    const first = await within(sample).findByRole(
      'checkbox',
      { name: /Speaker 1 · 41 s/ },
      { timeout: 5000 },
    );
    const second = within(sample).getByRole('checkbox', { name: /Speaker 2 · 12 s/ });
    expect((first as HTMLInputElement).checked).toBe(true);
    // The last speaker kept cannot be dropped.
    expect((first as HTMLInputElement).disabled).toBe(true);
    expect((second as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(/41 s of the voice kept for training/)).toBeTruthy();

    fireEvent.click(within(sample).getByRole('button', { name: 'Listen to Speaker 2' }));
    const audio = await within(sample).findByLabelText("Speaker 2's speech");
    expect(audio.getAttribute('src')).toBe('blob:speaker-1');

    fireEvent.click(second);
    await waitFor(() =>
      expect(calls.find((call) => call.key === 'POST /v1/voices/pvc/pv1/samples/s0')?.body).toEqual({
        selected_speaker_ids: ['speaker_0', 'speaker_1'],
      }),
    );
    expect(await screen.findByText(/53 s of the voice kept for training/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to verification' }));
    expect(await findStep('Verification')).toBeTruthy();
  });

  it('says when a separation failed, offers to try again, and warns when too little of the voice is kept', async () => {
    stubApi(() => pvc({ seconds: [53, 10] }), {
      'GET /v1/voices/pvc/pv1/samples/s0/speakers': () => json({ ...notSeparated('s0'), status: 'failed' }),
      'GET /v1/voices/pvc/pv1/samples/s1/speakers': () =>
        json({ ...twoSpeakers('s1', ['speaker_1']), sample_id: 's1' }),
    });
    renderApp('/app/voice-lab/professional/pv1');
    await findStep('Verification');
    fireEvent.click(screen.getByRole('button', { name: /Speakers/ }));
    const failed = await screen.findByRole('listitem', { name: 'take-0.wav' });
    expect(within(failed).getByText('The speakers of this recording could not be separated.')).toBeTruthy();
    expect(within(failed).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByText(/1 min 05 s of the voice kept for training/)).toBeTruthy();
  });
});

describe('/app/voice-lab/professional/{id}: verification', () => {
  const captchaKey = 'GET /v1/voices/pvc/pv1/captcha';
  const verifyKey = 'POST /v1/voices/pvc/pv1/captcha';
  const sentence = 'The weather will be sunny with a light breeze from the west.';

  it('records the sentence read aloud; a refusal says why with a retry, a pass moves on to training', async () => {
    stubMedia();
    stubRecorder();
    let verified = false;
    let attempts = 0;
    const calls = stubApi(() => pvc({ seconds: [40], verified }), {
      [captchaKey]: () => json({ text: sentence, expires_at_unix: Math.floor(Date.now() / 1000) + 600 }),
      [verifyKey]: () => {
        attempts += 1;
        if (attempts === 1)
          return apiError(
            400,
            'bad_request',
            'The recording does not say the captcha sentence. Read the sentence shown, clearly.',
          );
        verified = true;
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/voice-lab/professional/pv1');
    expect(await findStep('Verification')).toBeTruthy();
    expect(await screen.findByText(sentence)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await screen.findByRole('region', { name: 'Your recording' });
    fireEvent.click(screen.getByRole('button', { name: 'Send the reading' }));
    expect(await screen.findByText(/does not say the captcha sentence/)).toBeTruthy();
    const form = calls.find((call) => call.key === verifyKey)?.body as FormData;
    expect((form.get('recording') as File).name).toMatch(/\.webm$/);

    // Try again: a new sentence, a new take.
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(count(calls, captchaKey)).toBe(2));
    fireEvent.click(await screen.findByRole('button', { name: 'Record' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    await screen.findByRole('region', { name: 'Your recording' });
    fireEvent.click(screen.getByRole('button', { name: 'Send the reading' }));
    expect(await findStep('Training')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start training' })).toBeTruthy();
    expect(count(calls, verifyKey)).toBe(2);
  });

  it('reminds why the last attempt failed when the flow resumes', async () => {
    stubApi(
      () =>
        pvc({
          seconds: [40],
          failures: ['The voice in the recording does not sound like the samples of this voice.'],
        }),
      {
        [captchaKey]: () => json({ text: sentence, expires_at_unix: Math.floor(Date.now() / 1000) + 600 }),
      },
    );
    renderApp('/app/voice-lab/professional/pv1');
    await findStep('Verification');
    expect(
      screen.getByText(/The last attempt did not pass: The voice in the recording does not sound like/),
    ).toBeTruthy();
  });
});

describe('/app/voice-lab/professional/{id}: training', () => {
  it('starts the training and follows it on a progress bar until the voice is ready to use', async () => {
    let polls = 0;
    let started = false;
    const voice = () => {
      if (!started) return pvc({ seconds: [40], verified: true });
      polls += 1;
      if (polls <= 1) return pvc({ seconds: [40], verified: true, state: 'queued', progress: 0 });
      if (polls === 2) return pvc({ seconds: [40], verified: true, state: 'fine_tuning', progress: 0.5 });
      return pvc({ seconds: [40], verified: true, state: 'fine_tuned', progress: 1 });
    };
    const calls = stubApi(voice, {
      'POST /v1/voices/pvc/pv1/train': () => {
        started = true;
        return json({ status: 'ok' });
      },
    });
    const router = renderApp('/app/voice-lab/professional/pv1');
    expect(await findStep('Training')).toBeTruthy();
    expect(screen.getByText(/learns the voice from 40 s of speech/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start training' }));
    expect(await screen.findByText('Waiting for a free worker…')).toBeTruthy();
    expect(count(calls, 'POST /v1/voices/pvc/pv1/train')).toBe(1);
    // While it trains, the other steps cannot be opened.
    expect(screen.queryByRole('button', { name: /Samples/ })).toBeNull();
    const bar = await screen.findByRole('progressbar', { name: 'Training progress' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'), { timeout: 5000 });
    expect(screen.getByText('Training · 50 %')).toBeTruthy();
    expect(
      await screen.findByText('Studio Me is trained and ready to speak.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText('Ready')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Use in text to speech' }));
    expect(readStorage(storageKeys.selectedVoice)).toBe('pv1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/speech-synthesis/text-to-speech'));
  });

  it('says when the training failed, and trains again', async () => {
    let state = 'failed';
    const calls = stubApi(() => pvc({ seconds: [40], verified: true, state }), {
      'POST /v1/voices/pvc/pv1/train': () => {
        state = 'queued';
        return json({ status: 'ok' });
      },
    });
    renderApp('/app/voice-lab/professional/pv1');
    expect(await findStep('Training')).toBeTruthy();
    expect(screen.getByText(/The training failed/)).toBeTruthy();
    expect(screen.getByText('Training failed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Train again' }));
    expect(await screen.findByText('Waiting for a free worker…')).toBeTruthy();
    expect(count(calls, 'POST /v1/voices/pvc/pv1/train')).toBe(1);
  });

  it('shows the server’s refusal to train', async () => {
    stubApi(() => pvc({ seconds: [40], verified: true }), {
      'POST /v1/voices/pvc/pv1/train': () =>
        apiError(400, 'bad_request', 'Training needs at least 30 seconds of the voice; the samples hold 12.'),
    });
    renderApp('/app/voice-lab/professional/pv1');
    await findStep('Training');
    fireEvent.click(screen.getByRole('button', { name: 'Start training' }));
    expect(await screen.findByText(/Training needs at least 30 seconds of the voice/)).toBeTruthy();
  });
});

describe('/app/voice-lab: professional clones', () => {
  it('shows each clone’s stage with a way back into its flow, and offers a professional clone', async () => {
    setAccessToken('t1');
    const own = [
      pvc({ voice_id: 'a', name: 'Draft Dan' }),
      pvc({ voice_id: 'b', name: 'Verify Vic', seconds: [40] }),
      pvc({
        voice_id: 'c',
        name: 'Training Tom',
        seconds: [40],
        verified: true,
        state: 'fine_tuning',
        progress: 0.3,
      }),
      pvc({
        voice_id: 'd',
        name: 'Ready Rae',
        seconds: [40],
        verified: true,
        state: 'fine_tuned',
        progress: 1,
      }),
      pvc({ voice_id: 'e', name: 'Failed Fay', seconds: [40], verified: true, state: 'failed' }),
    ];
    stubApi(() => pvc(), {
      'GET /v1/voices': () => json({ voices: own }),
      'GET /v2/voices': () => json(voicePage(own)),
    });
    renderApp('/app/voice-lab');
    const list = await screen.findByRole('list', { name: 'My voices' }, { timeout: 5000 });
    const row = (name: string) => within(list).getByRole('listitem', { name });
    expect(within(row('Draft Dan')).getByText('Draft')).toBeTruthy();
    expect(within(row('Draft Dan')).getByText('Add at least 30 seconds of the voice.')).toBeTruthy();
    expect(within(row('Verify Vic')).getByText('Verifying')).toBeTruthy();
    expect(within(row('Training Tom')).getByText('Training')).toBeTruthy();
    expect(within(row('Training Tom')).getByText('Training · 30 %')).toBeTruthy();
    expect(within(row('Ready Rae')).getByText('Ready')).toBeTruthy();
    expect(within(row('Failed Fay')).getByText('Training failed')).toBeTruthy();
    // Verified within the flow, not through the instant clones' Verify button.
    expect(within(row('Verify Vic')).queryByRole('button', { name: 'Verify Verify Vic' })).toBeNull();
    expect(within(row('Verify Vic')).queryByText('Not verified')).toBeNull();
    expect(
      within(row('Verify Vic')).getByRole('link', { name: 'Continue Verify Vic' }).getAttribute('href'),
    ).toBe('/app/voice-lab/professional/b');
    expect(within(row('Ready Rae')).getByRole('link', { name: 'Open Ready Rae' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add a voice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a voice' });
    expect(
      within(dialog)
        .getByRole('link', { name: /^Professional voice clone/ })
        .getAttribute('href'),
    ).toBe('/app/voice-lab/professional');
  });
});

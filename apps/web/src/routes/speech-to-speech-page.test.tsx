import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMedia } from '../features/player/player-test-kit';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { makeHistoryItem } from '../test/history-fixture';
import { stubMicrophoneDenied, stubRecorder } from '../test/recorder-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/speech-synthesis/speech-to-speech';

const stsModel = { can_do_text_to_speech: false, can_do_voice_conversion: true };
const MODELS = [
  makeModel({
    model_id: 'eleven_multilingual_v2',
    name: 'Parla v1 (alias eleven_multilingual_v2)',
    alias_of: 'parla_v1',
  }),
  makeModel({ model_id: 'parla_sts_v1', name: 'Parla Voice Changer v1', ...stsModel }),
  makeModel({
    model_id: 'eleven_multilingual_sts_v2',
    name: 'Parla Voice Changer v1 (alias eleven_multilingual_sts_v2)',
    alias_of: 'parla_sts_v1',
    ...stsModel,
  }),
];
const VOICES = [
  makeVoice({ voice_id: 'sarah', name: 'Sarah', labels: { language: 'en' } }),
  makeVoice({ voice_id: 'adam', name: 'Adam', labels: { language: 'en' } }),
];

interface Sent {
  url: string;
  body: FormData;
  headers: Headers;
}

function stubApi({
  convert = () =>
    new Response(new Uint8Array([1, 2, 3]), {
      headers: { 'content-type': 'audio/mpeg', 'history-item-id': 'h9', 'x-character-count': '134' },
    }),
  history = [],
}: {
  convert?: () => Response;
  history?: ReturnType<typeof makeHistoryItem>[];
} = {}) {
  setAccessToken('t1');
  const sent: Sent[] = [];
  const historyQueries: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path, query = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/models') return json(MODELS);
      if (key === 'GET /v1/voices') return json({ voices: VOICES });
      if (key === 'GET /v1/history') {
        historyQueries.push(query);
        return json({ history, last_history_item_id: null, has_more: false, scanned_until: null });
      }
      if (key.startsWith('POST /v1/speech-to-speech/')) {
        sent.push({ url, body: init?.body as FormData, headers: new Headers(init?.headers) });
        return convert();
      }
      return apiError(404, 'not_found');
    }),
  );
  return { sent, historyQueries };
}

function renderPage() {
  return renderApp(PATH);
}

const wav = (name = 'take.wav', type = 'audio/wav') =>
  new File([new Uint8Array([1, 2, 3, 4])], name, { type });

async function chooseFile(file: File) {
  const input = await screen.findByLabelText('Audio file', {}, { timeout: 5000 });
  fireEvent.change(input, { target: { files: [file] } });
}

/** Plays the browser's part: the clip's media element has read its length. */
function fireClipLength(name: string, seconds: number) {
  const audio = screen.getByLabelText(`Play ${name}`) as HTMLAudioElement;
  Object.defineProperty(audio, 'duration', { configurable: true, value: seconds });
  fireEvent(audio, new Event('loadedmetadata'));
}

const convertButton = () => screen.getByRole('button', { name: 'Convert' }) as HTMLButtonElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('/app/speech-synthesis/speech-to-speech', () => {
  it('offers the speech-to-speech models only, the honest note, and an empty list of conversions', async () => {
    const { historyQueries } = stubApi();
    renderPage();
    const select = (await screen.findByRole(
      'combobox',
      { name: 'Model' },
      { timeout: 5000 },
    )) as HTMLSelectElement;
    // Parla's voice changer by its name; the public API's default id is an alias of it (issue 26 item 7).
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['parla_sts_v1', 'Parla Voice Changer v1'],
    ]);
    expect(select.value).toBe('parla_sts_v1');
    expect(screen.getByText(/keeps your recording’s timing and intonation/)).toBeTruthy();
    expect(screen.getByText(/not a neural voice/)).toBeTruthy();
    expect(await screen.findByText(/Your conversions will appear here/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View all history' }).getAttribute('href')).toBe(
      '/app/speech-synthesis/speech-to-speech/history',
    );
    expect(historyQueries[0]).toContain('source=STS');
    expect(convertButton().disabled).toBe(true);
  });

  it('sends the chosen file as multipart with its fields and plays the stream in the bottom player', async () => {
    stubMedia();
    const { sent } = stubApi();
    renderPage();
    await screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });
    await chooseFile(wav());
    const clip = screen.getByRole('region', { name: 'Your recording' });
    expect(within(clip).getByText('take.wav')).toBeTruthy();
    fireClipLength('take.wav', 7.2);
    expect(await within(clip).findByText(/0:08/)).toBeTruthy();
    // 8 started seconds at 1,000 credits a minute; the free plan has 10,000 left.
    expect(screen.getByText('134 credits · 10,000 left')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Remove background noise' }));
    await waitFor(() => expect(convertButton().disabled).toBe(false));
    fireEvent.click(convertButton());

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.url).toBe('/v1/speech-to-speech/sarah/stream?output_format=mp3_44100_128');
    expect(sent[0]?.headers.get('authorization')).toBe('Bearer t1');
    expect(sent[0]?.headers.has('content-type')).toBe(false);
    const form = sent[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    const audio = form.get('audio') as File;
    expect(audio).toBeInstanceOf(File);
    expect(audio.name).toBe('take.wav');
    expect(audio.size).toBe(4);
    expect([...form.entries()].filter(([key]) => key !== 'audio')).toEqual([
      ['model_id', 'parla_sts_v1'],
      ['remove_background_noise', 'true'],
      ['file_format', 'other'],
    ]);
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('Sarah · speech to speech')).toBeTruthy();
  });

  it('takes a dropped file, and clears it again', async () => {
    stubMedia();
    stubApi();
    renderPage();
    const zone = await screen.findByRole('region', { name: 'Audio to convert' }, { timeout: 5000 });
    fireEvent.drop(zone, { dataTransfer: { files: [wav('voice.mp3', 'audio/mpeg')] } });
    expect(await screen.findByText('voice.mp3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove the recording' }));
    expect(await screen.findByRole('region', { name: 'Audio to convert' })).toBeTruthy();
    expect(convertButton().disabled).toBe(true);
  });

  it('toasts the server’s refusal', async () => {
    stubMedia();
    stubApi({
      convert: () => apiError(400, 'invalid_request', 'No voiced speech was found in the recording.'),
    });
    renderPage();
    await screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });
    await chooseFile(wav());
    await waitFor(() => expect(convertButton().disabled).toBe(false));
    fireEvent.click(convertButton());
    expect(await screen.findByText('No voiced speech was found in the recording.')).toBeTruthy();
  });

  it('refuses a file that is too large or not audio before any request', async () => {
    stubMedia();
    const { sent } = stubApi();
    renderPage();
    await screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });
    const big = wav('long.wav');
    Object.defineProperty(big, 'size', { value: 60 * 1024 * 1024 });
    await chooseFile(big);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'long.wav is 60.0 MB; files of at most 50 MB can be converted.',
    );
    await chooseFile(new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/notes\.pdf is not an audio file/);
    expect(screen.queryByRole('region', { name: 'Your recording' })).toBeNull();
    expect(convertButton().disabled).toBe(true);
    fireEvent.submit(screen.getByRole('form', { name: 'Convert speech' }));
    expect(sent).toHaveLength(0);
  });

  it('refuses a recording longer than five minutes', async () => {
    stubMedia();
    stubApi();
    renderPage();
    await screen.findByRole('combobox', { name: 'Model' }, { timeout: 5000 });
    await chooseFile(wav());
    fireClipLength('take.wav', 301);
    expect(
      await screen.findByText('This recording is 5:01 long; at most 5:00 can be converted.'),
    ).toBeTruthy();
    expect(convertButton().disabled).toBe(true);
  });

  it('explains why recording is unavailable without MediaRecorder', async () => {
    stubApi();
    renderPage();
    const record = (await screen.findByRole(
      'button',
      { name: 'Record' },
      { timeout: 5000 },
    )) as HTMLButtonElement;
    expect(record.disabled).toBe(true);
    expect(record.getAttribute('aria-describedby')).toBeTruthy();
    const note = document.getElementById(record.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toMatch(/cannot record audio \(it has no MediaRecorder\)/);
  });

  it('says so when the microphone is refused', async () => {
    stubApi();
    stubMicrophoneDenied();
    renderPage();
    const record = (await screen.findByRole(
      'button',
      { name: 'Record' },
      { timeout: 5000 },
    )) as HTMLButtonElement;
    expect(record.disabled).toBe(false);
    fireEvent.click(record);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Microphone access was denied/);
  });

  it('records with MediaRecorder, shows the time, and keeps the take as the clip', async () => {
    stubMedia();
    stubApi();
    const { stopTrack } = stubRecorder();
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Record' }, { timeout: 5000 }));
    expect(await screen.findByText('Recording')).toBeTruthy();
    expect(screen.getByLabelText('Time recorded').textContent).toBe('0:00 / 5:00');
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    const clip = await screen.findByRole('region', { name: 'Your recording' });
    expect(within(clip).getByText(/^recording-.*\.webm$/)).toBeTruthy();
    expect(within(clip).getByText(/Recorded here/)).toBeTruthy();
    expect(stopTrack).toHaveBeenCalled();
  });

  it('lists recent conversions to play again', async () => {
    stubMedia();
    stubApi({
      history: [
        makeHistoryItem({
          history_item_id: 's1',
          source: 'STS',
          text: '',
          voice_name: 'Adam',
          duration_ms: 4200,
        }),
      ],
    });
    renderPage();
    const section = await screen.findByRole('region', { name: 'Recent conversions' }, { timeout: 5000 });
    const list = await within(section).findByRole('list');
    expect(within(list).getByText('Adam')).toBeTruthy();
    expect(within(list).getByText(/0:05/)).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: /^Play the conversion to Adam/ }));
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('Adam')).toBeTruthy();
  });
});

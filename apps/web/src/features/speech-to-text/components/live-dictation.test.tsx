import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { apiError, json } from '../../../test/billing-fixture';
import { fakeAudio, lastSocket, stubRealtime } from '../../../test/realtime-fixture';
import { renderApp } from '../../../test/render-app';
import { makeUser } from '../../../test/user-fixture';

const PATH = '/app/speech-to-text';

/** The transcript the server keeps of a dictation, once it has saved it. */
const keptTranscript = {
  transcription_id: 'tr-live',
  name: 'Live dictation, 27 Nov 2026 10:42',
  status: 'completed',
  progress: 1,
  error: null,
  language_code: 'eng',
  audio_duration_secs: 4.2,
  model_id: 'parla_stt_v1',
  created_at_unix: Math.floor(Date.now() / 1000),
  created_by_name: 'Ada',
};

/**
 * The API: a user, the transcripts list (counted; it holds the dictation's transcript once `saved` is
 * set), single-use tokens.
 */
function stubApi({ token = true }: { token?: boolean } = {}) {
  setAccessToken('t1');
  const calls = { lists: 0, tokens: [] as string[], saved: false };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/speech-to-text/transcripts') {
        calls.lists += 1;
        const transcripts = calls.saved ? [keptTranscript] : [];
        return json({ transcripts, has_more: false, next_cursor: null });
      }
      if (key.startsWith('POST /v1/single-use-token/')) {
        calls.tokens.push(path?.split('/').pop() ?? '');
        return token ? json({ token: 'single-use-1' }) : apiError(401, 'quota_exceeded', 'No credits left.');
      }
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

async function startDictation() {
  fireEvent.click(await screen.findByRole('button', { name: 'Live dictation' }, { timeout: 5000 }));
  return screen.findByRole('region', { name: 'Live dictation' });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('live dictation', { timeout: 20_000 }, () => {
  it('streams the microphone as 16 kHz PCM, shows partial then committed text, and stops with a commit', async () => {
    const { track } = stubRealtime();
    const calls = stubApi();
    renderApp(PATH);
    const panel = await startDictation();
    expect(within(panel).getByText(/English, with the built-in English model/)).toBeTruthy();

    await waitFor(() => expect(calls.tokens).toEqual(['realtime_scribe']));
    const socket = lastSocket();
    const url = new URL(socket.url);
    expect(url.protocol).toBe('ws:');
    expect(url.host).toBe(window.location.host);
    expect(url.pathname).toBe('/v1/speech-to-text/realtime');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      model_id: 'parla_stt_v1',
      audio_format: 'pcm_16000',
      commit_strategy: 'vad',
      token: 'single-use-1',
    });

    // Audio heard before the socket opens is kept and sent once it does.
    const tone = Float32Array.from({ length: 9600 }, (_, i) => 0.5 * Math.sin(i / 5));
    act(() => fakeAudio.speak(tone));
    expect(socket.sent).toHaveLength(0);
    act(() => socket.open());
    act(() => socket.receive({ message_type: 'session_started', session_id: 's1', config: {} }));
    await within(panel).findByText('Listening');
    // 0.2 s at 48 kHz → one 200 ms chunk of 3,200 samples at 16 kHz: 6,400 bytes of s16le.
    const [first] = socket.messages();
    expect(first).toMatchObject({ message_type: 'input_audio_chunk', commit: false, sample_rate: 16_000 });
    const bytes = Buffer.from(String(first?.audio_base_64), 'base64');
    expect(bytes.length).toBe(6400);
    const samples = new Int16Array(bytes.buffer, bytes.byteOffset, 3200);
    expect(Math.max(...samples)).toBeGreaterThan(12_000);
    expect(Math.max(...samples)).toBeLessThan(16_500);
    const bar = panel.querySelector<HTMLElement>('[data-meter] > div');
    expect(bar?.style.width).not.toBe('0%');

    const log = within(panel).getByRole('log', { name: 'Dictated text' });
    act(() => socket.receive({ message_type: 'partial_transcript', text: 'hello there' }));
    expect(log.querySelector('[data-partial]')?.textContent).toBe('Still hearing: hello there…');
    act(() => socket.receive({ message_type: 'committed_transcript', text: 'Hello there.' }));
    expect(log.textContent).toBe('Hello there. ');
    act(() => socket.receive({ message_type: 'partial_transcript', text: 'how are' }));
    expect(log.textContent).toBe('Hello there. Still hearing: how are…');

    // Stop: the rest of the audio with commit, then the last sentence, then the socket closes.
    const listsBefore = calls.lists;
    act(() => fakeAudio.speak(new Float32Array(4800)));
    fireEvent.click(within(panel).getByRole('button', { name: 'Stop' }));
    const last = socket.messages().at(-1);
    expect(last).toMatchObject({ message_type: 'input_audio_chunk', commit: true });
    expect(Buffer.from(String(last?.audio_base_64), 'base64').length).toBe(3200);
    expect(track.stop).toHaveBeenCalled();
    await within(panel).findByText('Finishing the last sentence…');
    act(() => socket.receive({ message_type: 'committed_transcript', text: 'How are you?' }));
    await within(panel).findByText('Stopped');
    expect(log.textContent).toBe('Hello there. How are you? ');
    expect(socket.closedWith).toBe(1000);
    expect(document.activeElement?.textContent).toBe('Dictate again');

    // issue 26 item 7: the server saves the transcript after the socket ends; until the list holds it, the
    // panel does not say it is there.
    await waitFor(() => expect(calls.lists).toBeGreaterThan(listsBefore));
    expect(within(panel).getByText('Saving it as a transcript…')).toBeTruthy();
    expect(within(panel).queryByText(/in the list below/)).toBeNull();
    calls.saved = true;
    const kept = await within(panel).findByText(/Kept as a transcript: it is in the list below/, undefined, {
      timeout: 4000,
    });
    const list = screen.getByRole('list', { name: 'Transcripts' });
    expect(within(list).getByText(keptTranscript.name)).toBeTruthy();
    expect(within(kept).getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe(
      '/app/speech-to-text/tr-live',
    );

    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    const back = await screen.findByRole('button', { name: 'Live dictation' });
    await waitFor(() => expect(document.activeElement).toBe(back));
  });

  it('says what a server error means and stops listening', async () => {
    const { track } = stubRealtime();
    stubApi();
    renderApp(PATH);
    const panel = await startDictation();
    await waitFor(() => expect(() => lastSocket()).not.toThrow());
    const socket = lastSocket();
    act(() => socket.open());
    act(() => socket.receive({ message_type: 'quota_exceeded', error: 'Quota exceeded' }));
    expect((await within(panel).findByRole('alert')).textContent).toMatch(
      /no credits left for transcription/,
    );
    expect(track.stop).toHaveBeenCalled();
    expect(within(panel).getByRole('button', { name: 'Dictate again' })).toBeTruthy();
  });

  it('says when the connection is lost', async () => {
    stubRealtime();
    stubApi();
    renderApp(PATH);
    const panel = await startDictation();
    await waitFor(() => expect(() => lastSocket()).not.toThrow());
    act(() => lastSocket().open());
    act(() => lastSocket().receive({ message_type: 'session_started', session_id: 's1', config: {} }));
    act(() => lastSocket().drop(1006));
    expect((await within(panel).findByRole('alert')).textContent).toMatch(
      /connection to the server was lost/,
    );
  });

  it('says when it cannot connect at all', async () => {
    stubRealtime();
    stubApi();
    renderApp(PATH);
    const panel = await startDictation();
    await waitFor(() => expect(() => lastSocket()).not.toThrow());
    act(() => lastSocket().drop(1006));
    expect((await within(panel).findByRole('alert')).textContent).toMatch(/could not connect to the server/);
  });

  it('says when the microphone is refused, without asking for a token', async () => {
    stubRealtime({ refusal: 'NotAllowedError' });
    const calls = stubApi();
    renderApp(PATH);
    const panel = await startDictation();
    expect((await within(panel).findByRole('alert')).textContent).toMatch(/Microphone access was denied/);
    expect(calls.tokens).toEqual([]);
  });

  it('shows the server’s refusal of a token', async () => {
    stubRealtime();
    stubApi({ token: false });
    renderApp(PATH);
    const panel = await startDictation();
    expect((await within(panel).findByRole('alert')).textContent).toBe('No credits left.');
  });
});

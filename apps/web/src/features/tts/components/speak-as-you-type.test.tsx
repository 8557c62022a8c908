import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { apiError, json } from '../../../test/billing-fixture';
import { makeModel, makeVoice } from '../../../test/catalogue-fixture';
import { fakeAudio, lastSocket, stubRealtime } from '../../../test/realtime-fixture';
import { renderApp } from '../../../test/render-app';
import { makeUser } from '../../../test/user-fixture';

const PATH = '/app/speech-synthesis/text-to-speech';

function stubApi() {
  setAccessToken('t1');
  const tokens: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/models') return json([makeModel()]);
      if (key === 'GET /v1/voices') return json({ voices: [makeVoice({ voice_id: 'v1', name: 'Rachel' })] });
      if (key === 'GET /v1/history')
        return json({ history: [], last_history_item_id: null, has_more: false, scanned_until: null });
      if (key.startsWith('POST /v1/single-use-token/')) {
        tokens.push(path?.split('/').pop() ?? '');
        return json({ token: 'tts-token' });
      }
      return apiError(404, 'not_found');
    }),
  );
  return tokens;
}

/** An audio message: `samples` of 22.05 kHz PCM speaking `chars`. */
function audioMessage(samples: number[], chars: string) {
  const bytes = Buffer.alloc(samples.length * 2);
  for (const [i, sample] of samples.entries()) bytes.writeInt16LE(sample, i * 2);
  const letters = [...chars];
  const times = letters.map((_, i) => i * 10);
  return {
    audio: bytes.toString('base64'),
    alignment: { chars: letters, charStartTimesMs: times, charDurationsMs: times.map(() => 10) },
    normalizedAlignment: { chars: letters, charStartTimesMs: times, charDurationsMs: times.map(() => 10) },
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setAccessToken(null);
  localStorage.clear();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('speak as I type', { timeout: 20_000 }, () => {
  it('streams typed words on the input socket and plays the audio back to back', async () => {
    stubRealtime();
    const tokens = stubApi();
    renderApp(PATH);
    const box = (await screen.findByRole(
      'textbox',
      { name: 'Text' },
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Already here. ' } });
    const toggle = await screen.findByRole('switch', { name: 'Speak as I type' });
    expect(screen.getByText(/Credits are charged for each character spoken/)).toBeTruthy();
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(toggle);
    expect(await screen.findByText('Connecting…')).toBeTruthy();
    await waitFor(() => expect(tokens).toEqual(['tts_websocket']));

    const socket = lastSocket();
    const url = new URL(socket.url);
    expect(url.pathname).toBe('/v1/text-to-speech/v1/stream-input');
    expect(url.searchParams.get('output_format')).toBe('pcm_22050');
    expect(url.searchParams.get('single_use_token')).toBe('tts-token');
    expect(url.searchParams.get('model_id')).toBe(makeModel().model_id);
    act(() => socket.open());
    const [init] = socket.messages();
    expect(init?.text).toBe(' ');
    expect(init?.voice_settings).toMatchObject({ stability: expect.any(Number) });
    await screen.findByText('On: finish a sentence or pause to hear it.');

    // What was there before is not spoken; completed words are, and a sentence's end flushes.
    fireEvent.change(box, { target: { value: 'Already here. Hello wor' } });
    expect(socket.messages().slice(1)).toEqual([{ text: 'Hello ', try_trigger_generation: true }]);
    fireEvent.change(box, { target: { value: 'Already here. Hello world. And' } });
    expect(socket.messages().at(-1)).toEqual({ text: 'world. ', try_trigger_generation: true, flush: true });
    // A pause sends the rest.
    await waitFor(
      () =>
        expect(socket.messages().at(-1)).toEqual({ text: 'And ', try_trigger_generation: true, flush: true }),
      {
        timeout: 3000,
      },
    );

    // Audio: decoded and scheduled back to back; the characters spoken are counted.
    act(() => socket.receive(audioMessage([0, 16384, -16384, 0], 'Hello ')));
    act(() => socket.receive(audioMessage(new Array(2205).fill(100), 'world. ')));
    expect(fakeAudio.played).toHaveLength(2);
    const [one, two] = fakeAudio.played;
    expect(Array.from(one?.buffer?.channel ?? [])).toEqual([0, 0.5, -0.5, 0]);
    expect(two?.startedAt).toBeCloseTo((one?.startedAt ?? 0) + 4 / 22_050, 6);
    expect(await screen.findByText('Speaking…')).toBeTruthy();
    expect(screen.getByText('13 characters spoken')).toBeTruthy();
    expect(screen.getByText('0.1 s of audio')).toBeTruthy();
    // A generation's alignment may come ahead of its audio (an empty `audio`), and the audio after it.
    act(() => socket.receive({ ...audioMessage([], 'And '), audio: '' }));
    expect(fakeAudio.played).toHaveLength(2);
    expect(screen.getByText('17 characters spoken')).toBeTruthy();
    act(() => socket.receive({ audio: audioMessage(new Array(22_050).fill(0), '').audio }));
    expect(fakeAudio.played).toHaveLength(3);
    expect(fakeAudio.played[2]?.startedAt).toBeCloseTo((two?.startedAt ?? 0) + 2205 / 22_050, 6);
    expect(screen.getByText('17 characters spoken')).toBeTruthy();
    expect(screen.getByText('1.1 s of audio')).toBeTruthy();

    // Off: the end of input, then the server's isFinal and close.
    fireEvent.click(toggle);
    expect(socket.messages().at(-1)).toEqual({ text: '' });
    expect(await screen.findByText('Finishing the last words…')).toBeTruthy();
    act(() => socket.receive({ isFinal: true }));
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    expect(screen.queryByText('Finishing the last words…')).toBeNull();
  });

  it('shows the server’s error message', async () => {
    stubRealtime();
    stubApi();
    renderApp(PATH);
    const toggle = await screen.findByRole('switch', { name: 'Speak as I type' }, { timeout: 5000 });
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() => expect(() => lastSocket()).not.toThrow());
    act(() => lastSocket().open());
    act(() =>
      lastSocket().receive({ message: 'Your quota is used up.', error: 'quota_exceeded', code: 1008 }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Your quota is used up.');
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });
});

import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireCanPlay, getAudio, stubMedia } from '../features/player/player-test-kit';
import type { TranscriptChunk, TranscriptDetails } from '../features/speech-to-text/api/types';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';
import { transcriptShareType } from './transcript-page';

const PATH = '/app/speech-to-text/t1';

function details(overrides: Partial<TranscriptDetails> = {}): TranscriptDetails {
  return {
    transcription_id: 't1',
    name: 'Interview',
    status: 'completed',
    progress: 1,
    error: null,
    language_code: 'eng',
    audio_duration_secs: 8,
    model_id: 'parla_stt_v1',
    created_at_unix: 1_750_000_000,
    created_by_name: 'Ada',
    speaker_names: {},
    ...overrides,
  };
}

/** Words `[text, start, end, speaker]` as the public API gives them, spaces between. */
function transcript(words: Array<[string, number, number, string]>): TranscriptChunk {
  return {
    language_code: 'eng',
    language_probability: 0.99,
    text: words.map(([text]) => text).join(' '),
    transcription_id: 't1',
    audio_duration_secs: 8,
    words: words.flatMap(([text, start, end, speaker], index) => [
      ...(index > 0
        ? [{ text: ' ', start, end: start, type: 'spacing' as const, logprob: 0, speaker_id: speaker }]
        : []),
      { text, start, end, type: 'word' as const, speaker_id: speaker, logprob: -0.2 },
    ]),
  };
}

const WORDS: Array<[string, number, number, string]> = [
  ['Welcome', 0.2, 0.7, 'speaker_0'],
  ['to', 0.8, 0.9, 'speaker_0'],
  ['the', 1.0, 1.1, 'speaker_0'],
  ['show.', 1.2, 1.6, 'speaker_0'],
  ['Thanks,', 2.0, 2.4, 'speaker_1'],
  ['glad', 2.5, 2.8, 'speaker_1'],
  ['to', 2.9, 3.0, 'speaker_1'],
  ['be', 3.1, 3.2, 'speaker_1'],
  ['on', 3.3, 3.4, 'speaker_1'],
  ['the', 3.5, 3.6, 'speaker_1'],
  ['show.', 3.7, 4.2, 'speaker_1'],
];

interface Calls {
  patches: unknown[];
  exports: string[];
  audio: number;
}

function stubApi(
  options: {
    details?: () => TranscriptDetails | Response;
    transcript?: () => TranscriptChunk | Response;
  } = {},
) {
  setAccessToken('t1');
  const calls: Calls = { patches: [], exports: [], audio: 0 };
  let current = details();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path, query = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/speech-to-text/transcripts/t1/details') {
        const answer = options.details?.() ?? current;
        return answer instanceof Response ? answer : json(answer);
      }
      if (key === 'GET /v1/speech-to-text/transcripts/t1') {
        const answer = options.transcript?.() ?? transcript(WORDS);
        return answer instanceof Response ? answer : json(answer);
      }
      if (key === 'PATCH /v1/speech-to-text/transcripts/t1') {
        const body = JSON.parse(String(init?.body)) as Partial<TranscriptDetails>;
        calls.patches.push(body);
        current = { ...current, ...body };
        return json(current);
      }
      if (key === 'GET /v1/speech-to-text/transcripts/t1/audio') {
        calls.audio += 1;
        return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'audio/mpeg' } });
      }
      if (key === 'GET /v1/speech-to-text/transcripts/t1/export') {
        calls.exports.push(query);
        return new Response('1\n00:00:00,200 --> 00:00:01,600\nWelcome to the show.\n', {
          headers: {
            'content-type': 'application/x-subrip',
            'content-disposition': 'attachment; filename="Interview.srt"',
          },
        });
      }
      return apiError(404, 'not_found', 'Transcript not found.');
    }),
  );
  return calls;
}

const word = (text: string, nth = 0) =>
  within(screen.getByRole('region', { name: 'Transcript' })).getAllByRole('button', { name: text })[
    nth
  ] as HTMLButtonElement;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
});

describe('/app/speech-to-text/:transcriptionId', { timeout: 20_000 }, () => {
  it('shows the words in paragraphs by speaker, with their times and speakers in the side list', async () => {
    stubMedia();
    stubApi();
    renderApp(PATH);
    expect(
      await screen.findByRole('heading', { name: 'Interview', level: 1 }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText(/English · 0:08 · 2 speakers/)).toBeTruthy();
    const region = screen.getByRole('region', { name: 'Transcript' });
    expect(within(region).getAllByText('Speaker 1')).toHaveLength(1);
    expect(within(region).getByText('Speaker 2')).toBeTruthy();
    expect(within(region).getByText('0:02')).toBeTruthy();
    const speakers = screen.getByRole('complementary', { name: 'Speakers' });
    expect(within(speakers).getByText('Speaker 1')).toBeTruthy();
    // One tab stop for the words: the first word.
    const buttons = within(region).getAllByRole('button');
    expect(buttons).toHaveLength(WORDS.length);
    expect(buttons.filter((b) => b.tabIndex === 0)).toEqual([buttons[0]]);
  });

  it('highlights the word being spoken as the bottom player plays, and a click seeks there', async () => {
    stubMedia();
    const calls = stubApi();
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Play' }, { timeout: 5000 }));
    await waitFor(() => expect(calls.audio).toBe(1));
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    fireCanPlay(8);
    const bar = await screen.findByRole('region', { name: 'Audio player' });
    expect(within(bar).getByText('Interview')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Pause' })).toHaveLength(2));

    act(() => {
      getAudio().currentTime = 2.6;
    });
    await waitFor(() => expect(word('glad').getAttribute('aria-current')).toBe('true'));
    expect(word('Welcome').getAttribute('aria-current')).toBeNull();
    act(() => {
      getAudio().currentTime = 0.3;
    });
    await waitFor(() => expect(word('Welcome').getAttribute('aria-current')).toBe('true'));
    expect(word('glad').getAttribute('aria-current')).toBeNull();

    fireEvent.click(word('show.', 1));
    expect(getAudio().currentTime).toBeCloseTo(3.7);
    await waitFor(() => expect(word('show.', 1).getAttribute('aria-current')).toBe('true'));
  });

  it('a word clicked before the audio is loaded loads it and plays from that word', async () => {
    stubMedia();
    stubApi();
    renderApp(PATH);
    await screen.findByRole('heading', { name: 'Interview', level: 1 }, { timeout: 5000 });
    fireEvent.click(word('Thanks,'));
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    fireCanPlay(8);
    await waitFor(() => expect(getAudio().currentTime).toBeCloseTo(2.0));
    await waitFor(() => expect(word('Thanks,').getAttribute('aria-current')).toBe('true'));
  });

  it('moves between words with the arrow keys, the transcript keeping one tab stop', async () => {
    stubMedia();
    stubApi();
    renderApp(PATH);
    await screen.findByRole('heading', { name: 'Interview', level: 1 }, { timeout: 5000 });
    const first = word('Welcome');
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    await waitFor(() => expect(document.activeElement).toBe(word('to')));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(word('Thanks,')));
    expect(word('Thanks,').tabIndex).toBe(0);
    expect(word('Welcome').tabIndex).toBe(-1);
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    await waitFor(() => expect(document.activeElement).toBe(word('show.', 1)));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Home' });
    await waitFor(() => expect(document.activeElement).toBe(word('Welcome')));
  });

  it('searches the transcript: counts the matches, marks them, and steps through them', async () => {
    stubMedia();
    stubApi();
    renderApp(PATH);
    const find = await screen.findByRole('searchbox', { name: 'Find in transcript' }, { timeout: 5000 });
    fireEvent.change(find, { target: { value: 'the show' } });
    expect(await screen.findByText('1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByText('2 of 2')).toBeTruthy();
    fireEvent.keyDown(find, { key: 'Enter' });
    expect(screen.getByText('1 of 2')).toBeTruthy();
    fireEvent.keyDown(find, { key: 'Enter', shiftKey: true });
    expect(screen.getByText('2 of 2')).toBeTruthy();
    // The current match holds the transcript's tab stop.
    expect(word('the', 1).tabIndex).toBe(0);
    fireEvent.change(find, { target: { value: 'podcast' } });
    expect(await screen.findByText('No matches')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next match' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('renames the transcript and a speaker', async () => {
    stubMedia();
    const calls = stubApi();
    renderApp(PATH);
    await screen.findByRole('heading', { name: 'Interview', level: 1 }, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Rename: Title' }));
    const title = screen.getByRole('textbox', { name: 'Title' });
    fireEvent.change(title, { target: { value: 'Morning show' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    fireEvent.submit(title);
    expect(await screen.findByRole('heading', { name: 'Morning show', level: 1 })).toBeTruthy();
    expect(calls.patches).toEqual([{ name: 'Morning show' }]);

    const speakers = screen.getByRole('complementary', { name: 'Speakers' });
    fireEvent.click(within(speakers).getByRole('button', { name: 'Rename: Name of Speaker 2' }));
    const name = within(speakers).getByRole('textbox', { name: 'Name of Speaker 2' });
    fireEvent.change(name, { target: { value: 'Alice' } });
    fireEvent.click(within(speakers).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.patches).toHaveLength(2));
    expect(calls.patches[1]).toEqual({ speaker_names: { speaker_1: 'Alice' } });
    const region = screen.getByRole('region', { name: 'Transcript' });
    expect(await within(region).findByText('Alice')).toBeTruthy();
    expect(within(region).queryByText('Speaker 2')).toBeNull();
  });

  it('exports SRT as a download named by the server', async () => {
    const media = stubMedia();
    const calls = stubApi();
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderApp(PATH);
    const trigger = await screen.findByRole('button', { name: 'Export' }, { timeout: 5000 });
    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    fireEvent.click(within(menu).getByRole('menuitem', { name: /Subtitles \(SRT\)/ }));
    await waitFor(() => expect(clicks).toEqual(['Interview.srt']));
    expect(calls.exports).toEqual(['format=srt&include_speakers=true']);
    const saved = media.objects.at(-1) as Blob;
    expect(await saved.text()).toContain('Welcome to the show.');
  });

  // Once the contracts list `transcript` among the shareable resource types (the speech-to-text API).
  it.runIf(transcriptShareType !== null)('opens the workspace share dialog for the transcript', async () => {
    stubMedia();
    const calls: string[] = [];
    stubApi();
    const api = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(url);
        return api(url, init);
      }),
    );
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }, { timeout: 5000 }));
    expect(await screen.findByRole('dialog', { name: 'Share Interview' })).toBeTruthy();
    await waitFor(() =>
      expect(calls.some((url) => url.includes('resource_type=transcript') && url.includes('/t1'))).toBe(true),
    );
  });

  it('shows the progress of a transcript still being made', async () => {
    stubMedia();
    stubApi({ details: () => details({ status: 'processing', progress: 0.37 }) });
    renderApp(PATH);
    const bar = await screen.findByRole('progressbar', { name: 'Transcribing Interview' }, { timeout: 5000 });
    expect(bar.getAttribute('aria-valuenow')).toBe('37');
    expect(screen.getByText('37%')).toBeTruthy();
  });

  it('shows why a transcript failed, and a transcript of another workspace as not found', async () => {
    stubMedia();
    let answer: () => TranscriptDetails | Response = () =>
      details({ status: 'failed', error: 'The recording could not be decoded.' });
    stubApi({ details: () => answer() });
    renderApp(PATH);
    expect(
      await screen.findByText('The recording could not be decoded.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    cleanup();
    answer = () => apiError(404, 'transcript_not_found', 'Transcript not found.');
    renderApp(PATH);
    expect(
      await screen.findByRole('heading', { name: 'Transcript not found' }, { timeout: 5000 }),
    ).toBeTruthy();
  });
});

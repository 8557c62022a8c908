import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptListItem } from '../features/speech-to-text/api/types';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { stubResizeObserver } from '../test/dom-stubs';
import { stubRecorder } from '../test/recorder-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/speech-to-text';

function item(overrides: Partial<TranscriptListItem> = {}): TranscriptListItem {
  return {
    transcription_id: 't1',
    name: 'Interview',
    status: 'completed',
    progress: 1,
    error: null,
    language_code: 'eng',
    audio_duration_secs: 95,
    model_id: 'parla_stt_v1',
    created_at_unix: 1_750_000_000,
    created_by_name: 'Ada',
    ...overrides,
  };
}

type Page = { transcripts: TranscriptListItem[]; has_more: boolean; next_cursor: string | null };

/** The API: the list answers from `pages` (by cursor), everything else 404. */
function stubApi(list: (query: URLSearchParams) => Page | Response) {
  setAccessToken('t1');
  const listQueries: URLSearchParams[] = [];
  const deleted: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path, query = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/speech-to-text/transcripts') {
        const params = new URLSearchParams(query);
        listQueries.push(params);
        const answer = list(params);
        return answer instanceof Response ? answer : json(answer);
      }
      if (key.startsWith('DELETE /v1/speech-to-text/transcripts/')) {
        deleted.push(path?.split('/').pop() ?? '');
        return json({ status: 'ok' });
      }
      return apiError(404, 'not_found');
    }),
  );
  return { listQueries, deleted };
}

/** An XMLHttpRequest the test answers by hand (the upload goes through XHR for its progress). */
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

const empty: Page = { transcripts: [], has_more: false, next_cursor: null };

async function chooseFile(file: File) {
  const input = await screen.findByLabelText('Audio or video file', {}, { timeout: 5000 });
  fireEvent.change(input, { target: { files: [file] } });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  setAccessToken(null);
  FakeXhr.sent = [];
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('/app/speech-to-text', { timeout: 20_000 }, () => {
  it('shows the empty state, and the form with the languages of the built-in models', async () => {
    stubApi(() => empty);
    renderApp(PATH);
    expect(
      await screen.findByRole('heading', { name: 'Speech to text', level: 1 }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(await screen.findByText('No transcripts yet')).toBeTruthy();
    const language = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect(language.value).toBe('');
    expect(language.options[0]?.textContent).toBe('Auto detect');
    const english = [...language.options].find((o) => o.value === 'eng');
    const french = [...language.options].find((o) => o.value === 'fra');
    expect(english?.disabled).toBe(false);
    expect(french?.disabled).toBe(false);
    expect(french?.textContent).toBe('French — Multilingual model');
    expect(language.options.length).toBeGreaterThan(55);
    // Another language than English chooses the multilingual model; an English model sets detection back.
    fireEvent.change(language, { target: { value: 'fra' } });
    expect((screen.getByRole('radio', { name: 'Multilingual' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Fast' }));
    expect(language.value).toBe('');
    expect((screen.getByRole('button', { name: 'Transcribe' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists transcripts with their state: progress while processing, the error when failed, and loads more', async () => {
    const { listQueries } = stubApi((query) =>
      query.get('cursor') === 'c2'
        ? {
            transcripts: [item({ transcription_id: 't4', name: 'Older talk' })],
            has_more: false,
            next_cursor: null,
          }
        : {
            transcripts: [
              item({ transcription_id: 't3', name: 'Podcast', status: 'processing', progress: 0.42 }),
              item({
                transcription_id: 't2',
                name: 'Noise',
                status: 'failed',
                error: 'No speech was found.',
              }),
              item(),
            ],
            has_more: true,
            next_cursor: 'c2',
          },
    );
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'Transcripts' }, { timeout: 5000 });
    expect(within(list).getByRole('link', { name: 'Interview' }).getAttribute('href')).toBe(
      '/app/speech-to-text/t1',
    );
    expect(within(list).getAllByText(/1:35 · English · by Ada/)).toHaveLength(3);
    const progress = within(list).getByRole('progressbar', { name: 'Transcribing Podcast' });
    expect(progress.getAttribute('aria-valuenow')).toBe('42');
    expect(within(list).getByText('42%')).toBeTruthy();
    expect(within(list).queryByRole('link', { name: 'Podcast' })).toBeNull();
    expect(within(list).getByText(/No speech was found\. Upload the file again to retry/)).toBeTruthy();
    expect(listQueries[0]?.get('page_size')).toBe('20');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByRole('link', { name: 'Older talk' })).toBeTruthy();
    expect(listQueries.some((q) => q.get('cursor') === 'c2')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('polls the list while a transcript is processing, and stops once it is done', async () => {
    let calls = 0;
    stubApi(() => {
      calls += 1;
      return {
        transcripts: [
          calls < 3
            ? item({ status: 'processing', progress: calls === 1 ? 0.1 : 0.6 })
            : item({ status: 'completed' }),
        ],
        has_more: false,
        next_cursor: null,
      };
    });
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'Transcripts' }, { timeout: 5000 });
    expect(within(list).getByText('10%')).toBeTruthy();
    expect(await within(list).findByText('60%', {}, { timeout: 4000 })).toBeTruthy();
    expect(await within(list).findByRole('link', { name: 'Interview' }, { timeout: 4000 })).toBeTruthy();
    const settled = calls;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(calls).toBe(settled);
  }, 15_000);

  it('shows a failed load with its reason and loads again on Try again', async () => {
    let fail = true;
    stubApi(() => (fail ? apiError(403, 'missing_permissions', 'The list could not be read.') : empty));
    renderApp(PATH);
    expect(await screen.findByText('The list could not be read.', {}, { timeout: 5000 })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No transcripts yet')).toBeTruthy();
  });

  it('refuses a file that is not audio or video, or over 1 GB, before any upload', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    stubApi(() => empty);
    renderApp(PATH);
    await chooseFile(new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /notes\.pdf is not an audio or video file/,
    );
    const big = new File([new Uint8Array(4)], 'film.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 1024 ** 3 + 1 });
    await chooseFile(big);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'film.mp4 is 1024.0 MB; files of at most 1 GB can be transcribed.',
    );
    expect(screen.queryByRole('region', { name: 'File to transcribe' })).toBeNull();
    fireEvent.submit(screen.getByRole('form', { name: 'Transcribe audio' }));
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('uploads a video with its options and shows the progress, then lists the new transcript', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    let listed: Page = empty;
    stubApi(() => listed);
    renderApp(PATH);
    await chooseFile(new File([new Uint8Array(8)], 'Team meeting.mov', { type: 'video/quicktime' }));
    const chosen = await screen.findByRole('region', { name: 'File to transcribe' });
    expect(within(chosen).getByText('Team meeting.mov')).toBeTruthy();
    expect((within(chosen).getByLabelText('Title') as HTMLInputElement).value).toBe('Team meeting');
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'eng' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Accurate' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Identify speakers' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Number of speakers' }), {
      target: { value: '3' },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Tag audio events' }));
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe' }));

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0];
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/v1/speech-to-text/transcripts');
    expect(xhr?.headers.authorization).toBe('Bearer t1');
    const form = xhr?.body as FormData;
    expect([...form.entries()].filter(([key]) => key !== 'file')).toEqual([
      ['model_id', 'parla_stt_accurate_v1'],
      ['name', 'Team meeting'],
      ['language_code', 'eng'],
      ['diarize', 'true'],
      ['num_speakers', '3'],
      ['tag_audio_events', 'false'],
      ['timestamps_granularity', 'word'],
    ]);
    expect((form.get('file') as File).name).toBe('Team meeting.mov');
    act(() => xhr?.progress(30, 100));
    expect(screen.getByRole('progressbar', { name: 'Upload' }).getAttribute('aria-valuenow')).toBe('30');
    expect(screen.getByText('30%')).toBeTruthy();
    listed = {
      transcripts: [
        item({ transcription_id: 't9', name: 'Team meeting', status: 'processing', progress: 0 }),
      ],
      has_more: false,
      next_cursor: null,
    };
    act(() => xhr?.respond(202, { transcription_id: 't9', status: 'processing' }));
    const list = await screen.findByRole('list', { name: 'Transcripts' });
    expect(within(list).getByText('Team meeting')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'File to transcribe' })).toBeNull();
  });

  it('shows the server’s refusal of an upload', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    stubApi(() => empty);
    renderApp(PATH);
    await chooseFile(new File([new Uint8Array(8)], 'song.mp3', { type: 'audio/mpeg' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Transcribe' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    act(() =>
      FakeXhr.sent[0]?.respond(422, {
        detail: { status: 'invalid_audio', message: 'The file is not audio we can read.' },
      }),
    );
    expect(await screen.findByText('The file is not audio we can read.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'File to transcribe' })).toBeTruthy();
  });

  it('records in the browser, discards a take, and keeps the next one to send as webm', async () => {
    stubResizeObserver();
    stubRecorder();
    stubApi(() => empty);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Record' }, { timeout: 5000 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('button', { name: 'Record' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'File to transcribe' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Record' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    const chosen = await screen.findByRole('region', { name: 'File to transcribe' });
    expect(within(chosen).getByText(/^recording-.*\.webm$/)).toBeTruthy();
    expect(within(chosen).getByText(/Recorded here/)).toBeTruthy();
    fireEvent.click(within(chosen).getByRole('button', { name: 'Discard the recording' }));
    expect(await screen.findByRole('region', { name: 'Audio to transcribe' })).toBeTruthy();
  });

  it('deletes a transcript after confirming', async () => {
    stubResizeObserver();
    let items = [item()];
    const { deleted } = stubApi(() => ({ transcripts: items, has_more: false, next_cursor: null }));
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Interview' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Interview?' });
    items = [];
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toEqual(['t1']));
    expect(await screen.findByText('No transcripts yet')).toBeTruthy();
  });
});

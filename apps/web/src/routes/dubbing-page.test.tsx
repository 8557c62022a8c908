import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { dubbingLanguages, makeDub } from '../test/dubbing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/dubbing';

type Dub = ReturnType<typeof makeDub>;

/** The API: the list answers `dubs()` each time it is asked, the languages the fixture's; else 404. */
function stubApi(dubs: () => Dub[]) {
  setAccessToken('t1');
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      calls.push(key);
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/dubbing') return json({ dubs: dubs(), has_more: false, next_cursor: null });
      if (key === 'GET /v1/dubbing/languages') return json({ languages: dubbingLanguages });
      if (key.startsWith('DELETE /v1/dubbing/')) return json({ status: 'ok' });
      return apiError(404, 'not_found');
    }),
  );
  return calls;
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
  body: FormData | undefined;
  withCredentials = false;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }
}

/** The browser reads a chosen file's length: every media element's metadata says `seconds`. */
function stubMediaDuration(seconds: number) {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockReturnValue(seconds);
  const setSrc = vi.fn(function (this: HTMLMediaElement) {
    queueMicrotask(() => this.dispatchEvent(new Event('loadedmetadata')));
  });
  vi.spyOn(HTMLMediaElement.prototype, 'src', 'set').mockImplementation(setSrc);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  FakeXhr.sent = [];
});

describe('/app/dubbing', { timeout: 20_000 }, () => {
  it('shows the empty state with a call to create the first dub, which opens the dialog', async () => {
    stubApi(() => []);
    renderApp(PATH);
    expect(await screen.findByRole('heading', { name: 'Dubbing', level: 1 }, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText('No dubs yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create your first dub' }));
    expect(await screen.findByRole('dialog', { name: 'New dub' })).toBeTruthy();
  });

  it('lists dubs with their state: progress and its message while dubbing (polled), the refunded failure, the editor of a finished one', async () => {
    let progress = 0.4;
    const calls = stubApi(() => [
      makeDub({
        dubbing_id: 'd3',
        name: 'Keynote',
        status: 'dubbing',
        progress,
        progress_message: 'Translating 3 of 8 segments',
        stage: 'translating',
      }),
      makeDub({
        dubbing_id: 'd2',
        name: 'Podcast',
        status: 'failed',
        error: 'No voice here speaks Swahili.',
        refunded: true,
        usage: { credits: 0, source_seconds: 60 },
        input: { kind: 'audio', file_name: 'pod.mp3' },
      }),
      makeDub({ dubbing_id: 'd1', name: 'Product demo', target_languages: ['es', 'pt'] }),
    ]);
    renderApp(PATH);
    const list = await screen.findByRole('list', { name: 'Dubs' }, { timeout: 5000 });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);

    const [dubbing, failed, done] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(dubbing).getByText('Dubbing')).toBeTruthy();
    expect(
      within(dubbing).getByRole('progressbar', { name: 'Dubbing Keynote' }).getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(within(dubbing).getByText('Translating 3 of 8 segments')).toBeTruthy();
    expect(within(dubbing).queryByRole('link', { name: /Open/ })).toBeNull();

    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByRole('note').textContent).toBe(
      'No voice here speaks Swahili. Its credits were refunded.',
    );
    expect(within(failed).getByText(/credits refunded/)).toBeTruthy();

    expect(within(done).getByText('Dubbed')).toBeTruthy();
    expect(within(done).getByText('Spanish, Portuguese')).toBeTruthy();
    expect(within(done).getByText(/1,584 credits/)).toBeTruthy();
    expect(
      within(done).getByRole('link', { name: 'Open Product demo in the editor' }).getAttribute('href'),
    ).toBe('/app/dubbing/d1');

    // Polled every 2 s while one is dubbing: the new progress shows.
    progress = 0.75;
    await waitFor(
      () =>
        expect(
          screen.getByRole('progressbar', { name: 'Dubbing Keynote' }).getAttribute('aria-valuenow'),
        ).toBe('75'),
      { timeout: 4000 },
    );
    expect(calls.filter((call) => call === 'GET /v1/dubbing').length).toBeGreaterThanOrEqual(2);
  });

  it('deletes a dub after confirmation', async () => {
    const calls = stubApi(() => [makeDub()]);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Product demo' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Product demo?' });
    expect(calls.some((call) => call.startsWith('DELETE'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toContain('DELETE /v1/dubbing/d1'));
  });

  it('the new-dub dialog: unavailable targets disabled with the reason, a pivot named, the cost estimate, and the multipart body sent', async () => {
    stubApi(() => []);
    stubMediaDuration(95);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'New dub' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New dub' });

    const target = (await within(dialog).findByRole('combobox', { name: 'Dub into' })) as HTMLSelectElement;
    const option = (code: string) => [...target.options].find((o) => o.value === code);
    expect(option('es')?.disabled).toBe(false);
    expect(option('es')?.textContent).toBe('Spanish');
    expect(option('pt')?.disabled).toBe(false);
    expect(option('pt')?.textContent).toBe('Portuguese — through Spanish');
    expect(option('ja')?.disabled).toBe(true);
    expect(option('ja')?.textContent).toBe('Japanese — no offline translation');
    expect(option('ta')?.textContent).toBe('Tamil — no voice');
    expect(option('fi')?.textContent).toBe('Finnish — no offline translation, no voice');
    const source = within(dialog).getByRole('combobox', { name: 'Source language' }) as HTMLSelectElement;
    expect(source.value).toBe('auto');

    // The start button waits for a source.
    expect(
      (within(dialog).getByRole('button', { name: 'Start dubbing' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    const file = new File([new Uint8Array(2048)], 'launch video.mp4', { type: 'video/mp4' });
    fireEvent.change(within(dialog).getByLabelText('Video or audio file'), { target: { files: [file] } });
    // 95 s at 1,000 credits a minute: ceil(95 × 1000 / 60) = 1,584 (contracts dubbingCredits).
    expect(await within(dialog).findByText('1,584 credits')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe(
      'launch video',
    );

    // The watermark makes it 660 a minute; a time range bills only its seconds.
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Watermark the video' }));
    expect(await within(dialog).findByText('1,045 credits')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Start (seconds)' }), {
      target: { value: '10' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'End (seconds)' }), {
      target: { value: '40' },
    });
    expect(await within(dialog).findByText('330 credits')).toBeTruthy();
    expect(within(dialog).getByText(/drops ALL the original sound/)).toBeTruthy();

    fireEvent.change(target, { target: { value: 'pt' } });
    expect(
      within(dialog).getByText('Translated offline through Spanish, spoken by a neural voice.'),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Speakers' }), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: 'Drop the background audio' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start dubbing' }));

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/v1/dubbing');
    const body = xhr.body as FormData;
    expect(Object.fromEntries([...body.entries()].filter(([key]) => key !== 'file'))).toEqual({
      name: 'launch video',
      source_lang: 'auto',
      target_lang: 'pt',
      num_speakers: '2',
      start_time: '10',
      end_time: '40',
      drop_background_audio: 'true',
      disable_voice_cloning: 'false',
      watermark: 'true',
      dubbing_studio: 'true',
    });
    expect((body.get('file') as File).name).toBe('launch video.mp4');
    // The file goes last: the server reads the fields first.
    expect([...body.keys()].at(-1)).toBe('file');

    act(() => xhr.respond(200, { dubbing_id: 'd9', expected_duration_sec: 40 }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New dub' })).toBeNull());
  });

  it('the new-dub dialog refuses a type that cannot be dubbed, and an end before the start', async () => {
    stubApi(() => []);
    stubMediaDuration(30);
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'New dub' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New dub' });
    await within(dialog).findByRole('combobox', { name: 'Dub into' });
    fireEvent.change(within(dialog).getByLabelText('Video or audio file'), {
      target: { files: [new File(['x'], 'notes.pdf', { type: 'application/pdf' })] },
    });
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/This file type cannot be dubbed/);
    fireEvent.change(within(dialog).getByLabelText('Video or audio file'), {
      target: { files: [new File(['x'], 'talk.wav', { type: 'audio/wav' })] },
    });
    await within(dialog).findByText('500 credits');
    // An audio file carries no watermark.
    expect(
      (within(dialog).getByRole('switch', { name: 'Watermark the video' }) as HTMLInputElement).disabled,
    ).toBe(true);
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Start (seconds)' }), {
      target: { value: '20' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'End (seconds)' }), {
      target: { value: '5' },
    });
    expect(await within(dialog).findByText('The end must be after the start.')).toBeTruthy();
  });
});

import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { dubbingLanguages, makeDub, makeResource, mediaRef } from '../test/dubbing-fixture';
import { renderApp } from '../test/render-app';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/dubbing/d1';

type Resource = ReturnType<typeof makeResource>;
interface Call {
  key: string;
  query: string;
  body: unknown;
}

/** The API of one dubbed dub: `resource()` answers the editor's reads; mutations are recorded. */
function stubApi(resource: () => Resource, dub = makeDub()) {
  setAccessToken('t1');
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path, query = ''] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      calls.push({ key, query, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/dubbing/d1') return json(dub);
      if (key === 'GET /v1/dubbing/languages') return json({ languages: dubbingLanguages });
      if (key === 'GET /v1/dubbing/resource/d1') return json(resource());
      if (key.startsWith('GET /v1/dubbing/resource/d1/file/'))
        return new Response(new Uint8Array(16), { headers: { 'content-type': 'video/mp4' } });
      if (key === 'POST /v1/dubbing/resource/d1/render/es') return json({ version: 4, render_id: 'r1' });
      if (key === 'GET /v1/dubbing/resource/d1/speaker/spk1/similar-voices')
        return json({
          voices: [
            { voice_id: 'v-low', name: 'Dora', category: 'premade', description: 'warm, low' },
            { voice_id: 'v-high', name: 'Alex', category: 'premade', description: null },
          ],
        });
      if (key === 'GET /v1/dubbing/d1/transcript/es')
        return new Response('1\n00:00:00,500 --> 00:00:03,000\nBuenos días a todos.\n', {
          headers: {
            'content-type': 'text/plain',
            'content-disposition': 'attachment; filename="demo_es.srt"',
          },
        });
      if (key.startsWith('PATCH ') || key.startsWith('POST ')) return json({ version: 4 });
      return apiError(404, 'not_found');
    }),
  );
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
});

async function openEditor() {
  renderApp(PATH);
  return screen.findByRole('heading', { name: 'Product demo', level: 1 }, { timeout: 5000 });
}

function segmentBlock(text: RegExp) {
  return within(screen.getByRole('region', { name: 'Timeline' })).getByRole('button', { name: text });
}

describe('/app/dubbing/:dubbingId (the dubbing editor)', { timeout: 20_000 }, () => {
  it('shows the video, a lane per speaker with the segments, and the selected segment in the current language', async () => {
    stubApi(() => makeResource());
    await openEditor();
    expect(await screen.findByLabelText('Source video')).toBeTruthy();
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(within(timeline).getByText('Speaker 1')).toBeTruthy();
    expect(within(timeline).getByText('Speaker 2')).toBeTruthy();
    // Blocks placed by time: 3.5 s of a 20 s input is 17.5 %.
    expect(segmentBlock(/Gracias por venir/).style.left).toBe('17.5%');
    // The stale dubbed audio is marked.
    expect(segmentBlock(/Gracias por venir/).getAttribute('aria-label')).toMatch(/audio out of date/);
    // The first segment is selected: its source and its Spanish text.
    expect(segmentBlock(/Buenos días/).getAttribute('aria-pressed')).toBe('true');
    expect(
      (screen.getByRole('textbox', { name: 'Source text (English)' }) as HTMLTextAreaElement).value,
    ).toBe('Good morning everyone.');
    expect(
      (screen.getByRole('textbox', { name: 'Translation (Spanish)' }) as HTMLTextAreaElement).value,
    ).toBe('Buenos días a todos.');
    // The source language shows only the source text.
    fireEvent.click(screen.getByRole('button', { name: /English/ }));
    expect(screen.queryByRole('textbox', { name: 'Translation (Spanish)' })).toBeNull();
  });

  it('selects a segment, saves an edited translation (PATCH) and re-dubs it (POST dub), then loads the resource again', async () => {
    let version = 3;
    const calls = stubApi(() => makeResource({ version }));
    await openEditor();
    fireEvent.click(segmentBlock(/Gracias por venir/));
    expect(segmentBlock(/Gracias por venir/).getAttribute('aria-pressed')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Selected segment' });
    expect(within(panel).getByText('Audio out of date')).toBeTruthy();
    const translation = within(panel).getByRole('textbox', {
      name: 'Translation (Spanish)',
    }) as HTMLTextAreaElement;
    expect(translation.value).toBe('Gracias por venir.');
    fireEvent.change(translation, { target: { value: 'Gracias por estar aquí.' } });
    const readsBefore = calls.filter((c) => c.key === 'GET /v1/dubbing/resource/d1').length;
    version = 4;
    fireEvent.click(within(panel).getByRole('button', { name: 'Save translation' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'PATCH /v1/dubbing/resource/d1/segment/s2/es')?.body).toEqual({
        text: 'Gracias por estar aquí.',
      }),
    );
    // Every mutation answers a version: the resource is read again.
    await waitFor(() =>
      expect(calls.filter((c) => c.key === 'GET /v1/dubbing/resource/d1').length).toBeGreaterThan(
        readsBefore,
      ),
    );

    fireEvent.click(within(panel).getByRole('button', { name: 'Re-dub' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/dubbing/resource/d1/dub')?.body).toEqual({
        segments: ['s2'],
        languages: ['es'],
      }),
    );
    fireEvent.click(within(panel).getByRole('button', { name: 'Re-translate' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/dubbing/resource/d1/translate')?.body).toEqual({
        segments: ['s2'],
        languages: ['es'],
      }),
    );
  });

  it('moves between segments with the arrow keys and edits with Enter; Space plays', async () => {
    stubApi(() => makeResource());
    await openEditor();
    await screen.findByLabelText('Source video');
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    expect(segmentBlock(/Gracias por venir/).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowRight' });
    expect(segmentBlock(/Empecemos/).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'ArrowLeft' });
    expect(segmentBlock(/Gracias por venir/).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.body, { key: ' ' });
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Translation (Spanish)' }));
    // Typing in the text does not move the selection.
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(segmentBlock(/Gracias por venir/).getAttribute('aria-pressed')).toBe('true');
  });

  it('the playhead follows playback, and a click on the timeline seeks', async () => {
    stubApi(() => makeResource());
    await openEditor();
    const video = (await screen.findByLabelText('Source video')) as HTMLVideoElement;
    const playhead = screen.getByTestId('playhead');
    expect(playhead.style.left).toBe('0%');
    video.currentTime = 5;
    fireEvent.timeUpdate(video);
    // 5 s of a 20 s input.
    expect(playhead.style.left).toBe('25%');
    const ruler = within(screen.getByRole('region', { name: 'Timeline' })).getByText('0:10')
      .parentElement as HTMLElement;
    vi.spyOn(ruler, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ x: 100, y: 0, width: 800, height: 28 }),
    );
    fireEvent.click(ruler, { clientX: 700 });
    // 600 px of 800 is 75 % of 20 s.
    expect(video.currentTime).toBe(15);
    expect(playhead.style.left).toBe('75%');
  });

  it('renames a speaker and gives it one of the similar voices (PATCH speaker), and downloads the subtitles', async () => {
    const calls = stubApi(() => makeResource());
    await openEditor();
    const speakers = screen.getByRole('region', { name: 'Speakers' });
    const [name] = within(speakers).getAllByRole('textbox', { name: 'Speaker name' }) as HTMLInputElement[];
    fireEvent.change(name as HTMLInputElement, { target: { value: 'Ana' } });
    fireEvent.click(within(speakers).getByRole('button', { name: 'Rename Speaker 1' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'PATCH /v1/dubbing/resource/d1/speaker/spk1')?.body).toEqual({
        speaker_name: 'Ana',
      }),
    );
    fireEvent.click(within(speakers).getByRole('button', { name: "Change Speaker 1's voice" }));
    const voices = (await within(speakers).findByRole('combobox', {
      name: 'Similar voices',
    })) as HTMLSelectElement;
    expect([...voices.options].map((o) => o.textContent)).toEqual([
      'Choose a voice',
      'Dora — warm, low',
      'Alex',
    ]);
    fireEvent.change(voices, { target: { value: 'v-high' } });
    fireEvent.click(within(speakers).getByRole('button', { name: 'Use voice' }));
    await waitFor(() =>
      expect(
        calls.filter((c) => c.key === 'PATCH /v1/dubbing/resource/d1/speaker/spk1').at(-1)?.body,
      ).toEqual({
        voice_id: 'v-high',
        languages: ['es'],
      }),
    );

    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (this.download) saved.push(this.download);
    });
    const render = screen.getByRole('region', { name: 'Render and download' });
    fireEvent.click(within(render).getByRole('button', { name: 'Subtitles (SRT)' }));
    await waitFor(() => expect(saved).toEqual(['demo_es.srt']));
    expect(calls.find((c) => c.key === 'GET /v1/dubbing/d1/transcript/es')?.query).toBe(
      'format_type=srt&download=true',
    );
  });

  it('adds a language, then translates and dubs every segment into it', async () => {
    let added = false;
    // Once translated, the segments have their Portuguese text (and the notice goes away at once).
    const withPortuguese = (resource: Resource): Resource => {
      const translated = calls.some((c) => c.key === 'POST /v1/dubbing/resource/d1/translate');
      if (!translated) return resource;
      const segments = Object.fromEntries(
        Object.entries(resource.speaker_segments).map(([id, segment]) => [
          id,
          {
            ...segment,
            dubs: {
              ...segment.dubs,
              pt: { ...(segment.dubs.es as NonNullable<(typeof segment.dubs)['es']>), text: `pt ${id}` },
            },
          },
        ]),
      );
      return { ...resource, speaker_segments: segments };
    };
    const calls: Call[] = stubApi(() =>
      withPortuguese(makeResource(added ? { target_languages: ['es', 'pt'] } : {})),
    );
    await openEditor();
    const add = (await screen.findByRole('combobox', { name: 'Add a language' })) as HTMLSelectElement;
    // The source and the targets already there are not offered; a language this server cannot do is disabled.
    expect([...add.options].map((o) => o.value)).not.toContain('es');
    expect([...add.options].find((o) => o.value === 'ja')?.disabled).toBe(true);
    fireEvent.change(add, { target: { value: 'pt' } });
    added = true;
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/dubbing/resource/d1/language')?.body).toEqual({
        language: 'pt',
      }),
    );
    // The new language is the current one, with no text yet.
    expect(await screen.findByText(/Some segments have no Portuguese text yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Portuguese' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Translate and dub all' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/dubbing/resource/d1/dub')?.body).toEqual({
        segments: ['s1', 's2', 's3'],
        languages: ['pt'],
      }),
    );
    expect(calls.find((c) => c.key === 'POST /v1/dubbing/resource/d1/translate')?.body).toEqual({
      segments: [],
      languages: ['pt'],
    });
    const order = calls.map((c) => c.key).filter((k) => /\/(translate|dub)$/.test(k));
    expect(order).toEqual(['POST /v1/dubbing/resource/d1/translate', 'POST /v1/dubbing/resource/d1/dub']);
  });

  it('renders a language, polls the render until complete, then offers its download', async () => {
    let rendered: 'none' | 'processing' | 'complete' = 'none';
    // A render made at version 1, before the resource's latest change (version 3).
    const earlier = {
      id: 'r0',
      version: 1,
      language: 'es',
      type: 'mp4' as const,
      status: 'complete' as const,
      media_ref: mediaRef('render-r0', 20),
    };
    const calls = stubApi(() =>
      makeResource({
        renders:
          rendered === 'none'
            ? { r0: earlier }
            : {
                r0: earlier,
                r1: {
                  id: 'r1',
                  version: 4,
                  language: 'es',
                  type: 'mp4',
                  status: rendered,
                  ...(rendered === 'complete' ? { media_ref: mediaRef('render-r1', 20) } : {}),
                },
              },
      }),
    );
    await openEditor();
    const panel = screen.getByRole('region', { name: 'Render and download' });
    expect(
      within(panel).getByText('Made before the latest changes: render again to include them.'),
    ).toBeTruthy();
    expect(
      (within(panel).getByRole('combobox', { name: 'Render Spanish as' }) as HTMLSelectElement).value,
    ).toBe('mp4');
    // The server lists the new render only later: meanwhile it shows as being made, not the earlier one.
    fireEvent.click(within(panel).getByRole('button', { name: 'Render' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'POST /v1/dubbing/resource/d1/render/es')?.body).toEqual({
        render_type: 'mp4',
      }),
    );
    expect(await within(panel).findByRole('progressbar', { name: 'Rendering' })).toBeTruthy();
    // The earlier render is not offered while the new one is made.
    expect(within(panel).queryByRole('button', { name: 'Download render' })).toBeNull();
    rendered = 'complete';
    // Polled every 2 s while the render is processing.
    const download = await within(panel).findByRole('button', { name: 'Download render' }, { timeout: 4000 });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (this.download) saved.push(this.download);
    });
    await act(async () => fireEvent.click(download));
    await waitFor(() => expect(saved).toEqual(['Product_demo_es.mp4']));
    expect(calls.some((c) => c.key === 'GET /v1/dubbing/resource/d1/file/render-r1')).toBe(true);
    expect(calls.some((c) => c.key === 'GET /v1/dubbing/resource/d1/file/render-r0')).toBe(false);
  });

  it('shows the progress of a dub still being made instead of the editor', async () => {
    stubApi(
      () => makeResource(),
      makeDub({
        status: 'dubbing',
        progress: 0.5,
        progress_message: 'Speaking segment 4 of 8',
        stage: 'speaking',
      }),
    );
    renderApp(PATH);
    expect(await screen.findByText(/Speaking segment 4 of 8/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
  });
});

import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireCanPlay, getAudio, stubMedia } from '../features/player/player-test-kit';
import { setAccessToken } from '../lib/access-token';
import { apiError, json } from '../test/billing-fixture';
import { makeModel, makeVoice } from '../test/catalogue-fixture';
import { renderApp } from '../test/render-app';
import { makeStudioChapterWithContent, makeStudioProject } from '../test/studio-fixture';
import { makeUser } from '../test/user-fixture';

const PATH = '/app/studio/p1';

/** A text/event-stream body of the given progress events. */
function sse(events: unknown[]): Response {
  const text = events.map((e) => `event: progress\ndata: ${JSON.stringify(e)}\n\n`).join('');
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

interface Sent {
  key: string;
  body: unknown;
}

/** The API of one project with one chapter; `extra` answers anything else first. */
function stubApi(extra: (key: string, url: string) => Response | undefined = () => undefined) {
  setAccessToken('t1');
  const sent: Sent[] = [];
  let project = makeStudioProject();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const [path] = url.split('?');
      const key = `${init?.method ?? 'GET'} ${path}`;
      sent.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const answer = extra(key, url);
      if (answer) return answer;
      if (key === 'GET /v1/user') return json(makeUser());
      if (key === 'GET /v1/voices')
        return json({
          voices: [
            makeVoice({ voice_id: 'narrator', name: 'Sarah' }),
            makeVoice({ voice_id: 'hero', name: 'Hero' }),
          ],
        });
      if (key === 'GET /v1/studio/projects/p1') return json(project);
      if (key === 'GET /v1/studio/projects/p1/chapters/c1') return json(makeStudioChapterWithContent());
      if (key === 'GET /v1/studio/projects/p1/chapters/c1/snapshots') return json({ snapshots: [] });
      if (key === 'POST /v1/studio/projects/p1/chapters/c1/convert') return json({ status: 'ok' });
      if (key === 'POST /v1/studio/projects/p1/chapters/c1') {
        const body = JSON.parse(String(init?.body)) as {
          content: { blocks: { block_id?: string; sub_type: string; nodes: object[] }[] };
        };
        const blocks = body.content.blocks.map((block, index) => ({
          block_id: block.block_id ?? `new${index}`,
          sub_type: block.sub_type,
          nodes: block.nodes.map((node) => ({ ...node, project_voice_ref_id: 'r1' })),
          model_id: null,
          converted: false,
        }));
        return json({ chapter: { ...makeStudioChapterWithContent(), content: { blocks } } });
      }
      if (key === 'POST /v1/studio/projects/p1/convert') {
        project = { ...project, state: 'converting' };
        return json({ status: 'ok' });
      }
      if (key === 'GET /v1/studio/projects/p1/progress') {
        const chapter = {
          chapter_id: 'c1',
          state: 'converting',
          conversion_progress: 0.5,
          last_conversion_error: null,
        };
        return sse([
          { project_id: 'p1', state: 'converting', chapters: [chapter], latest_snapshot_id: null },
        ]);
      }
      return apiError(404, 'not_found');
    }),
  );
  return sent;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
});

describe('/app/studio/{id}', { timeout: 20_000 }, () => {
  it('shows the chapters and the paragraphs with their voice chips', async () => {
    stubApi();
    renderApp(PATH);
    expect(await screen.findByRole('heading', { name: 'My Book', level: 1 }, { timeout: 5000 })).toBeTruthy();
    const chapters = screen.getByRole('list', { name: 'Chapters' });
    expect(
      within(chapters)
        .getByRole('button', { name: /^1\.\s*Chapter One$/ })
        .getAttribute('aria-current'),
    ).toBe('page');
    const text = await screen.findByRole('textbox', { name: 'Text of paragraph 2' });
    expect((text as HTMLTextAreaElement).value).toBe('He said hello to her.');
    expect(screen.getByRole('button', { name: 'Voice of paragraph 2: Sarah' })).toBeTruthy();
  });

  it('gives selected words another voice (the node splits) and saves the chapter with chapters.update', async () => {
    const sent = stubApi();
    renderApp(PATH);
    const text = (await screen.findByRole(
      'textbox',
      { name: 'Text of paragraph 2' },
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    // No cursor in a paragraph yet: nothing for the toolbar's voice to apply to.
    expect(
      (screen.getByRole('button', { name: /^Voice of the text at the cursor/ }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    text.focus();
    text.setSelectionRange(8, 13);
    fireEvent.select(text);
    fireEvent.click(screen.getByRole('button', { name: 'Voice of the selected text: Sarah' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose a voice' });
    fireEvent.click(within(picker).getByRole('button', { name: 'Use Hero' }));
    expect(await screen.findByRole('button', { name: 'Voice of paragraph 2, part 2: Hero' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(sent.some((s) => s.key === 'POST /v1/studio/projects/p1/chapters/c1')).toBe(true),
    );
    const update = sent.find((s) => s.key === 'POST /v1/studio/projects/p1/chapters/c1');
    expect(update?.body).toEqual({
      content: {
        blocks: [
          {
            sub_type: 'h1',
            block_id: 'b1',
            nodes: [{ type: 'tts_node', text: 'Chapter One', voice_id: 'narrator' }],
          },
          {
            sub_type: 'p',
            block_id: 'b2',
            nodes: [
              { type: 'tts_node', text: 'He said ', voice_id: 'narrator' },
              { type: 'tts_node', text: 'hello', voice_id: 'hero' },
              { type: 'tts_node', text: ' to her.', voice_id: 'narrator' },
            ],
          },
        ],
      },
    });
    expect(await screen.findByRole('button', { name: 'Saved' })).toBeTruthy();
  });

  it('inserts a pause at the cursor', async () => {
    stubApi();
    renderApp(PATH);
    const text = (await screen.findByRole(
      'textbox',
      { name: 'Text of paragraph 2' },
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    text.focus();
    text.setSelectionRange(8, 8);
    fireEvent.select(text);
    fireEvent.click(screen.getByRole('button', { name: 'Insert pause' }));
    await waitFor(() => expect(text.value).toBe('He said <break time="1s" /> hello to her.'));
  });

  it('converts the project with its live progress from the server-sent events', async () => {
    const sent = stubApi();
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Convert project' }, { timeout: 5000 }));
    // Queried again each time: the bar is drawn anew when the page's state moves on.
    await waitFor(() =>
      expect(
        screen.getByRole('progressbar', { name: 'Converting the project' }).getAttribute('aria-valuenow'),
      ).toBe('50'),
    );
    expect(sent.some((s) => s.key === 'GET /v1/studio/projects/p1/progress')).toBe(true);
  });

  it('exports the book, and shows the server’s sentence when there is nothing to export', async () => {
    const message = 'The project has not been converted yet. Convert it first.';
    const sent = stubApi((key) =>
      key === 'GET /v1/studio/projects/p1/export' ? apiError(409, 'not_converted', message) : undefined,
    );
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Export' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Export' });
    expect((within(dialog).getByRole('combobox', { name: 'Format' }) as HTMLSelectElement).value).toBe('m4b');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(sent.some((s) => s.key === 'GET /v1/studio/projects/p1/export')).toBe(true);
  });

  it('plays the chapter from the paragraph with the cursor (Ctrl+Space) and highlights the one being spoken', async () => {
    stubMedia();
    // "Chapter One" (11 characters) from 0 s, "He said hello to her." (21) from 2 s, a tenth of a second each.
    const starts = [
      ...Array.from({ length: 11 }, (_, i) => i / 10),
      ...Array.from({ length: 21 }, (_, i) => 2 + i / 10),
    ];
    const snapshot = {
      chapter_snapshot_id: 's1',
      project_id: 'p1',
      chapter_id: 'c1',
      created_at_unix: 1_780_000_000,
      name: 'Chapter One — then',
    };
    const sent = stubApi((key) => {
      if (key === 'GET /v1/studio/projects/p1/chapters/c1/snapshots') return json({ snapshots: [snapshot] });
      if (key === 'GET /v1/studio/projects/p1/chapters/c1/snapshots/s1')
        return json({
          ...snapshot,
          audio_duration_secs: 4.5,
          character_alignments: [
            {
              characters: Array.from('Chapter OneHe said hello to her.'),
              character_start_times_seconds: starts,
              character_end_times_seconds: starts.map((t) => t + 0.1),
            },
          ],
        });
      if (key === 'POST /v1/studio/projects/p1/chapters/c1/snapshots/s1/stream')
        return new Response(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), {
          headers: { 'content-type': 'audio/mpeg' },
        });
      if (key === 'GET /v1/studio/projects/p1/chapters/c1/acx')
        return apiError(404, 'not_found', 'No report yet.');
      return undefined;
    });
    renderApp(PATH);
    const text = (await screen.findByRole(
      'textbox',
      { name: 'Text of paragraph 2' },
      { timeout: 5000 },
    )) as HTMLTextAreaElement;
    await screen.findByRole('list', { name: 'Chapter snapshots' });
    text.focus();
    fireEvent.focus(text);
    fireEvent.keyDown(text, { key: ' ', code: 'Space', ctrlKey: true });
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    expect(sent.some((s) => s.key === 'POST /v1/studio/projects/p1/chapters/c1/snapshots/s1/stream')).toBe(
      true,
    );
    fireCanPlay(4.5);
    // Sought to where paragraph 2 starts, and that paragraph is the one marked.
    await waitFor(() => expect(getAudio().currentTime).toBeCloseTo(2));
    const paragraphs = within(screen.getByRole('list', { name: 'Paragraphs' })).getAllByRole('listitem');
    await waitFor(() => expect(paragraphs[1]?.getAttribute('aria-current')).toBe('true'));
    expect(paragraphs[0]?.getAttribute('aria-current')).toBeNull();
  });

  it('regenerates with Ctrl+Enter: saves the edit, then converts the chapter', async () => {
    const sent = stubApi();
    renderApp(PATH);
    const text = await screen.findByRole('textbox', { name: 'Text of paragraph 2' }, { timeout: 5000 });
    fireEvent.change(text, { target: { value: 'He said goodbye.' } });
    fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true });
    await waitFor(() =>
      expect(sent.some((s) => s.key === 'POST /v1/studio/projects/p1/chapters/c1/convert')).toBe(true),
    );
    const keys = sent.map((s) => s.key);
    expect(keys.indexOf('POST /v1/studio/projects/p1/chapters/c1')).toBeGreaterThan(-1);
    expect(keys.indexOf('POST /v1/studio/projects/p1/chapters/c1')).toBeLessThan(
      keys.indexOf('POST /v1/studio/projects/p1/chapters/c1/convert'),
    );
  });

  it('offers only the voices the project’s model speaks, and flags a block whose voice it cannot speak', async () => {
    // Piper (the Studio default) speaks only the voices that list it (the American men's); Sarah does not.
    const fast = makeModel({
      model_id: 'parla_neural_fast_v1',
      name: 'Parla Neural Fast v1',
      languages: [{ language_id: 'en', name: 'English' }],
    });
    stubApi((key) => {
      if (key === 'GET /v1/models') return json([fast]);
      if (key === 'GET /v1/studio/projects/p1')
        return json(makeStudioProject({ default_model_id: 'parla_neural_fast_v1' }));
      if (key === 'GET /v1/voices')
        return json({
          voices: [
            makeVoice({ voice_id: 'narrator', name: 'Sarah', labels: { language: 'en' } }),
            makeVoice({
              voice_id: 'hero',
              name: 'Hero',
              labels: { language: 'en' },
              high_quality_base_model_ids: ['parla_neural_v1', 'parla_neural_fast_v1'],
            }),
          ],
        });
      return undefined;
    });
    renderApp(PATH);
    await screen.findByRole('textbox', { name: 'Text of paragraph 2' }, { timeout: 5000 });
    // Sarah, chosen before, is flagged where she speaks a block.
    expect(
      (
        await screen.findAllByText(
          'Parla Neural Fast v1 cannot speak with Sarah. Pick one of the voices it speaks.',
        )
      ).length,
    ).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: 'Voice of paragraph 2: Sarah' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose a voice' });
    expect(within(picker).getByRole('button', { name: 'Use Hero' })).toBeTruthy();
    expect(within(picker).queryByRole('button', { name: 'Use Sarah' })).toBeNull();
    fireEvent.click(within(picker).getByRole('button', { name: 'Use Hero' }));
    await waitFor(() =>
      expect(
        screen.getAllByText(
          'Parla Neural Fast v1 cannot speak with Sarah. Pick one of the voices it speaks.',
        ),
      ).toHaveLength(1),
    );
  });

  it('uploads a cover from the settings, shows the server’s refusal in its words, and shows the cover', async () => {
    stubMedia();
    let uploads = 0;
    let covered = false;
    const sent = stubApi((key) => {
      if (key === 'GET /v1/studio/projects/p1')
        return json(
          makeStudioProject(
            covered ? { cover_image_url: 'http://localhost/v1/studio/projects/p1/cover?v=1' } : {},
          ),
        );
      if (key === 'POST /v1/studio/projects/p1/cover') {
        uploads += 1;
        if (uploads === 1)
          return apiError(422, 'invalid_request', 'The cover image must be a PNG or JPEG file.');
        covered = true;
        return json({
          project: makeStudioProject({ cover_image_url: 'http://localhost/v1/studio/projects/p1/cover?v=1' }),
        });
      }
      if (key === 'GET /v1/studio/projects/p1/cover')
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), {
          headers: { 'content-type': 'image/png' },
        });
      return undefined;
    });
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'Project settings' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Project settings' });
    expect(within(dialog).getByRole('img', { name: 'No cover image yet' })).toBeTruthy();
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, {
      target: { files: [new File(['GIF89a'], 'cover.png', { type: 'image/png' })] },
    });
    expect(await within(dialog).findByText('The cover image must be a PNG or JPEG file.')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File(['png'], 'cover.png', { type: 'image/png' })] } });
    expect(await within(dialog).findByRole('img', { name: 'The cover image' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Remove cover' })).toBeTruthy();
    expect(sent.filter((s) => s.key === 'POST /v1/studio/projects/p1/cover')).toHaveLength(2);
    // A file over the limit is refused before it is sent.
    fireEvent.change(input, {
      target: {
        files: [Object.defineProperty(new File(['x'], 'big.jpg'), 'size', { value: 11 * 1024 * 1024 })],
      },
    });
    expect(await within(dialog).findByText(/larger than 10 MB/)).toBeTruthy();
    expect(sent.filter((s) => s.key === 'POST /v1/studio/projects/p1/cover')).toHaveLength(2);
  });
});

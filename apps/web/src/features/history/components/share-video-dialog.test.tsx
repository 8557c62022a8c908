import type { HistoryItemResponse } from '@parla/contracts';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../../lib/access-token';
import { createToastStore } from '../../../lib/toasts/toast-store';
import { apiError, json } from '../../../test/billing-fixture';
import { makeHistoryItem } from '../../../test/history-fixture';
import { ShareToastArea } from './share-toast-area';
import { ShareVideoDialog } from './share-video-dialog';

type Answer = (query: URLSearchParams) => Response | Promise<Response>;

// Bytes, not a jsdom Blob: the fetch Response of Node cannot read a jsdom Blob.
const pngBlob = () =>
  new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'content-type': 'image/png' } });
const mp4Blob = () =>
  new Response(new Uint8Array([0, 0, 0, 0x18]), { headers: { 'content-type': 'video/mp4' } });

/** Answers the three video calls of item h1; records each call as "METHOD path?query". */
function stubApi({
  preview = () => pngBlob(),
  generate = (query: URLSearchParams) =>
    json({ video_url: `http://localhost:8080/v1/history/h1/video?${query}` }) as Response | Promise<Response>,
  video = () => mp4Blob(),
}: {
  preview?: Answer;
  generate?: Answer;
  video?: Answer;
} = {}) {
  setAccessToken('t1');
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const parsed = new URL(url, 'http://localhost');
      calls.push(`${method} ${parsed.pathname}${parsed.search}`);
      if (parsed.pathname === '/v1/history/h1/video/preview') return preview(parsed.searchParams);
      if (parsed.pathname === '/v1/history/h1/video' && method === 'POST')
        return generate(parsed.searchParams);
      if (parsed.pathname === '/v1/history/h1/video') return video(parsed.searchParams);
      return apiError(404, 'not_found');
    }),
  );
  return calls;
}

/** A promise to settle by hand, for a render that takes its time. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

let created: string[];
let revoked: string[];
let downloads: string[];
beforeEach(() => {
  created = [];
  revoked = [];
  downloads = [];
  let next = 0;
  // jsdom has no object URLs, no media playback and no downloads.
  URL.createObjectURL = vi.fn(() => {
    next += 1;
    const url = `blob:test/${next}`;
    created.push(url);
    return url;
  });
  URL.revokeObjectURL = vi.fn((url: string) => {
    revoked.push(url);
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
  setAccessToken(null);
});

function renderDialog(item: HistoryItemResponse = makeHistoryItem({ text: 'Ten chars.' })) {
  const store = createToastStore();
  const onOpenChange = vi.fn();
  const onShareLink = vi.fn();
  const ui = (open: boolean) => (
    <ShareToastArea store={store}>
      <ShareVideoDialog item={item} open={open} onOpenChange={onOpenChange} onShareLink={onShareLink} />
    </ShareToastArea>
  );
  const view = render(ui(true));
  return {
    store,
    onOpenChange,
    onShareLink,
    setOpen: (open: boolean) => view.rerender(ui(open)),
    toasts: () => store.getSnapshot().map((t) => t.title),
  };
}

const previewImage = () => screen.findByRole('img', { name: /^Preview of the video/ });
const videoElement = () => document.querySelector('video');

describe('<ShareVideoDialog> (history/voices §2, §4, §5, §8, §9)', () => {
  it('opens on Multicolor with its preview; a new theme fetches a new preview and releases the old', async () => {
    const calls = stubApi();
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Share as a video' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'Multicolor' }) as HTMLInputElement).checked).toBe(true);
    expect((await previewImage()).getAttribute('src')).toBe('blob:test/1');
    expect(calls).toEqual(['GET /v1/history/h1/video/preview?theme=colour&strip_v3_tags=true']);
    // No tag in the text: no keep-tags toggle.
    expect(screen.queryByRole('switch')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    await waitFor(() => expect(screen.getByRole('img').getAttribute('src')).toBe('blob:test/2'));
    expect(calls.at(-1)).toBe('GET /v1/history/h1/video/preview?theme=dark&strip_v3_tags=true');
    expect(revoked).toContain('blob:test/1');
    expect(screen.getByRole('img').getAttribute('alt')).toBe('Preview of the video, Black theme');
  });

  it('Generate shows a progress bar, then a looping video with Download (fixed name) and mute', async () => {
    const render = deferred<Response>();
    const calls = stubApi({ generate: () => render.promise });
    renderDialog();
    await previewImage();
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    const bar = await screen.findByRole('progressbar', { name: 'Generating video…' });
    // 10 characters at 130 ms each: the bar moves every 100 ms.
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(5));
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
    expect((screen.getByRole('button', { name: 'Generating…' }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => {
      render.resolve(
        json({ video_url: 'http://localhost:8080/v1/history/h1/video?theme=colour&strip_v3_tags=true' }),
      );
    });
    await waitFor(() => expect(videoElement()).not.toBeNull());
    const video = videoElement() as HTMLVideoElement;
    expect(video.loop).toBe(true);
    expect(video.getAttribute('src')).toBe(created.at(-1));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(calls.slice(-2)).toEqual([
      'POST /v1/history/h1/video?theme=colour&strip_v3_tags=true',
      'GET /v1/history/h1/video?theme=colour&strip_v3_tags=true',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(downloads).toEqual(['parla-video.mp4']);

    const mute = screen.getByRole('button', { name: 'Mute' });
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mute);
    expect(mute.getAttribute('aria-pressed')).toBe('true');
    expect(video.muted).toBe(true);
    fireEvent.click(mute);
    expect(video.muted).toBe(false);
  });

  it('a failure toasts the server’s message and offers Try again, which asks again', async () => {
    let attempts = 0;
    stubApi({
      generate: () => {
        attempts += 1;
        return attempts === 1
          ? apiError(500, 'internal_error', 'The video could not be rendered. Please try again.')
          : json({ video_url: 'http://localhost:8080/v1/history/h1/video?theme=colour&strip_v3_tags=true' });
      },
    });
    const { toasts } = renderDialog();
    await previewImage();
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(toasts()).toEqual(['Error generating video: The video could not be rendered. Please try again.']);
    expect(videoElement()).toBeNull();

    fireEvent.click(retry);
    await waitFor(() => expect(videoElement()).not.toBeNull());
    expect(attempts).toBe(2);
  });

  it('says "Network error" for a network failure, and "Unknown error generating video" for anything else', async () => {
    let attempts = 0;
    stubApi({
      generate: () => {
        attempts += 1;
        if (attempts === 1) return Promise.reject(new TypeError('Failed to fetch'));
        return json({
          video_url: 'http://localhost:8080/v1/history/h1/video?theme=colour&strip_v3_tags=true',
        });
      },
      // A body that breaks while it is read: not an API error at all.
      video: () =>
        new Response(
          new ReadableStream({
            start: (controller) => controller.error(new TypeError('stream broke')),
          }),
        ),
    });
    const { toasts } = renderDialog();
    await previewImage();
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(toasts()).toHaveLength(2));
    expect(toasts()).toEqual(['Error generating video: Network error', 'Unknown error generating video']);
  });

  it('toasts a failed preview with its message', async () => {
    stubApi({ preview: () => apiError(503, 'service_unavailable', 'ffmpeg is not installed.') });
    const { toasts } = renderDialog();
    await screen.findByText('No preview');
    expect(toasts()).toEqual(['Error generating video preview: ffmpeg is not installed.']);
  });

  it('a new theme after a video clears it and its error, back to Generate', async () => {
    stubApi();
    renderDialog();
    await previewImage();
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(videoElement()).not.toBeNull());
    const videoUrl = videoElement()?.getAttribute('src') ?? '';
    fireEvent.click(screen.getByRole('radio', { name: 'White' }));
    await waitFor(() => expect(videoElement()).toBeNull());
    expect(revoked).toContain(videoUrl);
    expect(screen.getByRole('button', { name: 'Generate' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
  });

  it('keeps the v3 tags on request, when the text has some', async () => {
    const calls = stubApi();
    renderDialog(
      makeHistoryItem({
        text: 'Plain text',
        dialogue: [{ text: '[laughs] Ha.', voice_id: 'v1', voice_name: 'Sarah' }],
      }),
    );
    await previewImage();
    const toggle = screen.getByRole('switch', { name: 'Keep v3 tags' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(calls.at(-1)).toBe('GET /v1/history/h1/video/preview?theme=colour&strip_v3_tags=false'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() =>
      expect(calls).toContain('POST /v1/history/h1/video?theme=colour&strip_v3_tags=false'),
    );
  });

  it('closing resets everything: Multicolor, tags off, previews and video released', async () => {
    stubApi();
    const { setOpen } = renderDialog(makeHistoryItem({ text: 'Hi [laughs] there.' }));
    await previewImage();
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Keep v3 tags' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(videoElement()).not.toBeNull());

    setOpen(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect([...new Set(revoked)].sort()).toEqual([...new Set(created)].sort());

    setOpen(true);
    expect((screen.getByRole('radio', { name: 'Multicolor' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Keep v3 tags' }) as HTMLInputElement).checked).toBe(false);
    expect(videoElement()).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate' })).toBeTruthy();
  });

  it('for an item that is not text to speech: no request, and the spec’s toast on Generate', async () => {
    const calls = stubApi();
    const { toasts } = renderDialog(makeHistoryItem({ source: 'STS' }));
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(toasts()).toEqual(['Video generation is only available for text-to-speech items']);
    expect(calls).toEqual([]);
  });

  it('offers the share link instead', async () => {
    stubApi();
    const { onShareLink } = renderDialog();
    await previewImage();
    fireEvent.click(screen.getByRole('button', { name: 'Share a link instead' }));
    expect(onShareLink).toHaveBeenCalledOnce();
  });
});

import type { HistoryItemResponse } from '@parla/contracts';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '../../lib/access-token';
import { playerMessages } from './player-messages';
import { fireCanPlay, getAudio, makePlayerItem, renderPlayer, stubMedia } from './player-test-kit';
import { usePlayer } from './use-player';

const historyItem: HistoryItemResponse = {
  history_item_id: 'hist1',
  request_id: null,
  voice_id: 'voice1',
  model_id: 'eleven_multilingual_v2',
  voice_name: 'Rachel',
  voice_category: 'premade',
  text: 'Hello there',
  date_unix: 1_700_000_000,
  character_count_change_from: 0,
  character_count_change_to: 11,
  content_type: 'audio/mpeg',
  state: 'created',
  settings: {},
  feedback: null,
  share_link_id: null,
  source: 'TTS',
  alignments: null,
  dialogue: null,
  output_format: 'mp3_44100_128',
  duration_ms: 1200,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const notFound = () => json({ detail: { status: 'not_found', message: 'History item not found' } }, 404);
const audioFile = (bytes: number[]) =>
  new Response(new Uint8Array(bytes), { headers: { 'content-type': 'audio/mpeg' } });

/** A streamed TTS answer in Parla's NDJSON form, naming its history item. */
function ndjsonResponse(chunks: number[][], historyItemId = 'hist1') {
  const text = chunks.map(
    (bytes) => `${JSON.stringify({ audio_base64: btoa(String.fromCharCode(...bytes)) })}\n`,
  );
  return new Response(text.join(''), {
    headers: { 'content-type': 'application/x-ndjson', 'history-item-id': historyItemId },
  });
}

type FetchHandler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;
function stubFetch(handler: FetchHandler) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => handler(String(input), init));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** Reads the blob behind the last download link that was clicked. */
async function readSavedFile(media: ReturnType<typeof stubMedia>, click: ReturnType<typeof vi.spyOn>) {
  const link = click.mock.contexts.at(-1) as HTMLAnchorElement;
  const index = Number(link.href.split('/').pop()) - 1;
  const blob = media.objects[index] as Blob;
  return { fileName: link.download, bytes: [...new Uint8Array(await blob.arrayBuffer())] };
}

/** A component that wants the player without a provider around it. */
function Orphan() {
  usePlayer();
  return null;
}

let media: ReturnType<typeof stubMedia>;
let click: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  media = stubMedia();
  click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
});

describe('PlayerProvider', () => {
  it('throws the §8 message when used outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => {
      render(<Orphan />);
    }).toThrow(playerMessages.outsideProvider);
  });

  it('fetches an authenticated url with the bearer token and plays it from a blob URL', async () => {
    setAccessToken('token-1');
    const fetch = stubFetch(() => audioFile([1, 2, 3]));
    const view = renderPlayer();
    act(() =>
      view.controls().play(makePlayerItem({ type: 'speechHistoryItem', id: 'hist1' }), {
        kind: 'url',
        url: '/v1/history/hist1/audio',
        authenticated: true,
      }),
    );
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/v1/history/hist1/audio');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer token-1');
    expect(media.objects[0]).toMatchObject({ size: 3, type: 'audio/mpeg' });
  });

  it('shows the server message when an authenticated url cannot be loaded', async () => {
    setAccessToken('token-1');
    stubFetch(() => notFound());
    const view = renderPlayer();
    act(() =>
      view
        .controls()
        .play(makePlayerItem(), { kind: 'url', url: '/v1/history/gone/audio', authenticated: true }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(playerMessages.loadFailed('History item not found'));
    expect(view.controls().state.status).toBe('idle');
  });

  it('starts an autoStart item by itself once it can play', () => {
    const view = renderPlayer();
    act(() => view.controls().play(makePlayerItem({ autoStart: true }), { kind: 'url', url: '/a.mp3' }));
    expect(media.play).not.toHaveBeenCalled();
    fireCanPlay(10);
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(view.controls().state.status).toBe('playing');
  });

  it('waits autoStartDelaySeconds before starting', () => {
    vi.useFakeTimers();
    const view = renderPlayer();
    act(() =>
      view.controls().play(makePlayerItem({ autoStart: true, autoStartDelaySeconds: 2 }), {
        kind: 'url',
        url: '/a.mp3',
      }),
    );
    fireCanPlay(10);
    act(() => {
      vi.advanceTimersByTime(1999);
    });
    expect(media.play).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(media.play).toHaveBeenCalledTimes(1);
  });

  it('only logs autoplay blocked by the browser, and waits for the play button', async () => {
    vi.restoreAllMocks();
    media = stubMedia({ playError: () => new DOMException('blocked', 'NotAllowedError') });
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const view = renderPlayer();
    act(() => view.controls().play(makePlayerItem({ autoStart: true }), { kind: 'url', url: '/a.mp3' }));
    fireCanPlay(10);
    await waitFor(() =>
      expect(info).toHaveBeenCalledWith(playerMessages.autoplayBlocked, expect.any(DOMException)),
    );
    expect(view.controls().state).toMatchObject({ status: 'ready', error: null });
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('plays a stream, names the item from history-item-id, and keeps its bytes', async () => {
    const view = renderPlayer();
    act(() =>
      view.controls().play(makePlayerItem({ type: 'text-to-speech', id: '', loaded: false }), {
        kind: 'stream',
        response: ndjsonResponse([[1, 1], [2]]),
        mimeType: 'audio/mpeg',
      }),
    );
    expect(view.controls().state).toMatchObject({ status: 'loading', streaming: true });
    expect(view.controls().state.item?.id).toBe('hist1');
    // jsdom has no MediaSource: the whole body is collected into one blob.
    await waitFor(() => expect(view.controls().state.streaming).toBe(false));
    expect(getAudio().getAttribute('src')).toBe('blob:test/1');
    const blob = media.objects[0] as Blob;
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 1, 2]);
  });

  it('fails a stream with a null body with the §8 message', async () => {
    const view = renderPlayer();
    act(() =>
      view
        .controls()
        .play(makePlayerItem(), { kind: 'stream', response: new Response(null), mimeType: 'audio/mpeg' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(playerMessages.loadFailed('Response body can not be null'));
  });

  it('polls for a new history item (1 s, then 5 s) and marks it loaded, refreshing history lists', async () => {
    vi.useFakeTimers();
    let tries = 0;
    const fetch = stubFetch((url) => {
      if (url === '/v1/history/hist1') {
        tries += 1;
        return tries < 3 ? notFound() : json(historyItem);
      }
      return audioFile([1]);
    });
    const view = renderPlayer();
    const invalidate = vi.spyOn(view.queryClient, 'invalidateQueries');
    act(() =>
      view.controls().play(makePlayerItem({ type: 'text-to-speech', id: 'hist1', loaded: false }), {
        kind: 'url',
        url: '/public/hist1.mp3',
      }),
    );
    fireCanPlay(5);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(tries).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(tries).toBe(2);
    expect(view.controls().state.item?.loaded).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(tries).toBe(3);
    expect(view.controls().state.item?.loaded).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['history'] });
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(tries).toBe(3);
    expect(fetch.mock.calls.every(([url]) => String(url).startsWith('/v1/history/hist1'))).toBe(true);
  });

  it('does not poll for voice previews or items already loaded', async () => {
    vi.useFakeTimers();
    const fetch = stubFetch(() => json(historyItem));
    const view = renderPlayer();
    act(() => view.controls().play(makePlayerItem(), { kind: 'url', url: '/a.mp3' }));
    fireCanPlay(5);
    act(() =>
      view.controls().play(makePlayerItem({ type: 'speechHistoryItem', id: 'hist1', loaded: true }), {
        kind: 'url',
        url: '/b.mp3',
      }),
    );
    fireCanPlay(5);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('downloads a history item from /v1/history/{id}/audio with the bearer token', async () => {
    setAccessToken('token-1');
    const fetch = stubFetch(() => audioFile([7, 7]));
    const view = renderPlayer();
    act(() =>
      view
        .controls()
        .play(makePlayerItem({ type: 'speechHistoryItem', id: 'hist1', fileName: 'hello.mp3' }), {
          kind: 'url',
          url: '/public/hello.mp3',
        }),
    );
    fireCanPlay(5);
    fireEvent.click(screen.getByRole('button', { name: 'Download hello.mp3' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls.at(-1) ?? [];
    expect(url).toBe('/v1/history/hist1/audio');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer token-1');
    expect(await readSavedFile(media, click)).toEqual({ fileName: 'hello.mp3', bytes: [7, 7] });
  });

  it('falls back to the streamed bytes when the history item is not found (§4)', async () => {
    setAccessToken('token-1');
    stubFetch(() => notFound());
    const view = renderPlayer();
    act(() =>
      view.controls().play(makePlayerItem({ type: 'text-to-speech', id: '', fileName: 'speech.mp3' }), {
        kind: 'stream',
        response: ndjsonResponse([[3], [4, 4]]),
      }),
    );
    await waitFor(() => expect(view.controls().state.streaming).toBe(false));
    fireEvent.click(
      within(screen.getByRole('region', { name: 'Audio player' })).getByRole('button', {
        name: 'Download speech.mp3',
      }),
    );
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(await readSavedFile(media, click)).toEqual({ fileName: 'speech.mp3', bytes: [3, 4, 4] });
  });

  it('falls back to the loaded file of the source when the history item is not found', async () => {
    setAccessToken('token-1');
    stubFetch((url) => (url.endsWith('/audio') && url.includes('missing') ? notFound() : audioFile([5])));
    const view = renderPlayer();
    act(() =>
      view.controls().play(makePlayerItem({ type: 'speechHistoryItem', id: 'missing', fileName: 'a.mp3' }), {
        kind: 'url',
        url: '/files/a.mp3',
        authenticated: true,
      }),
    );
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    await act(() => view.controls().download());
    expect(await readSavedFile(media, click)).toEqual({ fileName: 'a.mp3', bytes: [5] });
  });

  it('says so when a download fails for another reason', async () => {
    setAccessToken('token-1');
    stubFetch((url) =>
      url.endsWith('/audio')
        ? json({ detail: { status: 'server_error', message: 'Disk full' } }, 500)
        : audioFile([5]),
    );
    const view = renderPlayer();
    act(() =>
      view
        .controls()
        .play(makePlayerItem({ type: 'speechHistoryItem', id: 'hist1' }), { kind: 'url', url: '/a.mp3' }),
    );
    fireCanPlay(5);
    await act(() => view.controls().download());
    expect(screen.getByRole('alert').textContent).toBe(playerMessages.downloadFailed('Disk full'));
    expect(click).not.toHaveBeenCalled();
  });

  it('stops audio that needed the sign-in when the user signs out', () => {
    setAccessToken('token-1');
    const view = renderPlayer();
    act(() =>
      view
        .controls()
        .play(makePlayerItem({ type: 'speechHistoryItem', id: 'hist1' }), { kind: 'url', url: '/a.mp3' }),
    );
    expect(screen.getByRole('region', { name: 'Audio player' })).toBeTruthy();
    act(() => setAccessToken(null));
    expect(screen.queryByRole('region', { name: 'Audio player' })).toBeNull();
  });

  it('replaces what is playing with a new item, revoking the old blob URL', async () => {
    setAccessToken('token-1');
    stubFetch(() => audioFile([1]));
    const view = renderPlayer();
    act(() => view.controls().play(makePlayerItem(), { kind: 'url', url: '/x/audio', authenticated: true }));
    await waitFor(() => expect(getAudio().getAttribute('src')).toBe('blob:test/1'));
    fireCanPlay(5);
    act(() => view.controls().resume());
    expect(view.controls().state.status).toBe('playing');
    act(() => view.controls().play(makePlayerItem({ id: 'voice2' }), { kind: 'url', url: '/b.mp3' }));
    expect(media.revokeObjectURL).toHaveBeenCalledWith('blob:test/1');
    expect(view.controls().state).toMatchObject({ status: 'loading', item: { id: 'voice2' } });
    expect(getAudio().getAttribute('src')).toBe('/b.mp3');
  });
});

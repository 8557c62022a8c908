import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachStream, type MediaSourceConstructor } from './attach-stream';
import { streamMessages } from './read-audio-stream';

const encoder = new TextEncoder();

function responseOf(parts: (string | number[])[], contentType: string): Response {
  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const part of parts)
        controller.enqueue(typeof part === 'string' ? encoder.encode(part) : new Uint8Array(part));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': contentType } });
}

/** A MediaSource that opens at once and records what reaches its one SourceBuffer. */
function fakeMediaSource() {
  const appended: number[][] = [];
  const types: string[] = [];
  class FakeMediaSource extends EventTarget {
    static isTypeSupported = (type: string) => type === 'audio/mpeg';
    readyState: 'closed' | 'open' | 'ended' = 'closed';
    ended = false;
    constructor() {
      super();
      setTimeout(() => {
        this.readyState = 'open';
        this.dispatchEvent(new Event('sourceopen'));
      }, 0);
    }
    addSourceBuffer(type: string) {
      types.push(type);
      const buffer = Object.assign(new EventTarget(), {
        updating: false,
        appendBuffer(data: Uint8Array) {
          appended.push([...data]);
          queueMicrotask(() => buffer.dispatchEvent(new Event('updateend')));
        },
      });
      return buffer;
    }
    endOfStream() {
      this.readyState = 'ended';
      this.ended = true;
    }
  }
  return { FakeMediaSource: FakeMediaSource as unknown as MediaSourceConstructor, appended, types };
}

// jsdom has no object URLs: record what would have become one.
const originalCreateObjectUrl = URL.createObjectURL;
let urls: unknown[];
beforeEach(() => {
  urls = [];
  URL.createObjectURL = vi.fn((object: Blob | MediaSource) => {
    urls.push(object);
    return `blob:test/${urls.length}`;
  });
});
afterEach(() => {
  URL.createObjectURL = originalCreateObjectUrl;
  vi.restoreAllMocks();
});

describe('attachStream', () => {
  it('plays NDJSON through a MediaSource as it arrives, appending in order and ending the stream', async () => {
    const { FakeMediaSource, appended, types } = fakeMediaSource();
    const audio = document.createElement('audio');
    const onObjectUrl = vi.fn();
    const lines = [[1], [2, 2]].map((bytes) =>
      JSON.stringify({ audio_base64: btoa(String.fromCharCode(...bytes)) }),
    );
    const attachment = attachStream({
      audio,
      response: responseOf([`${lines[0]}\n`, `${lines[1]}\n`], 'application/x-ndjson'),
      signal: new AbortController().signal,
      onObjectUrl,
      mediaSource: FakeMediaSource,
    });
    expect(audio.getAttribute('src')).toBe('blob:test/1');
    expect(onObjectUrl).toHaveBeenCalledWith('blob:test/1');
    await attachment.done;
    expect(types).toEqual(['audio/mpeg']);
    expect(appended).toEqual([[1], [2, 2]]);
    expect((urls[0] as { ended: boolean }).ended).toBe(true);
    expect(attachment.chunks.map((chunk) => [...chunk])).toEqual([[1], [2, 2]]);
  });

  it('falls back to one blob where MediaSource is missing, keeping every byte', async () => {
    const audio = document.createElement('audio');
    const attachment = attachStream({
      audio,
      response: responseOf([[0xff, 0xfb], [3]], 'audio/mpeg'),
      signal: new AbortController().signal,
      onObjectUrl: () => {},
      mediaSource: undefined,
    });
    expect(audio.hasAttribute('src')).toBe(false);
    await attachment.done;
    expect(audio.getAttribute('src')).toBe('blob:test/1');
    const blob = urls[0] as Blob;
    expect(blob.type).toBe('audio/mpeg');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0xff, 0xfb, 3]);
  });

  it('falls back to a blob for a type MediaSource cannot stream', async () => {
    const { FakeMediaSource, appended } = fakeMediaSource();
    const audio = document.createElement('audio');
    const attachment = attachStream({
      audio,
      response: responseOf([[0x52, 0x49, 0x46, 0x46]], 'audio/wav'),
      signal: new AbortController().signal,
      onObjectUrl: () => {},
      mediaSource: FakeMediaSource,
    });
    await attachment.done;
    expect(appended).toEqual([]);
    expect((urls[0] as Blob).type).toBe('audio/wav');
  });

  it('rejects a null body with "Response body can not be null"', async () => {
    const attachment = attachStream({
      audio: document.createElement('audio'),
      response: new Response(null, { headers: { 'content-type': 'audio/mpeg' } }),
      signal: new AbortController().signal,
      onObjectUrl: () => {},
      mediaSource: undefined,
    });
    await expect(attachment.done).rejects.toThrow(streamMessages.nullBody);
  });
});

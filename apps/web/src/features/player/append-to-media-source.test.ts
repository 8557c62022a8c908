import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMediaSourceAppender,
  type MediaSourceLike,
  type SourceBufferLike,
} from './append-to-media-source';
import { streamMessages } from './read-audio-stream';

/** A SourceBuffer that takes a few milliseconds per append, like a real one, and can be told to fail. */
class FakeSourceBuffer extends EventTarget implements SourceBufferLike {
  updating = false;
  appended: number[][] = [];
  failNext = false;
  appendBuffer(data: BufferSource) {
    if (this.updating) throw new DOMException('still updating', 'InvalidStateError');
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer);
    const fail = this.failNext;
    this.failNext = false;
    this.updating = true;
    setTimeout(() => {
      this.updating = false;
      if (fail) this.dispatchEvent(new Event('error'));
      else this.appended.push([...bytes]);
      this.dispatchEvent(new Event('updateend'));
    }, 2);
  }
}

function setup(readyState: MediaSourceLike['readyState'] = 'open') {
  const mediaSource = { readyState, endOfStream: vi.fn() };
  const buffer = new FakeSourceBuffer();
  return { mediaSource, buffer, appender: createMediaSourceAppender(mediaSource, buffer) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createMediaSourceAppender', () => {
  it('appends chunks one at a time, in order, even when they are queued together', async () => {
    const { buffer, appender, mediaSource } = setup();
    void appender.append(new Uint8Array([1]));
    void appender.append(new Blob([new Uint8Array([2, 2])]));
    void appender.append(new Uint8Array([3]).buffer);
    await appender.end();
    expect(buffer.appended).toEqual([[1], [2, 2], [3]]);
    expect(mediaSource.endOfStream).toHaveBeenCalledTimes(1);
  });

  it('skips a chunk with a warning when the MediaSource is not open (§8)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { buffer, appender, mediaSource } = setup('closed');
    await appender.append(new Uint8Array([1]));
    await appender.end();
    expect(buffer.appended).toEqual([]);
    expect(warn).toHaveBeenCalledWith(streamMessages.mediaSourceNotOpen);
    expect(mediaSource.endOfStream).not.toHaveBeenCalled();
  });

  it('logs a chunk that fails and goes on with the next (§4)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { buffer, appender } = setup();
    buffer.failNext = true;
    await appender.append(new Uint8Array([1]));
    const unreadable = new Blob(['x']);
    unreadable.arrayBuffer = () => Promise.reject(new Error('gone'));
    await appender.append(unreadable);
    await appender.append(new Uint8Array([2]));
    expect(buffer.appended).toEqual([[2]]);
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenNthCalledWith(1, streamMessages.chunkFailed, expect.any(Error));
    expect(error.mock.calls[1]?.[1]).toMatchObject({ message: streamMessages.blobUnreadable });
  });
});

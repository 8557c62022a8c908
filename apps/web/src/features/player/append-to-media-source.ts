import { readBlobAsArrayBuffer, streamMessages } from './read-audio-stream';

/** The parts of a MediaSource the appender uses (a fake stands in for it in tests). */
export interface MediaSourceLike {
  readonly readyState: 'closed' | 'open' | 'ended';
  endOfStream(): void;
}

/** The parts of a SourceBuffer the appender uses. */
export interface SourceBufferLike extends EventTarget {
  readonly updating: boolean;
  appendBuffer(data: BufferSource): void;
}

/** Resolves when the buffer has finished its current update (`updateend`, or `error`, which rejects). */
function whenIdle(buffer: SourceBufferLike): Promise<void> {
  if (!buffer.updating) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      buffer.removeEventListener('updateend', done);
      buffer.removeEventListener('error', failed);
      resolve();
    };
    const failed = () => {
      buffer.removeEventListener('updateend', done);
      buffer.removeEventListener('error', failed);
      reject(new Error('The source buffer could not take the chunk'));
    };
    buffer.addEventListener('updateend', done);
    buffer.addEventListener('error', failed);
  });
}

export interface MediaSourceAppender {
  /** Queues a chunk behind the ones before it; resolves once it is appended, skipped or failed. */
  append(chunk: BufferSource | Blob): Promise<void>;
  /** After every queued chunk: ends the stream (`endOfStream()`) if the source is still open. */
  end(): Promise<void>;
}

/**
 * Feeds a SourceBuffer one chunk at a time, in order (history/voices §4 "Streaming speech responses"). A
 * chunk that fails is logged as "Error processing chunk" and the rest go on; when the MediaSource is not
 * open the chunk is skipped with the warning "MediaSource is not open, skipping append" (§8).
 */
export function createMediaSourceAppender(
  mediaSource: MediaSourceLike,
  sourceBuffer: SourceBufferLike,
): MediaSourceAppender {
  let queue: Promise<void> = Promise.resolve();

  const appendNow = async (chunk: BufferSource | Blob) => {
    try {
      const data = chunk instanceof Blob ? await readBlobAsArrayBuffer(chunk) : chunk;
      await whenIdle(sourceBuffer);
      if (mediaSource.readyState !== 'open') {
        console.warn(streamMessages.mediaSourceNotOpen);
        return;
      }
      sourceBuffer.appendBuffer(data);
      await whenIdle(sourceBuffer);
    } catch (error) {
      console.error(streamMessages.chunkFailed, error);
    }
  };

  return {
    append(chunk) {
      queue = queue.then(() => appendNow(chunk));
      return queue;
    },
    end() {
      queue = queue.then(async () => {
        try {
          await whenIdle(sourceBuffer);
          if (mediaSource.readyState === 'open') mediaSource.endOfStream();
        } catch (error) {
          console.error(streamMessages.chunkFailed, error);
        }
      });
      return queue;
    },
  };
}

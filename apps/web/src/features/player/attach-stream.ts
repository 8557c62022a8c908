import { createMediaSourceAppender } from './append-to-media-source';
import { readAudioStream, resolveStreamMimeType, streamMessages } from './read-audio-stream';

/** The MediaSource constructor as the player needs it (absent in some browsers and in jsdom). */
export type MediaSourceConstructor = Pick<typeof MediaSource, 'isTypeSupported'> & (new () => MediaSource);

/** The browser's MediaSource, where there is one. */
export function getMediaSource(): MediaSourceConstructor | undefined {
  return typeof MediaSource === 'function' ? MediaSource : undefined;
}

/** Whether a stream of this type can play as it arrives; otherwise it is collected and played whole. */
export function canStreamWithMediaSource(
  mediaSource: MediaSourceConstructor | undefined,
  mimeType: string,
): mediaSource is MediaSourceConstructor {
  try {
    return mediaSource?.isTypeSupported(mimeType) === true;
  } catch {
    return false;
  }
}

export interface AttachStreamOptions {
  audio: HTMLAudioElement;
  response: Response;
  /** The audio's type when the caller knows it; else the response's audio type, else mp3. */
  mimeType?: string | undefined;
  /** Stops reading and leaves the element alone (a new item, stop()). */
  signal: AbortSignal;
  /** Receives each object URL handed to the element; the caller revokes it when the audio is replaced. */
  onObjectUrl: (url: string) => void;
  /** The MediaSource to use; the browser's by default. */
  mediaSource?: MediaSourceConstructor | undefined;
}

export interface StreamAttachment {
  /** Every audio byte received so far, in order: what Download saves when there is nothing else (§4). */
  readonly chunks: Uint8Array<ArrayBuffer>[];
  readonly mimeType: string;
  /** Settles when the body has been read to its end (or the signal stopped it); rejects if reading failed. */
  readonly done: Promise<void>;
}

function waitForEvent(target: EventTarget, name: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const finish = () => {
      target.removeEventListener(name, finish);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    target.addEventListener(name, finish, { once: true });
    signal.addEventListener('abort', finish, { once: true });
  });
}

/**
 * Plays a fetch Response into the audio element while its body arrives (history/voices §4 "Streaming speech
 * responses"): with MediaSource, chunks are appended to one SourceBuffer in order and `endOfStream()` is
 * called at the end, so playback starts with the first chunk. Without MediaSource (or for a type it cannot
 * stream) the body is collected and played as one blob. Every byte is kept for Download.
 */
export function attachStream(options: AttachStreamOptions): StreamAttachment {
  const { audio, response, signal, onObjectUrl } = options;
  const contentType = response.headers.get('content-type');
  const mimeType = resolveStreamMimeType(options.mimeType, contentType);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const mediaSourceClass = 'mediaSource' in options ? options.mediaSource : getMediaSource();

  const cancelUnreadBody = () => {
    if (response.body && !response.body.locked) response.body.cancel().catch(() => undefined);
  };

  const done = (async () => {
    if (!response.body) throw new Error(streamMessages.nullBody);
    const stream = readAudioStream(response.body, { contentType, signal });

    if (canStreamWithMediaSource(mediaSourceClass, mimeType)) {
      const mediaSource = new mediaSourceClass();
      const url = URL.createObjectURL(mediaSource);
      onObjectUrl(url);
      audio.src = url;
      await waitForEvent(mediaSource, 'sourceopen', signal);
      if (signal.aborted) {
        cancelUnreadBody();
        return;
      }
      const appender = createMediaSourceAppender(mediaSource, mediaSource.addSourceBuffer(mimeType));
      try {
        for await (const chunk of stream) {
          if (chunk.audio.byteLength === 0) continue;
          chunks.push(chunk.audio);
          await appender.append(chunk.audio);
        }
      } finally {
        // Whatever arrived plays to its end, even when the body was cut off.
        if (!signal.aborted) await appender.end();
      }
      return;
    }

    for await (const chunk of stream) {
      if (chunk.audio.byteLength > 0) chunks.push(chunk.audio);
    }
    if (signal.aborted) return;
    const url = URL.createObjectURL(new Blob(chunks, { type: mimeType }));
    onObjectUrl(url);
    audio.src = url;
  })();

  return { chunks, mimeType, done };
}

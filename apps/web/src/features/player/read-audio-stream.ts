import type { CharacterAlignment } from '@parla/contracts';
import type { z } from 'zod';

/** The stream and media messages of history/voices §8, word for word. */
export const streamMessages = {
  blobUnreadable: 'Failed to read blob',
  nullBody: 'Response body can not be null',
  invalidBase64: 'Invalid base64 string for ArrayBuffer conversion',
  /** Logged as a warning. */
  mediaSourceNotOpen: 'MediaSource is not open, skipping append',
  /** Logged; the stream continues. */
  chunkFailed: 'Error processing chunk',
} as const;

/** One piece of streamed audio (history/voices §3 "Streamed audio chunk", decoded). */
export interface StreamedAudioChunk {
  audio: Uint8Array<ArrayBuffer>;
  alignment: z.infer<typeof CharacterAlignment> | null;
}

/** The media type the player uses when neither the caller nor the response names an audio one. */
export const defaultStreamMimeType = 'audio/mpeg';

/**
 * The media type of a streamed body: the caller's, else the response's when it is audio, else mp3 (the
 * default output format, history/voices §9). JSON forms carry mp3 unless the caller says otherwise.
 */
export function resolveStreamMimeType(mimeType: string | undefined, contentType: string | null): string {
  const pick = (value: string | null | undefined) => value?.split(';')[0]?.trim().toLowerCase() ?? '';
  const normalise = (type: string) => (type === 'audio/mp3' ? 'audio/mpeg' : type);
  const own = pick(mimeType);
  if (own) return normalise(own);
  const header = pick(contentType);
  return header.startsWith('audio/') ? normalise(header) : defaultStreamMimeType;
}

/** Decodes base64 (plain or URL-safe, padded or not); anything else is the §8 error. */
export function base64ToArrayBuffer(base64: string): ArrayBuffer {
  const clean = base64.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.replace(/=+$/, '').length % 4 === 1)
    throw new Error(streamMessages.invalidBase64);
  let binary: string;
  try {
    binary = atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '='));
  } catch {
    throw new Error(streamMessages.invalidBase64);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** The bytes of a blob; a blob that cannot be read is the §8 error. */
export async function readBlobAsArrayBuffer(blob: Blob): Promise<ArrayBuffer> {
  try {
    return await blob.arrayBuffer();
  } catch (error) {
    throw new Error(streamMessages.blobUnreadable, { cause: error });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value looks like one event of the JSON forms (history/voices §3 "Streamed audio chunk"). */
function isChunkEvent(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && ('audio_base64' in value || 'alignment' in value);
}

/** Turns one JSON event into audio; an event without audio (alignment only) gives null. */
export function decodeChunkEvent(value: unknown): StreamedAudioChunk | null {
  if (!isChunkEvent(value)) throw new Error('The event has neither audio_base64 nor alignment');
  const base64 = value.audio_base64;
  if (base64 !== undefined && base64 !== null && typeof base64 !== 'string')
    throw new Error(streamMessages.invalidBase64);
  const audio = base64 ? new Uint8Array(base64ToArrayBuffer(base64)) : new Uint8Array(0);
  const alignment = isRecord(value.alignment)
    ? (value.alignment as unknown as StreamedAudioChunk['alignment'])
    : null;
  return audio.byteLength > 0 || alignment ? { audio, alignment } : null;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Splits text into JSON values, for the two JSON forms of history/voices §4: one JSON body (possibly
 * pretty-printed over many lines), or events separated by newlines or blank lines (an SSE-style `data:`
 * prefix is tolerated). Lines gather until they parse; a blank line ends an event, and a line that is a
 * whole event on its own ends a broken one before it. What cannot be parsed goes to `onError`.
 */
export function createJsonEventSplitter(onValue: (value: unknown) => void, onError: (error: Error) => void) {
  let line = '';
  let pending = '';

  const failPending = () => {
    onError(new Error(`Unreadable JSON event: ${pending.slice(0, 80)}`));
    pending = '';
  };

  const handleLine = (raw: string) => {
    const text = raw.trim().replace(/^data:\s*/, '');
    if (text === '') {
      if (pending) {
        const parsed = tryParse(pending);
        if (parsed.ok) onValue(parsed.value);
        else failPending();
        pending = '';
      }
      return;
    }
    if (pending === '') {
      const parsed = tryParse(text);
      if (parsed.ok) onValue(parsed.value);
      else pending = text;
      return;
    }
    const joined = `${pending}\n${text}`;
    const parsed = tryParse(joined);
    if (parsed.ok) {
      pending = '';
      onValue(parsed.value);
      return;
    }
    const alone = text.startsWith('{') ? tryParse(text) : { ok: false as const };
    if (alone.ok && isChunkEvent(alone.value)) {
      failPending();
      onValue(alone.value);
      return;
    }
    pending = joined;
  };

  return {
    push(text: string) {
      line += text;
      const lines = line.split('\n');
      line = lines.pop() ?? '';
      for (const each of lines) handleLine(each);
    },
    end() {
      handleLine(line);
      line = '';
      handleLine('');
    },
  };
}

/** The first byte that is not JSON whitespace, or undefined. */
function firstSignificantByte(bytes: Uint8Array): number | undefined {
  return bytes.find((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
}

export interface ReadAudioStreamOptions {
  /** The response's content type; when it is neither JSON nor audio the first byte decides. */
  contentType?: string | null;
  /** Cancels the body and ends the reading quietly. */
  signal?: AbortSignal;
  /** Where a chunk that fails is reported; the stream continues (§4). Logs "Error processing chunk" by default. */
  onChunkError?: (error: unknown) => void;
}

const logChunkError = (error: unknown) => console.error(streamMessages.chunkFailed, error);

/**
 * Reads a streamed speech body as audio chunks in order, whatever its form (history/voices §4): raw audio
 * bytes; one JSON body `{audio_base64, alignment?}`; or JSON events of the same shape separated by
 * newlines or blank lines (Parla sends `application/x-ndjson`). A chunk that fails is reported and
 * skipped. A null body throws "Response body can not be null"; a read that fails midway throws.
 */
export async function* readAudioStream(
  body: ReadableStream<Uint8Array<ArrayBuffer>> | null,
  options: ReadAudioStreamOptions = {},
): AsyncGenerator<StreamedAudioChunk> {
  if (!body) throw new Error(streamMessages.nullBody);
  const { signal, onChunkError = logChunkError } = options;
  const contentType = options.contentType?.toLowerCase() ?? '';
  const reader = body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', cancel, { once: true });

  let form: 'raw' | 'json' | undefined = contentType.includes('json')
    ? 'json'
    : contentType.startsWith('audio/')
      ? 'raw'
      : undefined;
  const decoder = new TextDecoder();
  const ready: StreamedAudioChunk[] = [];
  const splitter = createJsonEventSplitter((value) => {
    try {
      const chunk = decodeChunkEvent(value);
      if (chunk) ready.push(chunk);
    } catch (error) {
      onChunkError(error);
    }
  }, onChunkError);

  let done = false;
  try {
    while (!signal?.aborted) {
      const next = await reader.read();
      if (next.done) break;
      const bytes = next.value;
      if (!bytes || bytes.byteLength === 0) continue;
      if (form === undefined) {
        const first = firstSignificantByte(bytes);
        if (first === undefined) continue;
        // Audio never starts with `{` (mp3 frames and ID3 tags, RIFF, OggS, fLaC): JSON does.
        form = first === 0x7b ? 'json' : 'raw';
      }
      if (form === 'raw') {
        yield { audio: bytes, alignment: null };
        continue;
      }
      splitter.push(decoder.decode(bytes, { stream: true }));
      while (ready.length > 0) yield ready.shift() as StreamedAudioChunk;
    }
    done = true;
    if (form === 'json' && !signal?.aborted) {
      splitter.push(decoder.decode());
      splitter.end();
      while (ready.length > 0) yield ready.shift() as StreamedAudioChunk;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (!done) cancel();
    reader.releaseLock();
  }
}

import {
  formatNeedsTier,
  type OutputFormat,
  type TtsSocketAlignment,
  type TtsSocketError,
  WS_CLOSE,
} from '@parla/contracts';
import { base64ToBytes, pcm16ToFloat } from '../realtime';

/*
 * "Speak as I type" (issue 20 item 6): what is sent on the input-streaming socket as the text grows, how
 * the audio that comes back is decoded and scheduled, and what its errors tell the user.
 */

/** 22.05 kHz PCM: raw samples Web Audio plays at once, and a format every plan may use (not 44.1 kHz). */
export const SPEAK_AS_YOU_TYPE_FORMAT = 'pcm_22050' satisfies OutputFormat;
export const SPEAK_AS_YOU_TYPE_RATE = 22_050;
/** A pause in typing this long sends what is pending, with `flush`. */
export const TYPING_PAUSE_MS = 1000;
/** The socket waits this long for more text (the protocol's longest `inactivity_timeout`, seconds). */
export const SPEAK_AS_YOU_TYPE_INACTIVITY_S = 180;

/** The format is open to the Free plan (a check the tests keep true). */
export const formatOpenToEveryPlan = formatNeedsTier(SPEAK_AS_YOU_TYPE_FORMAT, 'free') === undefined;

/** The socket's path for a voice. */
export function streamInputPath(voiceId: string): string {
  return `/v1/text-to-speech/${encodeURIComponent(voiceId)}/stream-input`;
}

/** One text message to send, and where the text sent now ends. */
export interface TextToSend {
  text: string;
  flush: boolean;
  sentUpTo: number;
}

/** A sentence ends here: its punctuation (and closing quotes or brackets), then a space. */
const SENTENCE_END = /[.!?…;:]["'”’)\]]*\s+$/;

/**
 * What to send after the text changed, or null: the words completed since `sentUpTo` (up to the last
 * space), with `flush` when they end a sentence; after a pause (`paused`), everything pending, flushed.
 * Text edited before `sentUpTo` is not spoken again: only what is added after it is.
 */
export function nextTextToSend(text: string, sentUpTo: number, paused: boolean): TextToSend | null {
  const from = Math.min(sentUpTo, text.length);
  const pending = text.slice(from);
  if (pending.trim() === '') return null;
  if (paused) {
    // The protocol's chunks end with a space, so the next word is not glued to this one.
    return { text: /\s$/.test(pending) ? pending : `${pending} `, flush: true, sentUpTo: text.length };
  }
  const lastSpace = Math.max(pending.lastIndexOf(' '), pending.lastIndexOf('\n'), pending.lastIndexOf('\t'));
  if (lastSpace < 0) return null;
  const words = pending.slice(0, lastSpace + 1);
  if (words.trim() === '') return null;
  return { text: words, flush: SENTENCE_END.test(words), sentUpTo: from + words.length };
}

/**
 * When a buffer of `duration` seconds plays: right after the one before (`nextStart`), or a little after
 * `now` when playback has caught up, so buffers join with no gap and never start in the past.
 */
export function scheduleBuffer(
  now: number,
  nextStart: number,
  duration: number,
  lead = 0.05,
): { start: number; next: number } {
  const start = Math.max(nextStart, now + lead);
  return { start, next: start + duration };
}

/** An `audio` message's base64 16-bit PCM as samples. */
export function decodePcmAudio(base64: string): Float32Array<ArrayBuffer> {
  return pcm16ToFloat(base64ToBytes(base64));
}

/** How many characters an audio message speaks (from its alignment). */
export function charactersSpoken(alignment: TtsSocketAlignment | null | undefined): number {
  return alignment?.chars.length ?? 0;
}

/** What to tell the user when the server sends an error, or closes without one. */
export function speakAsYouTypeErrorMessage(
  error: Partial<TtsSocketError> | null,
  closeCode?: number,
): string {
  if (error?.message) return error.message;
  if (closeCode === WS_CLOSE.tryAgainLater)
    return 'The server is busy (your plan’s concurrent requests are all in use). Try again in a moment.';
  return 'The connection to the server was lost. Turn speaking as you type on again to continue.';
}

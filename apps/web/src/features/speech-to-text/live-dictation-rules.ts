import {
  REALTIME_ERROR_TYPES,
  type RealtimeErrorType,
  type RealtimeInputAudioChunk,
  type RealtimeServerMessage,
  WS_CLOSE,
} from '@parla/contracts';

/*
 * Live dictation's protocol rules (issue 20 item 6): the realtime transcription socket's query, the audio
 * messages sent, the text kept from the server's messages and what an error tells the user.
 */

/** The socket path of realtime transcription. */
export const REALTIME_STT_PATH = '/v1/speech-to-text/realtime';
/** The audio sent: 16 kHz 16-bit mono PCM, the rate the built-in English model listens at. */
export const DICTATION_SAMPLE_RATE = 16_000;
/** How much audio each message carries (the protocol's chunks are 0.1–1 s). */
export const DICTATION_CHUNK_MS = 200;
/**
 * When the transcripts list is looked at again after a kept session ends (ms after its end), until the
 * dictation's transcript is in it: the server saves it after the socket ends (its audio is encoded first,
 * seconds on a busy machine).
 */
export const DICTATION_LIST_REFRESH_MS = [0, 1000, 3000, 6000, 10_000, 15_000, 25_000] as const;
/** How long Stop waits for the last committed sentence before closing. */
export const DICTATION_FINAL_WAIT_MS = 4000;

/** The query of the socket: the built-in model, 16 kHz PCM, sentences committed by silence. */
export function dictationQuery(token: string) {
  return {
    model_id: 'parla_stt_v1',
    audio_format: 'pcm_16000',
    commit_strategy: 'vad',
    token,
  } as const;
}

/** One `input_audio_chunk` message: the PCM as base64, and `commit` on the last one. */
export function audioChunkMessage(base64: string, commit: boolean): RealtimeInputAudioChunk {
  return {
    message_type: 'input_audio_chunk',
    audio_base_64: base64,
    commit,
    sample_rate: DICTATION_SAMPLE_RATE,
  };
}

/** What the panel shows: the sentences kept, and the words still being heard. */
export interface DictationText {
  committed: string[];
  partial: string;
}

export const emptyDictation: DictationText = { committed: [], partial: '' };

/** A server frame as a message, or null when it is not one (not JSON, no `message_type`). */
export function parseRealtimeMessage(data: unknown): RealtimeServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== 'object' || value === null || !('message_type' in value)) return null;
    return value as RealtimeServerMessage;
  } catch {
    return null;
  }
}

export function isRealtimeError(
  message: RealtimeServerMessage,
): message is { message_type: RealtimeErrorType; error: string } {
  return (REALTIME_ERROR_TYPES as readonly string[]).includes(message.message_type);
}

/**
 * The text after one message: a partial replaces the provisional words; a committed sentence is kept and
 * ends them (the `_with_timestamps` form carries the same text, so only one of a pair is kept).
 */
export function applyTranscriptMessage(
  text: DictationText,
  message: RealtimeServerMessage,
  /** The type of the message before it, to skip the second of a committed pair. */
  previousType?: string,
): DictationText {
  switch (message.message_type) {
    case 'partial_transcript':
      return { ...text, partial: message.text };
    case 'committed_transcript':
    case 'committed_transcript_with_timestamps': {
      const pair =
        previousType !== undefined &&
        previousType !== message.message_type &&
        previousType.startsWith('committed_transcript');
      const sentence = message.text.trim();
      if (pair || sentence === '') return { ...text, partial: '' };
      return { committed: [...text.committed, sentence], partial: '' };
    }
    default:
      return text;
  }
}

/** What to tell the user about an error message from the server. */
export function dictationErrorMessage(type: RealtimeErrorType, detail: string): string {
  switch (type) {
    case 'auth_error':
      return 'The server did not accept this session. Sign in again and retry.';
    case 'quota_exceeded':
      return 'Your workspace has no credits left for transcription this period. Upgrade your plan or wait for the next period.';
    case 'rate_limited':
      // The plan's concurrency: every open live dictation and speak-as-you-type holds a place (issue 26).
      return 'Your plan’s concurrent sessions are all in use (each open live dictation or speak-as-you-type holds one). Close one, or try again in a moment.';
    case 'queue_overflow':
    case 'resource_exhausted':
    case 'commit_throttled':
      return 'The transcription service is busy right now. Try again in a moment.';
    case 'session_time_limit_exceeded':
      return 'The dictation reached its time limit. What was said so far is kept.';
    case 'insufficient_audio_activity':
      return 'No speech was heard for too long, so the dictation ended. Check the microphone and try again.';
    case 'unaccepted_terms':
      return 'Accept the terms of use before dictating.';
    case 'chunk_size_exceeded':
    case 'input_error':
    case 'invalid_request':
      return `The server could not read the audio: ${detail || 'it was refused'}.`;
    default:
      return detail ? `Transcription failed: ${detail}` : 'Transcription failed. Try again.';
  }
}

/** What to tell the user when the socket closes without an error message of its own. */
export function dictationCloseMessage(code: number, started: boolean): string {
  if (code === WS_CLOSE.tryAgainLater)
    return 'The server is busy (your plan’s concurrent sessions are all in use). Try again in a moment.';
  if (!started) return 'Live dictation could not connect to the server. Try again in a moment.';
  return 'The connection to the server was lost. What was committed before is kept.';
}

/** Why live dictation is not offered in this browser, or null when it can run. */
export function liveDictationUnavailableReason(): string | null {
  if (typeof window === 'undefined' || typeof window.WebSocket === 'undefined')
    return 'This browser cannot hold a live connection (it has no WebSocket). Choose a file instead.';
  if (typeof window.AudioContext === 'undefined')
    return 'This browser cannot process microphone audio (it has no Web Audio). Choose a file instead.';
  if (!navigator.mediaDevices?.getUserMedia)
    return 'This page cannot reach a microphone here (it needs a secure https connection). Choose a file instead.';
  return null;
}

/** The transcript a dictation became, as the list shows it (its id and when it was made). */
export interface ListedTranscript {
  transcription_id: string;
  created_at_unix: number;
}

/**
 * How far back (seconds) a transcript's creation time may be from the dictation's start and still be the
 * dictation's, for when the list was not loaded before it (the server's clock and the browser's differ).
 */
export const DICTATION_CLOCK_SLACK_S = 120;

/**
 * The transcript a finished dictation was kept as, in the newest page of the list (issue 26 item 7: the
 * panel says "in the list below" only once it is): the newest one made since the dictation started (give or
 * take the clocks) that the list did not hold before it (`known`: null when the list was never loaded).
 */
export function findKeptDictation(
  transcripts: readonly ListedTranscript[],
  known: ReadonlySet<string> | null,
  startedAtUnix: number,
): string | null {
  const found = transcripts.find(
    (transcript) =>
      transcript.created_at_unix >= startedAtUnix - DICTATION_CLOCK_SLACK_S &&
      !known?.has(transcript.transcription_id),
  );
  return found?.transcription_id ?? null;
}

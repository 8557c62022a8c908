import type { VoiceProfile } from '@parla/audio';
import type { SttRecogniser } from './model-files';

/**
 * The speech-to-text work an engine child does (task `stt`), on a 16 kHz mono s16le file the server
 * decoded (offsets in samples): find the speech in a span (`vad`), recognise segments (`decode`), align a
 * known text (`align`). Only offsets and text cross the process boundary, never the audio.
 */
export type SttEngineRequest =
  | { kind: 'vad'; file: string; from: number; to: number; final: boolean }
  | {
      kind: 'decode';
      file: string;
      /** Which recogniser: a Moonshine size, or Whisper base (the multilingual model). */
      size: SttRecogniser;
      /** Whisper only: the language to transcribe (ISO 639-1); absent to detect it per window. */
      language?: string;
      segments: { start: number; end: number }[];
      timestamps: 'none' | 'word' | 'character';
      /**
       * The source was sampled at 8 kHz or less (telephone audio, NARROWBAND_MAX_HZ): more is read before
       * each segment, as the voice activity finds speech late there (moonshine-engine.ts, readWindow).
       */
      narrowband: boolean;
      /** Profile each segment's voice (for diarization). */
      profile: boolean;
      /** Look for non-speech sounds in these gaps. */
      gaps: { start: number; end: number }[];
    }
  | { kind: 'align'; file: string; text: string }
  | {
      kind: 'cluster';
      /** The segments' voice profiles, in order (none where a segment had too little voice). */
      profiles: (VoiceProfile | undefined)[];
      numSpeakers?: number;
      threshold?: number;
    };

export interface SttVadResult {
  /** Speech found in the span, in samples. */
  segments: { start: number; end: number }[];
  /** Where the next span starts: the span's end, or the start of speech still going on at its end. */
  next: number;
}

export interface SttDecodedSegment {
  text: string;
  /** Seconds from the start of the file. */
  words: {
    text: string;
    start: number;
    end: number;
    characters?: { text: string; start: number; end: number }[];
  }[];
  profile?: VoiceProfile;
  /** Whisper only: the language it heard (or was told) in this segment, as Whisper names it ("es"). */
  language?: string;
}

export interface SttDecodeResult {
  segments: SttDecodedSegment[];
  events: { label: string; start: number; end: number }[];
}

/**
 * Sources sampled at this rate or less are narrowband (telephone: 300–3,400 Hz, G.711, GSM, AMR-NB):
 * the default model hears them with the accurate recogniser and more audio before each segment
 * (docs/decisions/0017-telephone-speech.md).
 */
export const NARROWBAND_MAX_HZ = 8_000;

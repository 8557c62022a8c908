import type { VoiceProfile } from '@parla/audio';
import type { MoonshineSize } from './model-files';

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
      size: MoonshineSize;
      segments: { start: number; end: number }[];
      timestamps: 'none' | 'word' | 'character';
      /** Profile each segment's voice (for diarization). */
      profile: boolean;
      /** Look for non-speech sounds in these gaps. */
      gaps: { start: number; end: number }[];
    }
  | { kind: 'align'; file: string; text: string };

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
}

export interface SttDecodeResult {
  segments: SttDecodedSegment[];
  events: { label: string; start: number; end: number }[];
}

/** 16 kHz: what the recogniser and the voice-activity model take. */
export const STT_SAMPLE_RATE = 16_000;

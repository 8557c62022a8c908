import type { WordTiming } from '@parla/audio';
import type { EngineName } from '@parla/contracts';

/*
 * Text to speech, as the modules see it: a provider speaks one sentence (plain text) with an engine voice.
 * The embedded engines run in the engine children (engines/, engine-pool.ts); an OpenAI-compatible speech
 * server is the `external` engine (openai-compatible-tts.ts).
 */

/** One synthesis, as the engine child receives it. Never SSML: plain text only (flite loops on prosody). */
export interface EngineSynthesisRequest {
  engine: EngineName;
  /**
   * The engine's own voice name: an eSpeak voice (`en-us+f3`), a flite voice (`slt`), a festival voice, a
   * Kokoro style (`af_heart`), a Piper model (`en_US-joe-medium`).
   */
  voice: string;
  text: string;
  /**
   * The language the text is read in (a SPOKEN_LANGUAGES id, as `language_code` names it): the neural
   * engines phonemize with that language's eSpeak voice. Default: the voice's own language. The classic
   * engines ignore it (their language is their voice).
   */
  language?: string;
  /** Speaking rate, 1 = the voice's own (0.5–2). */
  rate?: number;
  /** Pitch as a multiple of the voice's own (0.5–2); engines that cannot shift pitch ignore it. */
  pitch?: number;
  /** Intonation range as a multiple of the voice's own (0 monotone – 2 lively); festival ignores it. */
  range?: number;
  /**
   * Spans of `text` to be said as the given phonemes (IPA), not as written: pronunciation-dictionary
   * phoneme rules and `<phoneme>` tags, matched by the speech pipeline (issue 30). Sorted, not
   * overlapping; `start`/`end` are UTF-16 offsets into `text`. Each engine takes them through its own
   * phoneme input.
   */
  phonemes?: PhonemeSpan[];
}

/**
 * A pronunciation (a rule's or a `<phoneme>` tag's, IPA or CMU ARPAbet) as the IPA of a phoneme span: the
 * speech pipeline's side of the engines' phoneme input (phoneme-alphabets.ts).
 */
export { pronunciationIpa } from './phoneme-alphabets';

/** A span of a synthesis's text said as the given IPA (see `EngineSynthesisRequest.phonemes`). */
export interface PhonemeSpan {
  start: number;
  end: number;
  ipa: string;
}

/**
 * Whether an engine voice takes `pitch` and `range` itself: eSpeak-NG (its pitch and range settings) and
 * the flite voices with pitch targets (int_f0_target_mean / int_f0_target_stddev; flite-engine.ts).
 * Festival's HTS voice, flite's rms and an external server ignore them: the speech pipeline moves their
 * pitch and widens or narrows their intonation afterwards (intonation.ts, voice-transform.ts).
 */
export function intonationIsNative(voice: { engine: EngineName; voice: string }): boolean {
  if (voice.engine === 'espeak') return true;
  return voice.engine === 'flite' && voice.voice !== 'rms';
}

/** How a synthesis is run: its time bound, its cancel signal and whose work it is. */
export interface SynthesisOptions {
  /** The bound of the engine's work once it starts (default: synthesisBoundMs of the text). */
  timeoutMs?: number | undefined;
  /** Cancels the synthesis while it still waits to start. */
  signal?: AbortSignal | undefined;
  /** Whose work it is (a workspace id), for the engines' fair queue; calls without one share "". */
  tenant?: string | undefined;
}

export interface EngineSynthesisResult {
  sampleRate: number;
  /** Mono signed 16-bit PCM. */
  samples: Int16Array;
  words: WordTiming[];
  /** `exact` when the engine reported the times, `estimated` when they were spread over the audio. */
  timing: 'exact' | 'estimated';
}

/** Whatever speaks a sentence: the engine pool, or an external speech server. */
export interface TtsProvider {
  /** `signal` cancels a synthesis that has not started yet (one already running may finish). */
  synthesize(request: EngineSynthesisRequest, options?: SynthesisOptions): Promise<EngineSynthesisResult>;
  /** How many sentences it may speak at once. */
  readonly size: number;
}

/** Thrown when the external server fails: mapped to the same clean 5xx as a failed engine. */
export class ExternalTtsFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExternalTtsFailure';
  }
}

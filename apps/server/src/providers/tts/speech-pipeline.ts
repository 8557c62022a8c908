import type { EngineVoice } from '@parla/contracts';
import { type CharacterAlignment, characterTimes, originalTimes, toAlignment } from './alignment';
import { clamp, type WordTiming } from './engine-synthesis';
import {
  identityNormalization,
  type NormalizedText,
  normalizeEnglish,
  splitSentences,
  toOriginalRange,
} from './text-normalization';
import type { TtsProvider } from './tts-provider';

/** The voice settings of the public API, as the engines can honour them (see docs/architecture.md). */
export interface SpeechSettings {
  /** The speaking rate: 0.7–1.2 from voice settings, 0.5–2 from the OpenAI-compatible call. */
  speed: number;
  /** 0–1: higher is steadier → a narrower intonation range. */
  stability: number;
  /** 0–1: more style → a livelier intonation range. */
  style: number;
  /** Peak-normalises each sentence to −1 dBFS. */
  useSpeakerBoost: boolean;
}

export interface SpeechRequest {
  text: string;
  voice: EngineVoice;
  settings: SpeechSettings;
  /** Turn numbers, dates, currency… into words first (English). */
  normalize: boolean;
}

export interface SpeechSentence {
  /** Offsets in the normalised text. */
  start: number;
  end: number;
  sampleRate: number;
  samples: Int16Array;
  /** Word times in ms from the start of this sentence, offsets in the normalised text. */
  words: WordTiming[];
}

export interface SpeechResult {
  sampleRate: number;
  samples: Int16Array;
  normalized: NormalizedText;
  alignment: CharacterAlignment;
  normalizedAlignment: CharacterAlignment;
}

/** The engine's rate, pitch and intonation range for a voice with these settings. */
export function engineProsody(
  voice: EngineVoice,
  settings: SpeechSettings,
): { rate: number; pitch: number; range: number } {
  return {
    rate: clamp((voice.rate ?? 1) * clamp(settings.speed, 0.5, 2), 0.5, 2),
    pitch: voice.pitch ?? 1,
    range: clamp((1.5 - clamp(settings.stability, 0, 1)) * (1 + 0.5 * clamp(settings.style, 0, 1)), 0, 2),
  };
}

export function normalizeFor(request: Pick<SpeechRequest, 'text' | 'normalize'>): NormalizedText {
  return request.normalize ? normalizeEnglish(request.text) : identityNormalization(request.text);
}

/**
 * Speaks the text sentence by sentence, in order, each in an engine child; a sentence that fails is
 * retried once in another child before the whole request fails (issue 4 "Engines are supervised").
 */
export async function* speakSentences(
  engines: TtsProvider,
  request: SpeechRequest,
  normalized: NormalizedText = normalizeFor(request),
): AsyncGenerator<SpeechSentence> {
  const prosody = engineProsody(request.voice, request.settings);
  const sentences = splitSentences(normalized.text);
  // Up to the pool's size run at once; they are handed out in order.
  const ahead = Math.max(1, engines.size);
  const started: Promise<SpeechSentence>[] = [];
  const start = (index: number) => {
    const range = sentences[index] as { start: number; end: number };
    const text = normalized.text.slice(range.start, range.end);
    const call = () =>
      engines.synthesize({ engine: request.voice.engine, voice: request.voice.voice, text, ...prosody });
    started[index] = call()
      .catch(() => call())
      .then((result) => ({
        start: range.start,
        end: range.end,
        sampleRate: result.sampleRate,
        // Speaker boost per sentence, so a streamed response sounds like the whole one.
        samples: request.settings.useSpeakerBoost ? peakNormalize(result.samples) : result.samples,
        words: result.words.map((w) => ({ ...w, start: w.start + range.start, end: w.end + range.start })),
      }));
    // A rejection is handled when its turn comes; until then it must not count as unhandled.
    started[index]?.catch(() => undefined);
  };
  for (let i = 0; i < Math.min(ahead, sentences.length); i += 1) start(i);
  for (let i = 0; i < sentences.length; i += 1) {
    if (i + ahead < sentences.length) start(i + ahead);
    yield await (started[i] as Promise<SpeechSentence>);
  }
}

/** Scales samples so the loudest peak sits at −1 dBFS (speaker boost). */
export function peakNormalize(samples: Int16Array): Int16Array {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  if (peak === 0) return samples;
  const gain = (32767 * 10 ** (-1 / 20)) / peak;
  return samples.map((s) => Math.max(-32768, Math.min(32767, Math.round(s * gain))));
}

/** Joins spoken sentences into one audio with the alignment of the whole text. */
export function joinSentences(
  text: string,
  normalized: NormalizedText,
  parts: readonly SpeechSentence[],
): SpeechResult {
  const sampleRate = parts[0]?.sampleRate ?? 22050;
  const total = parts.reduce((sum, p) => sum + p.samples.length, 0);
  const samples = new Int16Array(total);
  const words: WordTiming[] = [];
  let offsetSamples = 0;
  for (const part of parts) {
    samples.set(part.samples, offsetSamples);
    const offsetMs = (offsetSamples / sampleRate) * 1000;
    for (const w of part.words)
      words.push({ ...w, startMs: w.startMs + offsetMs, endMs: w.endMs + offsetMs });
    offsetSamples += part.samples.length;
  }
  const totalMs = (total / sampleRate) * 1000;
  const spokenTimes = characterTimes(normalized.text, words, totalMs);
  return {
    sampleRate,
    samples,
    normalized,
    normalizedAlignment: toAlignment(normalized.text, spokenTimes),
    alignment: toAlignment(text, originalTimes(normalized, spokenTimes, text.length)),
  };
}

/** Speaks the whole text and aligns it to the characters, as written and as normalised. */
export async function synthesizeSpeech(engines: TtsProvider, request: SpeechRequest): Promise<SpeechResult> {
  const normalized = normalizeFor(request);
  const parts: SpeechSentence[] = [];
  for await (const sentence of speakSentences(engines, request, normalized)) parts.push(sentence);
  return joinSentences(request.text, normalized, parts);
}

/**
 * The alignment of each streamed chunk: the characters not yet sent up to the end of this sentence (the
 * last chunk takes the rest), with times on the whole response's clock.
 */
export class StreamAligner {
  private readonly words: WordTiming[] = [];
  private offsetMs = 0;
  private sentNormalized = 0;
  private sentOriginal = 0;
  private remaining: number;

  constructor(
    private readonly text: string,
    private readonly normalized: NormalizedText,
  ) {
    this.remaining = splitSentences(normalized.text).length;
  }

  next(sentence: SpeechSentence): {
    alignment: CharacterAlignment;
    normalized_alignment: CharacterAlignment;
  } {
    for (const w of sentence.words) {
      this.words.push({ ...w, startMs: w.startMs + this.offsetMs, endMs: w.endMs + this.offsetMs });
    }
    this.offsetMs += (sentence.samples.length / sentence.sampleRate) * 1000;
    this.remaining -= 1;
    const last = this.remaining <= 0;
    const spoken = characterTimes(this.normalized.text, this.words, this.offsetMs);
    const normalizedEnd = last ? this.normalized.text.length : sentence.end;
    const originalEnd = last ? this.text.length : toOriginalRange(this.normalized, 0, normalizedEnd).end;
    const original = originalTimes(this.normalized, spoken, this.text.length);
    const chunk = {
      alignment: toAlignment(
        this.text.slice(this.sentOriginal, originalEnd),
        original.slice(this.sentOriginal, originalEnd),
      ),
      normalized_alignment: toAlignment(
        this.normalized.text.slice(this.sentNormalized, normalizedEnd),
        spoken.slice(this.sentNormalized, normalizedEnd),
      ),
    };
    this.sentNormalized = normalizedEnd;
    this.sentOriginal = Math.max(this.sentOriginal, originalEnd);
    return chunk;
  }
}

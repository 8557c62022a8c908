import type { EngineVoice } from '@parla/contracts';
import { Limiter } from '../../platform/limiter';
import { EngineFailure } from '../engines/engine-pool';
import { transformVoice, type VoiceTransform } from '../voice-conversion/voice-transform';
import { type CharacterAlignment, characterTimes, originalTimes, toAlignment } from './alignment';
import {
  applyGain,
  normalizeAudioTags,
  planSentences,
  type SentencePlan,
  type SpeechPiece,
  whisperVariant,
} from './audio-tags';
import { clamp, type EngineSynthesisRequest, type WordTiming } from './engine-synthesis';
import { normalizeMarkup } from './markup';
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
  /** v3 models: read [bracketed] audio tags instead of speaking them (audio-tags.ts). */
  readsAudioTags?: boolean;
  /** An own voice: the pitch and formant shift from the engine's rendition to the voice's profile. */
  timbre?: VoiceTransform | undefined;
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

/**
 * The spoken text of a request: break and phoneme tags read (markup.ts), audio tags read (v3 models), then
 * English normalisation if asked.
 */
export function normalizeFor(
  request: Pick<SpeechRequest, 'text' | 'normalize' | 'readsAudioTags'>,
): NormalizedText {
  const normalizePiece = request.normalize ? normalizeEnglish : identityNormalization;
  return normalizeMarkup(request.text, (piece) =>
    request.readsAudioTags ? normalizeAudioTags(piece, normalizePiece) : normalizePiece(piece),
  );
}

/** One engine call for a piece of a sentence, with its tags' delivery on top of the voice's prosody. */
function pieceRequest(
  request: SpeechRequest,
  prosody: ReturnType<typeof engineProsody>,
  piece: SpeechPiece,
  text: string,
): EngineSynthesisRequest {
  const { delivery } = piece;
  return {
    engine: request.voice.engine,
    voice:
      delivery.whisper && request.voice.engine === 'espeak'
        ? whisperVariant(request.voice.voice)
        : request.voice.voice,
    text,
    rate: delivery.rate ? clamp(prosody.rate * delivery.rate, 0.5, 2) : prosody.rate,
    pitch: delivery.pitch ? clamp(prosody.pitch * delivery.pitch, 0.5, 2) : prosody.pitch,
    range: delivery.range ? clamp(prosody.range * delivery.range, 0, 2) : prosody.range,
  };
}

/** One sentence's audio from its spoken pieces, with the tags' silences before, between and after them. */
function joinPieces(
  sentence: SentencePlan,
  spoken: readonly { sampleRate: number; samples: Int16Array; words: WordTiming[] }[],
): SpeechSentence {
  const sampleRate = spoken[0]?.sampleRate ?? 22050;
  const only = spoken[0];
  if (only && spoken.length === 1 && !sentence.pieces[0]?.pauseBeforeMs && !sentence.pauseAfterMs)
    return { start: sentence.start, end: sentence.end, sampleRate, samples: only.samples, words: only.words };
  const silence = (ms: number) => new Int16Array(Math.round((ms * sampleRate) / 1000));
  const chunks: Int16Array[] = [];
  const words: WordTiming[] = [];
  let length = 0;
  const add = (samples: Int16Array) => {
    chunks.push(samples);
    length += samples.length;
  };
  for (const [i, piece] of sentence.pieces.entries()) {
    const result = spoken[i] as (typeof spoken)[0];
    if (piece.pauseBeforeMs) add(silence(piece.pauseBeforeMs));
    const offsetMs = (length / sampleRate) * 1000;
    for (const w of result.words)
      words.push({ ...w, startMs: w.startMs + offsetMs, endMs: w.endMs + offsetMs });
    add(result.samples);
  }
  if (sentence.pauseAfterMs) add(silence(sentence.pauseAfterMs));
  const samples = new Int16Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    samples.set(chunk, offset);
    offset += chunk.length;
  }
  return { start: sentence.start, end: sentence.end, sampleRate, samples, words };
}

export interface SpeakOptions {
  /** Cancels the syntheses not started yet (the request was refused after all). */
  signal?: AbortSignal | undefined;
  /** Whose request it is (the workspace): the engines' queue is fair between tenants. */
  tenant?: string | undefined;
  /**
   * The first sentence runs alone, and the others start only when the consumer asks for the second: a
   * stream's first audio then has the engines (and the cores) to itself.
   */
  firstAlone?: boolean;
}

/**
 * Why a sentence is tried once more: its child crashed or was killed past the time bound (a stall of the
 * machine as much as of the engine: every text is bounded, MAX_ENGINE_TEXT). Not when the engine refused
 * the text (it would again), nor when every engine stayed busy (trying again would add to the queue).
 */
const RETRIED = new Set<EngineFailure['reason']>(['crashed', 'timeout']);

/**
 * Speaks the text sentence by sentence, in order, each in an engine child; a sentence whose child failed
 * is retried once in another child before the whole request fails (issue 4 "Engines are supervised",
 * RETRIED). A sentence with audio tags inside is spoken in pieces, joined with the tags' silences
 * (audio-tags.ts). The first sentence starts when the generator is first asked for one.
 */
export async function* speakSentences(
  engines: TtsProvider,
  request: SpeechRequest,
  normalized: NormalizedText = normalizeFor(request),
  options: SpeakOptions = {},
): AsyncGenerator<SpeechSentence> {
  const prosody = engineProsody(request.voice, request.settings);
  const sentences = planSentences(normalized);
  // Up to the pool's size run at once besides the one awaited; they are handed out in order.
  const ahead = Math.max(1, engines.size);
  // However many pieces its sentences have (tags cut them), a request has at most this many engine calls
  // queued or running: its share of the queue stays small, whatever the text (issue 16).
  const inFlight = new Limiter(ahead + 1);
  const started: Promise<SpeechSentence>[] = [];
  const { signal, tenant } = options;
  const speakPiece = async (piece: SpeechPiece) => {
    const call = () =>
      engines.synthesize(
        pieceRequest(request, prosody, piece, normalized.text.slice(piece.start, piece.end)),
        { signal, tenant },
      );
    const result = await inFlight.run(() =>
      call().catch((error: unknown) => {
        if (signal?.aborted || !(error instanceof EngineFailure && RETRIED.has(error.reason))) throw error;
        return call();
      }),
    );
    // An own voice: the piece moved to its pitch and formants (same length, so word times hold).
    const shifted = request.timbre
      ? (
          await transformVoice(
            { sampleRate: result.sampleRate, channels: 1, samples: result.samples },
            request.timbre,
          )
        ).samples
      : result.samples;
    // Speaker boost per sentence (per piece), so a streamed response sounds like the whole one.
    const boosted = request.settings.useSpeakerBoost ? peakNormalize(shifted) : shifted;
    return {
      ...result,
      samples: piece.delivery.gainDb ? applyGain(boosted, piece.delivery.gainDb) : boosted,
      words: result.words.map((w) => ({ ...w, start: w.start + piece.start, end: w.end + piece.start })),
    };
  };
  const start = (index: number) => {
    const sentence = sentences[index] as SentencePlan;
    started[index] = Promise.all(sentence.pieces.map(speakPiece)).then((spoken) =>
      joinPieces(sentence, spoken),
    );
    // A rejection is handled when its turn comes; until then it must not count as unhandled.
    started[index]?.catch(() => undefined);
  };
  let next = 0;
  for (let i = 0; i < sentences.length; i += 1) {
    const until = options.firstAlone && i === 0 ? 0 : i + ahead;
    while (next < sentences.length && next <= until) start(next++);
    yield await (started[i] as Promise<SpeechSentence>);
  }
}

/** Scales samples so the loudest peak sits at −1 dBFS (speaker boost). */
export function peakNormalize(samples: Int16Array): Int16Array {
  // Plain loops: this runs on the server's event loop for every sentence.
  let peak = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const s = samples[i] as number;
    peak = Math.max(peak, s < 0 ? -s : s);
  }
  if (peak === 0) return samples;
  // The peak lands at −1 dBFS, so no sample can leave the 16-bit range.
  const gain = (32767 * 10 ** (-1 / 20)) / peak;
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i += 1) out[i] = Math.round((samples[i] as number) * gain);
  return out;
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
export async function synthesizeSpeech(
  engines: TtsProvider,
  request: SpeechRequest,
  options: SpeakOptions = {},
): Promise<SpeechResult> {
  const normalized = normalizeFor(request);
  const parts: SpeechSentence[] = [];
  for await (const sentence of speakSentences(engines, request, normalized, options)) parts.push(sentence);
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

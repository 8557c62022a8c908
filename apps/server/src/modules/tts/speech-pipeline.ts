import type { WordTiming } from '@parla/audio';
import {
  type CharacterAlignment,
  characterTimes,
  clamp,
  identityNormalization,
  type NormalizedText,
  normalizeEnglish,
  originalTimes,
  splitSentences,
  toAlignment,
  toOriginalRange,
} from '@parla/audio';
import type { EngineVoice, PronunciationRule } from '@parla/contracts';
import { Limiter } from '../../platform/limiter';
import {
  MAX_RATIO,
  MIN_RATIO,
  transformVoice,
  type VoiceTransform,
} from '../../platform/media/voice-transform';
import { EngineFailure } from '../../providers/engines/engine-pool';
import type { TtsProvider } from '../../providers/tts/tts-provider';
import {
  type EngineSynthesisRequest,
  intonationIsNative,
  type PhonemeSpan,
} from '../../providers/tts/tts-provider';
import {
  applyGain,
  normalizeAudioTags,
  planSentences,
  type SentencePlan,
  type SpeechPiece,
  whisperVariant,
} from './audio-tags';
import { exaggerateEnergy, sentenceVariation, speakerBoost } from './delivery';
import { firstPieceLength } from './first-piece';
import { intonationCurve } from './intonation';
import { normalizeMarkup } from './markup';
import { applyPronunciation, phonemeSpansOf, spansWithin } from './pronunciation';

/**
 * The voice settings of the public API, as the pipeline honours them on every engine (issue 18 item 3,
 * docs/areas/engines.md "Voice settings and what they cost"). similarity_boost is not here: it scales an
 * own voice's timbre shift where that shift is made (timbreFor in the voices module).
 */
export interface SpeechSettings {
  /** The speaking rate: 0.7–1.2 from voice settings, 0.5–2 from the OpenAI-compatible call. */
  speed: number;
  /**
   * 0–1: above 0.5 a narrower intonation (steadier); below, a wider one and each sentence's pitch and
   * pace varied (seeded by the request's seed).
   */
  stability: number;
  /** 0–1: a wider intonation and larger swings of energy between loud and soft syllables. */
  style: number;
  /** A presence peak around 3 kHz and the speech brought up to −15 dBFS, peaks limited at −1 dBFS. */
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
  /** The request's seed: which sentence-to-sentence variation low stability gives (default 0). */
  seed?: number | undefined;
  /**
   * The rules of the request's pronunciation dictionaries (its locators, else the workspace's default list),
   * in the order the dictionaries were named: alias rules rewrite the text before normalisation, phoneme
   * rules reach the engine as phoneme spans (issue 30).
   */
  pronunciation?: PronunciationRule[] | undefined;
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

/** How much style widens the intonation: range × (1 + 0.5 · style). */
const STYLE_RANGE = 0.5;
/** At stability 0, a sentence's pitch moves by up to this many semitones… */
const VARIATION_SEMITONES = 1.5;
/** …and its pace by up to this share, each seeded per sentence. */
const VARIATION_PACE = 0.08;

/**
 * The engine's rate, pitch and intonation range for a voice with these settings: range 1.5 − stability
 * (0.5 steady … 1 the voice's own at the default 0.5 … 1.5 lively), times 1 + 0.5 · style, at most 2.
 */
export function engineProsody(
  voice: EngineVoice,
  settings: SpeechSettings,
): { rate: number; pitch: number; range: number } {
  const stability = clamp(settings.stability, 0, 1);
  return {
    rate: clamp((voice.rate ?? 1) * clamp(settings.speed, 0.5, 2), 0.5, 2),
    pitch: voice.pitch ?? 1,
    range: clamp((1.5 - stability) * (1 + STYLE_RANGE * clamp(settings.style, 0, 1)), 0, 2),
  };
}

/**
 * One sentence's prosody: below stability 0.5 its pitch and pace move away from the voice's by a seeded
 * amount (up to ±1.5 semitones and ±8 % at stability 0), so sentences do not all sound alike; from 0.5
 * up they are the voice's own. The same seed and sentence always give the same figures.
 */
export function sentenceProsody(
  prosody: ReturnType<typeof engineProsody>,
  settings: SpeechSettings,
  seed: number,
  sentence: number,
): ReturnType<typeof engineProsody> {
  const variation = clamp((0.5 - settings.stability) / 0.5, 0, 1);
  if (variation === 0) return prosody;
  const { pitch, pace } = sentenceVariation(seed, sentence);
  return {
    rate: clamp(prosody.rate * (1 + variation * VARIATION_PACE * pace), 0.5, 2),
    pitch: clamp(prosody.pitch * 2 ** ((variation * VARIATION_SEMITONES * pitch) / 12), 0.5, 2),
    range: prosody.range,
  };
}

/**
 * The spoken text of a request: break and phoneme tags read (markup.ts), audio tags read (v3 models), the
 * pronunciation dictionaries' rules applied to the words (pronunciation.ts: aliases replace them, phoneme
 * rules mark them), then English normalisation if asked — of an alias too.
 */
export function normalizeFor(
  request: Pick<SpeechRequest, 'text' | 'normalize' | 'readsAudioTags' | 'pronunciation'>,
): NormalizedText {
  const normalizeWords = request.normalize ? normalizeEnglish : identityNormalization;
  const normalizePiece = (piece: string) => applyPronunciation(piece, request.pronunciation, normalizeWords);
  return normalizeMarkup(request.text, (piece) =>
    request.readsAudioTags ? normalizeAudioTags(piece, normalizePiece) : normalizePiece(piece),
  );
}

/**
 * How much longer a request's pronunciation rules may make what is spoken than it is without them (a
 * review of issue 30): an alias rule says its words in place of the matched ones, and a one-letter match
 * said as 400 characters (normalised further: "9" × 400 is thousands of words) made a 5,000-character
 * request, charged for its 5,000 written characters, into 2 million spoken ones — hours of every engine.
 * Real dictionaries lengthen a text by far less ("UN" → "United Nations" is 7× for those two letters, a
 * few percent of a text); four times the text without rules, plus 500 characters (one of the longest
 * aliases, 400 characters, in a short text), is spoken, and more is refused before anything is charged.
 * Each message of a TTS socket is checked on its own, so a message of one letter speaks at most ~500.
 */
export const PRONUNCIATION_GROWTH = { factor: 4, slackCharacters: 500 } as const;

/** The sentence that refuses a request its rules lengthen past PRONUNCIATION_GROWTH; undefined if within. */
export function pronunciationGrowthProblem(
  request: Pick<SpeechRequest, 'text' | 'normalize' | 'readsAudioTags' | 'pronunciation'>,
): string | undefined {
  if (!request.pronunciation || request.pronunciation.length === 0) return undefined;
  const spoken = normalizeFor(request).text.length;
  const without = normalizeFor({ ...request, pronunciation: undefined }).text.length;
  const limit = PRONUNCIATION_GROWTH.factor * without + PRONUNCIATION_GROWTH.slackCharacters;
  if (spoken <= limit) return undefined;
  return `With its pronunciation dictionaries this text would be spoken as ${spoken} characters, against ${without} without them; the aliases may make it at most ${limit}. Shorten the aliases that replace short strings, or the text.`;
}

/** A piece's prosody: its tags' delivery on top of its sentence's. */
function pieceProsody(
  prosody: ReturnType<typeof engineProsody>,
  piece: SpeechPiece,
): ReturnType<typeof engineProsody> {
  const { delivery } = piece;
  return {
    rate: delivery.rate ? clamp(prosody.rate * delivery.rate, 0.5, 2) : prosody.rate,
    pitch: delivery.pitch ? clamp(prosody.pitch * delivery.pitch, 0.5, 2) : prosody.pitch,
    range: delivery.range ? clamp(prosody.range * delivery.range, 0, 2) : prosody.range,
  };
}

/**
 * The pass after the engine for what it cannot do itself (intonationIsNative): its pitch, its intonation
 * range (a pitch curve from the spoken contour), and for Festival its rate too (one ffmpeg run instead of
 * two); with an own voice's timbre shift on top. Undefined when nothing is to be done.
 */
function afterEngine(
  request: SpeechRequest,
  prosody: ReturnType<typeof engineProsody>,
  audio: { sampleRate: number; samples: Int16Array },
): VoiceTransform | undefined {
  const native = intonationIsNative(request.voice);
  const pitch = (request.timbre?.pitchRatio ?? 1) * (native ? 1 : prosody.pitch);
  const tempo = request.voice.engine === 'festival' ? prosody.rate : 1;
  const curve = native ? [] : intonationCurve(audio, prosody.range);
  const transform: VoiceTransform = {
    pitchRatio: clamp(pitch, MIN_RATIO, MAX_RATIO),
    formantRatio: request.timbre?.formantRatio ?? 1,
    tempoRatio: tempo,
    pitchCurve: curve.map((point) => ({
      atSeconds: point.atSeconds,
      ratio: clamp(point.ratio, MIN_RATIO / pitch, MAX_RATIO / pitch),
    })),
  };
  const identity =
    Math.abs(transform.pitchRatio - 1) < 0.001 &&
    Math.abs(transform.formantRatio - 1) < 0.001 &&
    Math.abs(tempo - 1) < 0.001 &&
    curve.length === 0;
  return identity ? undefined : transform;
}

/** One engine call for a piece of a sentence at its prosody (what the engine takes itself). */
function pieceRequest(
  request: SpeechRequest,
  prosody: ReturnType<typeof engineProsody>,
  piece: SpeechPiece,
  text: string,
  phonemes: PhonemeSpan[],
): EngineSynthesisRequest {
  const native = intonationIsNative(request.voice);
  return {
    engine: request.voice.engine,
    voice:
      piece.delivery.whisper && request.voice.engine === 'espeak'
        ? whisperVariant(request.voice.voice)
        : request.voice.voice,
    text,
    // A neural voice reads another language with that language's phonemes (`language_code`).
    ...(request.voice.language ? { language: request.voice.language } : {}),
    // Festival's rate is applied in the pass after it (afterEngine), with its pitch and intonation.
    rate: request.voice.engine === 'festival' ? 1 : prosody.rate,
    pitch: native ? prosody.pitch : 1,
    range: native ? prosody.range : 1,
    // Phoneme rules and <phoneme> tags in this piece, in its own offsets (each engine's phoneme input).
    ...(phonemes.length > 0 ? { phonemes } : {}),
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

/**
 * Times of a known text in its audio (the forced aligner of speech to text): each character's start and
 * end in seconds, one per character of the text; undefined when it cannot align it. `wordAligner` in
 * tts-http.ts.
 */
export type WordAligner = (
  audio: { sampleRate: number; samples: Int16Array },
  text: string,
  options: { tenant?: string | undefined; signal?: AbortSignal | undefined },
) => Promise<{ start: number; end: number }[] | undefined>;

export interface SpeakOptions {
  /**
   * Replaces a neural engine's estimated word times with the aligner's (issue 27 item 5, decision 21):
   * Kokoro's estimates were 171–182 ms from the aligner's at the median, the aligner 7 ms from eSpeak's
   * exact times. A failed or mismatched alignment keeps the estimates.
   */
  alignWords?: WordAligner | undefined;
  /** Cancels the syntheses not started yet (the request was refused after all). */
  signal?: AbortSignal | undefined;
  /** Whose request it is (the workspace): the engines' queue is fair between tenants. */
  tenant?: string | undefined;
  /**
   * The first sentence runs alone, and the others start only when the consumer asks for the second: a
   * stream's first audio then has the engines (and the cores) to itself. On the neural engines the first
   * sentence is also cut after its first phrase (firstPieceLength), which is sent first.
   */
  firstAlone?: boolean;
}

/**
 * The neural engines, which make a run's audio all at once: its first audio waits for the whole run (the
 * classic engines are quick enough for a whole sentence, ~50 ms for twelve words).
 */
const CUT_FIRST_SENTENCE = new Set<EngineVoice['engine']>(['kokoro', 'piper']);

/**
 * A stream's sentences, the first cut in two on an engine of CUT_FIRST_SENTENCE (issue 27: first audio of a
 * 12-word sentence ≤ 600 ms; Kokoro took ~1.4 s for the whole sentence, ~0.65 s for its first piece,
 * bench/neural-tts.bench.ts "first piece"). Only a sentence spoken in one piece with no audio tag effect is
 * cut; both halves keep the sentence's prosody (`prosodyIndex`), so a stream sounds like the whole.
 */
export function streamPlan(
  sentences: SentencePlan[],
  text: string,
  engine: EngineVoice['engine'],
): (SentencePlan & { prosodyIndex: number })[] {
  const planned = sentences.map((sentence, index) => ({ ...sentence, prosodyIndex: index }));
  const first = planned[0];
  const piece = first?.pieces[0];
  if (!first || !piece || first.pieces.length !== 1 || !CUT_FIRST_SENTENCE.has(engine)) return planned;
  if (piece.pauseBeforeMs > 0 || Object.keys(piece.delivery).length > 0) return planned;
  const cut = piece.start + firstPieceLength(text.slice(piece.start, piece.end));
  if (cut >= piece.end) return planned;
  // The rest starts at its first word: the space after the cut belongs to neither piece's speech.
  let restStart = cut;
  while (restStart < piece.end && /\s/u.test(text[restStart] ?? '')) restStart += 1;
  return [
    { start: first.start, end: cut, pieces: [{ ...piece, end: cut }], pauseAfterMs: 0, prosodyIndex: 0 },
    {
      start: restStart,
      end: first.end,
      pieces: [{ ...piece, start: restStart }],
      pauseAfterMs: first.pauseAfterMs,
      prosodyIndex: 0,
    },
    ...planned.slice(1),
  ];
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
  const seed = request.seed ?? 0;
  const planned = planSentences(normalized);
  const sentences = options.firstAlone
    ? streamPlan(planned, normalized.text, request.voice.engine)
    : planned.map((sentence, index) => ({ ...sentence, prosodyIndex: index }));
  // Up to the pool's size run at once besides the one awaited; they are handed out in order.
  const ahead = Math.max(1, engines.size);
  // However many pieces its sentences have (tags cut them), a request has at most this many engine calls
  // queued or running: its share of the queue stays small, whatever the text (issue 16).
  const inFlight = new Limiter(ahead + 1);
  const started: Promise<SpeechSentence>[] = [];
  const { signal, tenant } = options;
  const phonemeSpans = phonemeSpansOf(normalized);
  const alignedWords = async <R extends { sampleRate: number; samples: Int16Array; words: WordTiming[] }>(
    result: R & { timing?: 'exact' | 'estimated' },
    text: string,
  ): Promise<R> => {
    const neural = request.voice.engine === 'kokoro' || request.voice.engine === 'piper';
    if (!options.alignWords || !neural || result.timing !== 'estimated' || result.words.length === 0)
      return result;
    const aligned = await options.alignWords(result, text, { tenant, signal }).catch(() => undefined);
    // By characters, so a word the aligner splits otherwise (a number, a hyphen) still maps to the engine's.
    if (!aligned || aligned.length !== text.length) return result;
    const words = result.words.map((w) => ({
      ...w,
      startMs: Math.round((aligned[w.start]?.start ?? 0) * 1000),
      endMs: Math.round((aligned[Math.max(w.start, w.end - 1)]?.end ?? 0) * 1000),
    }));
    // The aligner's times in order and inside the audio, or the engine's estimates stay.
    const lengthMs = (result.samples.length / result.sampleRate) * 1000;
    const ordered = words.every(
      (w, i) =>
        w.endMs >= w.startMs &&
        w.endMs <= lengthMs + 1 &&
        (i === 0 || w.startMs >= (words[i - 1]?.startMs ?? 0)),
    );
    return ordered ? { ...result, words } : result;
  };
  const speakPiece = async (piece: SpeechPiece, sentenceIndex: number) => {
    const spoken = pieceProsody(sentenceProsody(prosody, request.settings, seed, sentenceIndex), piece);
    const call = () =>
      engines.synthesize(
        pieceRequest(
          request,
          spoken,
          piece,
          normalized.text.slice(piece.start, piece.end),
          spansWithin(phonemeSpans, piece.start, piece.end),
        ),
        { signal, tenant },
      );
    const spokenResult = await inFlight.run(() =>
      call().catch((error: unknown) => {
        if (signal?.aborted || !(error instanceof EngineFailure && RETRIED.has(error.reason))) throw error;
        return call();
      }),
    );
    const result = await alignedWords(spokenResult, normalized.text.slice(piece.start, piece.end));
    // What the engine could not do (its pitch, intonation, Festival's rate) and an own voice's pitch and
    // formants, in one pass; a rate change scales the word times with it.
    const transform = afterEngine(request, spoken, result);
    const shifted = transform
      ? (
          await transformVoice(
            { sampleRate: result.sampleRate, channels: 1, samples: result.samples },
            transform,
          )
        ).samples
      : result.samples;
    const stretch = 1 / (transform?.tempoRatio ?? 1);
    // Style and speaker boost per sentence (per piece), so a streamed response sounds like the whole one.
    const lively = exaggerateEnergy(shifted, result.sampleRate, request.settings.style);
    const quiet = (piece.delivery.gainDb ?? 0) < 0;
    const boosted = request.settings.useSpeakerBoost
      ? speakerBoost(lively, result.sampleRate, { quiet })
      : lively;
    return {
      ...result,
      samples: piece.delivery.gainDb ? applyGain(boosted, piece.delivery.gainDb) : boosted,
      words: result.words.map((w) => ({
        start: w.start + piece.start,
        end: w.end + piece.start,
        startMs: Math.round(w.startMs * stretch),
        endMs: Math.round(w.endMs * stretch),
      })),
    };
  };
  const start = (index: number) => {
    const sentence = sentences[index] as SentencePlan & { prosodyIndex: number };
    started[index] = Promise.all(
      sentence.pieces.map((piece) => speakPiece(piece, sentence.prosodyIndex)),
    ).then((spoken) => joinPieces(sentence, spoken));
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
  /** Where the last sentence ends: the chunk that reaches it takes the rest (a stream's first sentence may come in two). */
  private readonly lastEnd: number;

  constructor(
    private readonly text: string,
    private readonly normalized: NormalizedText,
  ) {
    this.lastEnd = splitSentences(normalized.text).at(-1)?.end ?? 0;
  }

  next(sentence: SpeechSentence): {
    alignment: CharacterAlignment;
    normalized_alignment: CharacterAlignment;
  } {
    for (const w of sentence.words) {
      this.words.push({ ...w, startMs: w.startMs + this.offsetMs, endMs: w.endMs + this.offsetMs });
    }
    this.offsetMs += (sentence.samples.length / sentence.sampleRate) * 1000;
    const last = sentence.end >= this.lastEnd;
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

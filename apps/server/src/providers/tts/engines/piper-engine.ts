/**
 * Piper (VITS; issue 27 item 3) in the engine thread of an engine child: a voice's ONNX model through
 * onnxruntime-node, opened on first use and kept, one thread per run. The text is phonemized by eSpeak-NG
 * in the voice's eSpeak voice (its `.onnx.json`), each IPA symbol looked up in the voice's
 * phoneme_id_map with Piper's padding between them. Speed is native (its length scale). The model reports
 * no durations, so word times are estimated (spread over the speech). VITS draws noise as it speaks: the
 * same text sounds very slightly different each time.
 */
import fs from 'node:fs/promises';
import { clamp } from '@parla/audio';
import { spreadWords, wordSpans } from '../engine-synthesis';
import { usableSpans } from '../phoneme-splice';
import type { EngineSynthesisRequest, EngineSynthesisResult, PhonemeSpan } from '../tts-provider';
import { eSpeakPhonemes } from './espeak-engine';
import { piperFiles } from './neural-model-files';
import { ipaToPiper, phonemeIds, piperPhonemes, splicedTextPhonemes, textPhonemes } from './neural-phonemes';
import { modelSession, onnxRuntime, spokenSpanMs, toPcm16 } from './onnx-session';

/** What a Piper voice's `.onnx.json` says and the engine uses. */
export interface PiperConfig {
  sampleRate: number;
  espeakVoice: string;
  noiseScale: number;
  lengthScale: number;
  noiseW: number;
  ids: Map<string, number>;
  pad: number;
  bos: number;
  eos: number;
}

/** A voice's configuration, checked: a malformed file fails with what is wrong in it. */
export function parsePiperConfig(json: unknown, file: string): PiperConfig {
  const config = json as {
    audio?: { sample_rate?: unknown };
    espeak?: { voice?: unknown };
    inference?: { noise_scale?: unknown; length_scale?: unknown; noise_w?: unknown };
    phoneme_type?: unknown;
    phoneme_id_map?: Record<string, unknown>;
  };
  const bad = (what: string) => new Error(`The Piper voice configuration ${file} is malformed: ${what}.`);
  const sampleRate = config?.audio?.sample_rate;
  if (typeof sampleRate !== 'number' || sampleRate < 8000 || sampleRate > 48000) throw bad('no sample rate');
  if (config.phoneme_type !== undefined && config.phoneme_type !== 'espeak')
    throw bad(`phoneme type "${String(config.phoneme_type)}" (only eSpeak phonemes are read)`);
  const espeakVoice = config.espeak?.voice;
  if (typeof espeakVoice !== 'string' || !/^[a-z-]+$/.test(espeakVoice)) throw bad('no eSpeak voice');
  const ids = new Map<string, number>();
  for (const [symbol, value] of Object.entries(config.phoneme_id_map ?? {})) {
    const id = Array.isArray(value) ? value[0] : undefined;
    if (!Number.isInteger(id)) throw bad(`the id of "${symbol}"`);
    ids.set(symbol, id as number);
  }
  const [pad, bos, eos] = ['_', '^', '$'].map((symbol) => ids.get(symbol));
  if (pad === undefined || bos === undefined || eos === undefined || ids.size < 50)
    throw bad('no phoneme id map with its pad, start and end symbols');
  const number = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  return {
    sampleRate,
    espeakVoice,
    noiseScale: number(config.inference?.noise_scale, 0.667),
    lengthScale: number(config.inference?.length_scale, 1),
    noiseW: number(config.inference?.noise_w, 0.8),
    ids,
    pad,
    bos,
    eos,
  };
}

const configs = new Map<string, Promise<PiperConfig>>();
function piperConfig(file: string): Promise<PiperConfig> {
  let found = configs.get(file);
  if (!found) {
    found = (async () => {
      let json: unknown;
      try {
        json = JSON.parse(await fs.readFile(file, 'utf8'));
      } catch (error) {
        throw new Error(
          `The Piper voice configuration ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return parsePiperConfig(json, file);
    })();
    configs.set(file, found);
    found.catch(() => configs.delete(file));
  }
  return found;
}

/**
 * Piper's ids for a phoneme string (piper-phonemize's phonemes_to_ids): the start symbol, then every
 * phoneme followed by the pad, then the end symbol.
 */
export function piperIds(phonemes: string, config: PiperConfig): number[] {
  const ids = [config.bos, config.pad];
  for (const id of phonemeIds(phonemes, config.ids)) ids.push(id, config.pad);
  ids.push(config.eos);
  return ids;
}

/** A phoneme string cut into its sentences (after `.`, `!`, `?` or `…` and a space), none empty. */
export function piperSentences(phonemes: string): string[] {
  const sentences = phonemes.split(/(?<=[.!?…])\s+/u).filter((s) => s.trim().length > 0);
  return sentences.length > 0 ? sentences : [phonemes];
}

/**
 * A text's Piper phonemes (the unit tests show them), its phoneme spans spliced in as eSpeak's IPA (the
 * voices' phoneme_id_map is eSpeak's IPA): Piper's phoneme input.
 */
export function piperTextPhonemes(
  text: string,
  espeakVoice: string,
  spans: readonly PhonemeSpan[] = [],
): Promise<string> {
  return splicedTextPhonemes(
    text,
    usableSpans(text, spans),
    (piece) => textPhonemes(piece, async (words) => piperPhonemes(await eSpeakPhonemes(words, espeakVoice))),
    (ipa) => ipaToPiper(ipa, espeakVoice),
  );
}

/** A Piper voice's session and configuration, opened once and kept. */
async function piperVoice(voice: string) {
  const files = piperFiles(voice);
  if (!files) throw new Error(`Unknown Piper voice "${voice}".`);
  return Promise.all([modelSession(files.model, `Piper ${voice}`), piperConfig(files.config)]);
}

/** Opens a Piper voice's session (the warm-up at a child's start, neural-warm-up.ts). */
export async function loadPiper(voice: string): Promise<void> {
  await piperVoice(voice);
}

export async function synthesizeWithPiper(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  const [session, config] = await piperVoice(request.voice);
  if (request.language && !config.espeakVoice.startsWith(request.language))
    throw new Error(`The Piper voice ${request.voice} does not speak the language "${request.language}".`);
  const phonemes = await piperTextPhonemes(request.text, config.espeakVoice, request.phonemes);
  const { Tensor } = onnxRuntime();
  const lengthScale = config.lengthScale / clamp(request.rate ?? 1, 0.5, 2);
  // One run per sentence, as Piper itself speaks (piper-phonemize gives it sentence by sentence): the
  // memory a run takes grows with its audio, and the arena keeps the largest run's.
  const pieces: Float32Array[] = [];
  for (const sentence of piperSentences(phonemes)) {
    const ids = piperIds(sentence, config);
    const output = await session.run({
      input: new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      input_lengths: new Tensor('int64', BigInt64Array.of(BigInt(ids.length)), [1]),
      scales: new Tensor('float32', Float32Array.of(config.noiseScale, lengthScale, config.noiseW), [3]),
    });
    pieces.push(output.output?.data as Float32Array);
  }
  const samples = toPcm16(pieces);
  const { fromMs, toMs } = spokenSpanMs(samples, config.sampleRate);
  return {
    sampleRate: config.sampleRate,
    samples,
    words: spreadWords(wordSpans(request.text), fromMs, toMs),
    timing: 'estimated',
  };
}

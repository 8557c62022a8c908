/**
 * Kokoro-82M (Apache-2.0; issue 27 item 2) in the engine thread of an engine child: the int8 ONNX export
 * through onnxruntime-node, its session opened on first use and kept, one thread per run. The text is
 * phonemized by eSpeak-NG in the language of the voice (its name's first letter) or of the request, and
 * read with the voice's style vector for that length of phonemes (a voice may be a weighted blend of several,
 * kokoroVoiceStyle). The export reports no durations, so
 * word times are estimated (spread over the speech).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { clamp } from '@parla/audio';
import { isKokoroBlend, KOKORO_LANGUAGES, kokoroVoiceLanguage, parseKokoroBlend } from '@parla/contracts';
import { spreadWords, wordSpans } from '../engine-synthesis';
import { usableSpans } from '../phoneme-splice';
import type { EngineSynthesisRequest, EngineSynthesisResult, PhonemeSpan } from '../tts-provider';
import { eSpeakPhonemes } from './espeak-engine';
import { floatConvolutionsFile } from './model-rewrite-thread';
import { kokoroFiles } from './neural-model-files';
import {
  chunkIds,
  ipaToKokoro,
  kokoroPhonemes,
  phonemeIds,
  splicedTextPhonemes,
  textPhonemes,
} from './neural-phonemes';
import { modelSession, onnxRuntime, spokenSpanMs, toPcm16 } from './onnx-session';

export const KOKORO_SAMPLE_RATE = 24_000;
/** A style file: one 256-value style per phoneme count from 1 to 510 (Kokoro reads at most 510). */
const STYLE_ROWS = 510;
const STYLE_SIZE = 256;
const STYLE_FILE_BYTES = STYLE_ROWS * STYLE_SIZE * 4;
/**
 * The most phonemes one Kokoro run reads. The memory a run needs grows with its audio (the vocoder's
 * tensors at 24 kHz), and onnxruntime's arena keeps the largest it ever needed: a child that read
 * 300–400-character texts in one run each held 1.25 GB, against 565 MB for pieces of up to 150 characters
 * (bench/neural-tts.bench.ts, the memory part). 200 phonemes is over 150 characters of English, the most
 * the speech pipeline hands an engine at once (MAX_ENGINE_TEXT), so its pieces are read whole; a longer
 * text is read in runs cut at the end of a phrase.
 */
export const KOKORO_RUN_PHONEMES = 200;
/** Where a run may end: after a comma, a full stop and the like (Kokoro's vocabulary). */
const PHRASE_ENDS = [';', ':', ',', '.', '!', '?', '—', '…'];
/** The vocoder, whose int8 convolutions run as float ones (onnx-float-convolutions.ts, model-rewrite-thread.ts). */
const FLOAT_CONVOLUTIONS = '/decoder/decoder/generator/';

/** The vocabulary of a vocab.json, read once per path. */
const vocabularies = new Map<string, Promise<Map<string, number>>>();
function vocabulary(file: string): Promise<Map<string, number>> {
  let found = vocabularies.get(file);
  if (!found) {
    found = (async () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await fsp.readFile(file, 'utf8'));
      } catch (error) {
        throw new Error(
          `The Kokoro vocabulary ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const entries = Object.entries((parsed as { vocab?: Record<string, unknown> })?.vocab ?? {});
      const valid = entries.filter(
        (e): e is [string, number] => [...e[0]].length === 1 && Number.isInteger(e[1]),
      );
      if (valid.length < 100 || valid.length !== entries.length)
        throw new Error(`The Kokoro vocabulary ${file} is not a phoneme vocabulary.`);
      return new Map(valid);
    })();
    vocabularies.set(file, found);
    found.catch(() => vocabularies.delete(file));
  }
  return found;
}

/** Voice styles read so far (2 MB each; 54 voices at most). */
const styles = new Map<string, Float32Array>();
async function singleStyle(voicesDir: string, voice: string): Promise<Float32Array> {
  if (!/^[a-z]{2}_[a-z]+$/.test(voice)) throw new Error(`Unknown Kokoro voice "${voice}".`);
  const file = path.join(voicesDir, `${voice}.bin`);
  const known = styles.get(file);
  if (known) return known;
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(file);
  } catch {
    throw new Error(`Unknown Kokoro voice "${voice}" (no style file ${file}).`);
  }
  if (bytes.length !== STYLE_FILE_BYTES)
    throw new Error(
      `The Kokoro voice style file ${file} has ${bytes.length} bytes, not ${STYLE_FILE_BYTES} (510 × 256 float32).`,
    );
  const style = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  if (!style.every(Number.isFinite))
    throw new Error(`The Kokoro voice style file ${file} holds non-numbers.`);
  styles.set(file, style);
  return style;
}

/**
 * Blends made so far, by their normalised notation: a designed voice or a clone speaks every sentence
 * with its blend, so it is mixed once. Bounded (2 MB each): the oldest is dropped past the bound.
 */
const blends = new Map<string, Float32Array>();
const MAX_BLENDS = 32;

/**
 * The style vectors a Kokoro voice speaks with: a voice's style file, or a weighted blend of several
 * (`af_heart*0.6+bf_emma*0.4`, @parla/contracts kokoro-blend.ts), the weighted sum of theirs row by row.
 * A bad blend (a name with no style file, a weight that is no positive number) is refused with the reason.
 */
export async function kokoroVoiceStyle(voicesDir: string, voice: string): Promise<Float32Array> {
  if (!isKokoroBlend(voice)) return singleStyle(voicesDir, voice);
  const parts = parseKokoroBlend(voice);
  const key = `${voicesDir}\0${parts.map((p) => `${p.voice}*${p.weight}`).join('+')}`;
  const known = blends.get(key);
  if (known) return known;
  const mixed = new Float32Array(STYLE_ROWS * STYLE_SIZE);
  for (const part of parts) {
    const style = await singleStyle(voicesDir, part.voice);
    for (let i = 0; i < mixed.length; i++)
      mixed[i] = (mixed[i] as number) + (style[i] as number) * part.weight;
  }
  if (blends.size >= MAX_BLENDS) blends.delete(blends.keys().next().value as string);
  blends.set(key, mixed);
  return mixed;
}

/**
 * The eSpeak voice that phonemizes a request: the requested language's (English keeps the voice's
 * accent: a British voice reads English the British way), else the voice's own.
 */
export function kokoroESpeakVoice(voice: string, language?: string): string {
  const own = kokoroVoiceLanguage(voice);
  if (!language || language === own?.language_id) {
    if (!own) throw new Error(`Unknown Kokoro voice "${voice}" (its name names no language).`);
    return own.espeak;
  }
  const entry = Object.values(KOKORO_LANGUAGES).find((l) => l.language_id === language);
  if (!entry) throw new Error(`Kokoro does not speak the language "${language}".`);
  return entry.espeak;
}

/**
 * A text's Kokoro phonemes in an eSpeak voice's language (the unit tests show them), its phoneme spans
 * (pronunciation rules, `<phoneme>` tags) spliced in as Kokoro's symbols: Kokoro's phoneme input.
 */
export function kokoroTextPhonemes(
  text: string,
  espeakVoice: string,
  spans: readonly PhonemeSpan[] = [],
): Promise<string> {
  return splicedTextPhonemes(
    text,
    usableSpans(text, spans),
    (piece) =>
      textPhonemes(piece, async (words) =>
        kokoroPhonemes(await eSpeakPhonemes(words, espeakVoice), espeakVoice),
      ),
    (ipa) => ipaToKokoro(ipa, espeakVoice),
  );
}

/** Kokoro's session: on the copy of its model with a float vocoder, made once (model-rewrite-thread.ts). */
async function kokoroSession(model: string) {
  if (!fs.existsSync(model)) throw new Error(`The Kokoro model is not installed (${model} is missing).`);
  try {
    return await modelSession(await floatConvolutionsFile(model, FLOAT_CONVOLUTIONS), `Kokoro (${model})`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      reason.startsWith('The Kokoro') ? reason : `The Kokoro model ${model} could not be loaded: ${reason}`,
    );
  }
}

/** Opens Kokoro's session and reads its vocabulary (the warm-up at a child's start, neural-warm-up.ts). */
export async function loadKokoro(): Promise<void> {
  const files = kokoroFiles();
  await vocabulary(files.vocabulary);
  await kokoroSession(files.model);
}

export async function synthesizeWithKokoro(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  const files = kokoroFiles();
  const espeakVoice = kokoroESpeakVoice(request.voice, request.language);
  // The small files first, so a broken one is named before the model is opened.
  if (!fs.existsSync(files.model))
    throw new Error(`The Kokoro model is not installed (${files.model} is missing).`);
  const vocab = await vocabulary(files.vocabulary);
  const style = await kokoroVoiceStyle(files.voicesDir, request.voice);
  const session = await kokoroSession(files.model);
  const phonemes = await kokoroTextPhonemes(request.text, espeakVoice, request.phonemes);
  const ids = phonemeIds(phonemes, vocab);
  const { Tensor } = onnxRuntime();
  const speed = clamp(request.rate ?? 1, 0.5, 2);
  const pieces: Float32Array[] = [];
  const phraseEnds = new Set(PHRASE_ENDS.flatMap((mark) => vocab.get(mark) ?? []));
  for (const chunk of chunkIds(ids, KOKORO_RUN_PHONEMES, vocab.get(' ') ?? -1, phraseEnds)) {
    // The style for a run of n phonemes is row n − 1 (kokoro's KPipeline: `pack[len(ps) - 1]`).
    const row = Math.min(chunk.length, STYLE_ROWS) - 1;
    const output = await session.run({
      tokens: new Tensor('int64', BigInt64Array.from([0, ...chunk, 0], BigInt), [1, chunk.length + 2]),
      style: new Tensor('float32', style.slice(row * STYLE_SIZE, (row + 1) * STYLE_SIZE), [1, STYLE_SIZE]),
      speed: new Tensor('float32', Float32Array.of(speed), [1]),
    });
    pieces.push(output.audio?.data as Float32Array);
  }
  const samples = toPcm16(pieces);
  const { fromMs, toMs } = spokenSpanMs(samples, KOKORO_SAMPLE_RATE);
  return {
    sampleRate: KOKORO_SAMPLE_RATE,
    samples,
    words: spreadWords(wordSpans(request.text), fromMs, toMs),
    timing: 'estimated',
  };
}

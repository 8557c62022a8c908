/*
 * Speech whose word times are known, for the alignment tests and the timestamps bench (not used by the
 * server): Festival's HTS voice reports each word's start and end from its utterance structure
 * (festival-engine.ts); flite reports its phones with their end times (`-psdur`), and `t2p` gives each
 * word's phones, so counting phones word by word places every word exactly (a sentence whose phone counts
 * do not add up is refused rather than guessed). The audio comes at 16 kHz as floats, as the speech-to-text
 * pipeline hands it to the aligner.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { encodeWav, parseWav } from '@parla/audio';
import { decodeToPcm } from '../platform/media/decode-audio';
import { withScratchDir } from '../platform/scratch-dirs';
import { synthesizeWithFestival } from '../providers/tts/engines/festival-engine';
import { runProgram } from '../providers/tts/engines/process-run';

/** A sentence spoken, with its words as written and each word's true [start, end] in seconds. */
export interface KnownSpeech {
  voice: string;
  samples: Float32Array;
  words: string[];
  truth: { start: number; end: number }[];
}

/** The English TTS voices with exact word times here. */
export const KNOWN_VOICES = ['festival-slt', 'flite-slt', 'flite-awb', 'flite-rms', 'flite-kal16'] as const;
export type KnownVoice = (typeof KNOWN_VOICES)[number];

/** Mono 16-bit audio at any rate → 16 kHz floats (ffmpeg's resampler). */
async function to16k(sampleRate: number, samples: Int16Array): Promise<Float32Array> {
  const wav = encodeWav({ sampleRate, channels: 1, samples });
  const pcm = await decodeToPcm(wav, { sampleRate: 16_000, maxSeconds: 600 });
  return Float32Array.from(pcm.samples, (v) => v / 32768);
}

/** The words of a text as a recogniser would write them: split at spaces, punctuation attached. */
export const writtenWords = (text: string) => text.split(/\s+/).filter(Boolean);

async function festivalSpeech(text: string): Promise<KnownSpeech> {
  const result = await synthesizeWithFestival({ engine: 'festival', voice: 'cmu_us_slt_arctic_hts', text });
  const words = writtenWords(text);
  const truth: { start: number; end: number }[] = [];
  let cursor = 0;
  for (const word of words) {
    const from = text.indexOf(word, cursor);
    const to = from + word.length;
    cursor = to;
    const inside = result.words.filter((w) => w.start >= from && w.end <= to);
    if (inside.length === 0) throw new Error(`Festival gave no time for "${word}".`);
    truth.push({
      start: Math.min(...inside.map((w) => w.startMs)) / 1000,
      end: Math.max(...inside.map((w) => w.endMs)) / 1000,
    });
  }
  return { voice: 'festival-slt', samples: await to16k(result.sampleRate, result.samples), words, truth };
}

const phonesOf = (line: string) =>
  line
    .trim()
    .split(/\s+/)
    .filter((p) => p && p !== 'pau');

async function fliteSpeech(voice: string, text: string): Promise<KnownSpeech> {
  return withScratchDir('align-flite-', async (dir) => {
    const input = path.join(dir, 'in.txt');
    const output = path.join(dir, 'out.wav');
    await fs.writeFile(input, text);
    const { stdout } = await runProgram('flite', ['-voice', voice, '-psdur', '-o', output, '-f', input]);
    const audio = parseWav(await fs.readFile(output));
    const phones: { phone: string; start: number; end: number }[] = [];
    let previous = 0;
    for (const token of stdout.trim().split(/\s+/)) {
      const [phone, time] = token.split(':');
      const end = Number(time);
      if (!phone || !Number.isFinite(end)) continue;
      if (end < previous) throw new Error('One sentence at a time: flite restarted its clock.');
      if (phone !== 'pau') phones.push({ phone, start: previous, end });
      previous = end;
    }
    const words = writtenWords(text);
    const truth: { start: number; end: number }[] = [];
    let at = 0;
    for (const word of words) {
      const count = phonesOf((await runProgram('t2p', [word])).stdout).length;
      const first = phones[at];
      const last = phones[at + count - 1];
      if (count === 0 || !first || !last) throw new Error(`flite's phones do not cover "${word}".`);
      truth.push({ start: first.start, end: last.end });
      at += count;
    }
    if (at !== phones.length) throw new Error(`flite said ${phones.length} phones, the words have ${at}.`);
    return { voice: `flite-${voice}`, samples: await to16k(audio.sampleRate, audio.samples), words, truth };
  });
}

/** One sentence spoken by a voice, with its words' true times. */
export function knownSpeech(voice: KnownVoice, text: string): Promise<KnownSpeech> {
  return voice === 'festival-slt' ? festivalSpeech(text) : fliteSpeech(voice.slice('flite-'.length), text);
}

/** Sentences of read English with numbers, currency, contractions and punctuation. */
export const ALIGNMENT_SENTENCES = [
  'The old lighthouse keeper climbed the stairs every evening, and nobody knew what he wrote.',
  "We didn't expect the parcel to cost $25, but the courier insisted on it.",
  'Please call the office before noon on Tuesday if the train is late again.',
  'A quiet river runs past the village, where children play football after school.',
  'She opened the window, listened to the rain, and decided to stay at home.',
] as const;

/** Absolute differences (s) between found and true word boundaries, starts and ends both. */
export function boundaryErrors(
  found: readonly { start: number; end: number }[],
  truth: readonly { start: number; end: number }[],
): number[] {
  return truth.flatMap((t, i) => {
    const f = found[i];
    return f ? [Math.abs(f.start - t.start), Math.abs(f.end - t.end)] : [];
  });
}

/** The q-quantile (0..1) of values. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

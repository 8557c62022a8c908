import fs from 'node:fs/promises';
import path from 'node:path';
import type { WordTiming } from '@parla/audio';
import { clamp, parseWav } from '@parla/audio';
import { withScratchDir } from '../../../platform/scratch-dirs';
import { spreadWords, wordSpans } from '../engine-synthesis';
import { fliteLexPhones } from '../phoneme-alphabets';
import {
  placeholderWords,
  type SplicedText,
  spliceSpans,
  usableSpans,
  wordsOnRequest,
} from '../phoneme-splice';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts-provider';
import { runProgram } from './process-run';

/** The flite voices that read any text (awb_time only says times). */
export const FLITE_VOICES = ['slt', 'rms', 'awb', 'kal16', 'kal'] as const;

/** Median F0 of each voice as measured (research §1a); rms ignores pitch targets, so it has none. */
const BASE_F0: Record<string, number> = { slt: 164, awb: 126, kal16: 102, kal: 102 };
/** flite's default intonation spread (Hz) for its CART F0 model. */
const BASE_F0_STDDEV = 20;

/** Phrases of a text: split after , ; : . ! ? — flite pauses there (`pau` in its phone timing). */
function phrases(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  for (const match of text.matchAll(/[,;:.!?]+(\s|$)/g)) {
    const end = match.index + match[0].length;
    if (text.slice(start, end).trim()) out.push({ start, end });
    start = end;
  }
  if (text.slice(start).trim()) out.push({ start, end: text.length });
  return out;
}

/**
 * The spoken stretches between pauses, from `-psdur` output (`pau:0.164 hh:0.255 … pau:2.169`), on one
 * time line across the sentences.
 */
export function spokenSegments(psdur: string): { startMs: number; endMs: number }[] {
  const segments: { startMs: number; endMs: number }[] = [];
  let previousEnd = 0;
  let offset = 0;
  let lastRaw = 0;
  let current: { startMs: number; endMs: number } | undefined;
  for (const token of psdur.trim().split(/\s+/)) {
    const [phone, time] = token.split(':');
    const raw = Math.round(Number(time) * 1000);
    if (!phone || !Number.isFinite(raw)) continue;
    // Each sentence is its own utterance, whose times start again at 0.
    if (raw < lastRaw) offset = previousEnd;
    lastRaw = raw;
    const endMs = raw + offset;
    if (phone === 'pau') {
      if (current) segments.push(current);
      current = undefined;
    } else {
      current = current ? { ...current, endMs } : { startMs: previousEnd, endMs };
    }
    previousEnd = endMs;
  }
  if (current) segments.push(current);
  return segments;
}

/** Word times for flite, which reports only phones: words spread over each spoken stretch. */
export function estimateFliteWords(text: string, psdur: string, totalMs: number): WordTiming[] {
  const segments = spokenSegments(psdur);
  const parts = phrases(text);
  if (segments.length === parts.length) {
    return parts.flatMap((part, i) => {
      const segment = segments[i] as { startMs: number; endMs: number };
      const spans = wordSpans(text.slice(part.start, part.end)).map((s) => ({
        start: s.start + part.start,
        end: s.end + part.start,
      }));
      return spreadWords(spans, segment.startMs, segment.endMs);
    });
  }
  const from = segments[0]?.startMs ?? 0;
  const to = segments.at(-1)?.endMs ?? totalMs;
  return spreadWords(wordSpans(text), from, to);
}

/**
 * flite's text and lexicon addenda for a request's phoneme spans (its phoneme input, `-add_lex`, research-30
 * §1): each span becomes a made-up word (placeholderWords) whose addenda entry is the span's pronunciation
 * in lower-case ARPAbet with stress digits (`parlaba : t ax0 m aa1 t ow0`). Only the spans' own
 * occurrences change: the lexicon would match "Tomato" and "TOMATO" alike.
 */
export function fliteInput(request: Pick<EngineSynthesisRequest, 'text' | 'phonemes'>): {
  spliced: SplicedText;
  addenda: string;
} {
  const spans = usableSpans(request.text, request.phonemes);
  const words = placeholderWords(request.text, spans.length);
  const lines: string[] = [];
  const spliced = spliceSpans(request.text, spans, (span, index) => {
    const phones = fliteLexPhones(span.ipa);
    if (!phones) return undefined;
    const word = words[index] as string;
    lines.push(`${word} : ${phones}`);
    return word;
  });
  return { spliced, addenda: lines.map((line) => `${line}\n`).join('') };
}

/**
 * Flite through Debian's CLI (never the WASI build in-process: it crashed the process about once per 600
 * calls). Plain text only — flite loops forever on `<prosody>` SSML. Rate through duration_stretch, pitch
 * through int_f0_target_mean where the voice honours it.
 */
export async function synthesizeWithFlite(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  if (!(FLITE_VOICES as readonly string[]).includes(request.voice)) {
    throw new Error(`Unknown flite voice "${request.voice}".`);
  }
  return withScratchDir('flite-', async (dir) => {
    const file = path.join(dir, 'out.wav');
    const args = ['-voice', request.voice, '-psdur', '-o', file];
    const rate = clamp(request.rate ?? 1, 0.5, 2);
    if (rate !== 1) args.push('--setf', `duration_stretch=${(1 / rate).toFixed(3)}`);
    const base = BASE_F0[request.voice];
    const pitch = clamp(request.pitch ?? 1, 0.5, 2);
    if (base && pitch !== 1) args.push('--setf', `int_f0_target_mean=${Math.round(base * pitch)}`);
    const range = clamp(request.range ?? 1, 0, 2);
    if (base && range !== 1)
      args.push('--setf', `int_f0_target_stddev=${Math.round(BASE_F0_STDDEV * range)}`);
    const { spliced, addenda } = fliteInput(request);
    if (addenda) {
      const lexicon = path.join(dir, 'lex.txt');
      await fs.writeFile(lexicon, addenda);
      args.push('-add_lex', lexicon);
    }
    // The text goes in as a file, so nothing in it can be read as an option.
    const input = path.join(dir, 'in.txt');
    await fs.writeFile(input, spliced.text);
    args.push('-f', input);
    const { stdout } = await runProgram('flite', args);
    const audio = parseWav(await fs.readFile(file));
    const totalMs = Math.round((audio.samples.length / audio.sampleRate) * 1000);
    return {
      sampleRate: audio.sampleRate,
      samples: audio.samples,
      words: wordsOnRequest(spliced, estimateFliteWords(spliced.text, stdout, totalMs)),
      timing: 'estimated',
    };
  });
}

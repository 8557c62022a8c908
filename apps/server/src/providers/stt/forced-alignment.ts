/*
 * Forced alignment (issue 19 item 2, `POST /v1/forced-alignment`): where each word and character of a
 * known text is in a recording. Up to 30 s the words are aligned in one warp (alignWords). Longer audio
 * would make one warp's band too large (memory grows with frames × band), so it goes in two passes: a
 * coarse warp on an 80 ms grid between the whole recording and eSpeak's reading of the whole text places
 * cuts at pauses of the reading about every 20 s; each piece of the recording between two cuts (each cut
 * moved to the quietest point within 0.3 s) is then aligned with its words like a segment of a transcript.
 * Memory stays under ~20 MB and time roughly linear in the audio: the bounds below keep it so.
 */

import { featureFrames, HOP_SECONDS, poolFrames, warp } from './alignment-dtw';
import { checkAlignmentLimits, type TextAlignment } from './stt-provider';
import {
  ALIGNMENT_SAMPLE_RATE,
  alignWords,
  characterSpans,
  type ReadingSpan,
  readWords,
} from './word-alignment';

/** Up to this long, one warp aligns the whole recording. */
const ONE_WARP_SECONDS = 30;
/** The pieces of a longer recording are cut after 10–20 s of the reading, at its longest pause. */
const PIECE_MIN_SECONDS = 10;
const PIECE_MAX_SECONDS = 20;
/** The coarse pass averages this many 10 ms frames (80 ms). */
const COARSE_FACTOR = 8;
/**
 * The coarse band: 10 % of the longer sequence, at least 25 s either side. A recording and a reading of
 * one text drift apart by their pauses and pace; 10 % of 10 minutes is a minute.
 */
const COARSE_BAND_SHARE = 0.1;
const COARSE_MIN_BAND_SECONDS = 25;
/** A cut moves to the quietest frame this near. */
const CUT_SNAP_FRAMES = 30;

/** Where each word and character of `text` is in `samples` (16 kHz mono floats), in seconds. */
export async function alignTextToAudio(samples: Float32Array, text: string): Promise<TextAlignment> {
  const duration = samples.length / ALIGNMENT_SAMPLE_RATE;
  checkAlignmentLimits(duration, text);
  const matches = [...text.matchAll(/\S+/g)];
  const words = matches.map((m) => m[0]);
  const times =
    duration <= ONE_WARP_SECONDS
      ? (await alignWords(samples, words, { characters: false })).words
      : await alignLong(samples, words);
  const characters: TextAlignment['characters'] = [];
  let next = 0;
  let previousEnd = 0;
  for (const [k, match] of matches.entries()) {
    const time = times[k] as { start: number; end: number };
    // The spaces before a word share the time from the previous word's end to its start.
    for (const c of Array.from(text.slice(next, match.index)))
      characters.push({ text: c, start: previousEnd, end: Math.max(previousEnd, time.start) });
    const spans = characterSpans(match[0], time);
    Array.from(match[0]).forEach((c, i) => {
      characters.push({ text: c, ...(spans[i] as { start: number; end: number }) });
    });
    next = match.index + match[0].length;
    previousEnd = Math.max(previousEnd, time.end);
  }
  for (const c of Array.from(text.slice(next)))
    characters.push({ text: c, start: previousEnd, end: previousEnd });
  const aligned = times.map((t, k) => ({
    text: words[k] as string,
    start: t.start,
    end: t.end,
    loss: t.loss,
  }));
  const loss = aligned.reduce((sum, w) => sum + w.loss, 0) / Math.max(1, aligned.length);
  return { characters, words: aligned, loss: Math.round(loss * 1000) / 1000 };
}

/** Two passes for a long recording (see the file's comment). */
async function alignLong(
  samples: Float32Array,
  words: readonly string[],
): Promise<{ start: number; end: number; loss: number }[]> {
  const reading = await readWords(words);
  const recording = featureFrames(samples, ALIGNMENT_SAMPLE_RATE);
  const coarseRecording = poolFrames(recording, COARSE_FACTOR);
  const coarseReading = poolFrames(reading.frames, COARSE_FACTOR);
  const band = Math.max(
    Math.ceil(COARSE_MIN_BAND_SECONDS / (HOP_SECONDS * COARSE_FACTOR)),
    Math.ceil(COARSE_BAND_SHARE * Math.max(coarseRecording.count, coarseReading.count)),
  );
  const path = warp(coarseRecording, coarseReading, band);
  const lastCoarse = coarseReading.count - 1;
  // A frame of the reading → the frame of the recording it was matched to (the middle of its match).
  const toRecording = (frame: number) => {
    const g = Math.min(lastCoarse, Math.max(0, Math.floor(frame / COARSE_FACTOR)));
    return Math.round((((path.firstA[g] as number) + (path.lastA[g] as number)) / 2) * COARSE_FACTOR);
  };
  const quietest = (around: number) => {
    let best = around;
    for (
      let f = Math.max(0, around - CUT_SNAP_FRAMES);
      f <= Math.min(recording.count - 1, around + CUT_SNAP_FRAMES);
      f++
    )
      if ((recording.levelDb[f] as number) < (recording.levelDb[best] as number)) best = f;
    return best;
  };
  const cuts = pieceCuts(reading.spans);
  const out: { start: number; end: number; loss: number }[] = [];
  let fromWord = 0;
  let fromFrame = 0;
  for (const cut of [...cuts, { word: words.length, frame: -1 }]) {
    let toFrame = cut.frame < 0 ? recording.count : quietest(toRecording(cut.frame));
    // Cuts stay in order, at least a second apart.
    toFrame = cut.frame < 0 ? toFrame : Math.max(fromFrame + Math.round(1 / HOP_SECONDS), toFrame);
    const from = Math.round(fromFrame * HOP_SECONDS * ALIGNMENT_SAMPLE_RATE);
    const to =
      cut.frame < 0
        ? samples.length
        : Math.min(samples.length, Math.round(toFrame * HOP_SECONDS * ALIGNMENT_SAMPLE_RATE));
    const offset = from / ALIGNMENT_SAMPLE_RATE;
    const piece = await alignWords(
      samples.subarray(from, Math.max(from, to)),
      words.slice(fromWord, cut.word),
      {
        characters: false,
      },
    );
    for (const w of piece.words)
      out.push({ start: round(w.start + offset), end: round(w.end + offset), loss: w.loss });
    fromWord = cut.word;
    fromFrame = Math.min(toFrame, recording.count);
  }
  return out;
}

/**
 * Where to cut the reading: after 10–20 s of it, in the middle of its longest pause between two words
 * there (a sentence's end, a comma). `word` is the first word of the next piece; `frame` the reading's.
 */
function pieceCuts(spans: readonly (ReadingSpan | undefined)[]): { word: number; frame: number }[] {
  const minFrames = PIECE_MIN_SECONDS / HOP_SECONDS;
  const maxFrames = PIECE_MAX_SECONDS / HOP_SECONDS;
  const cuts: { word: number; frame: number }[] = [];
  let pieceStart = 0;
  let best: { word: number; frame: number; gap: number } | undefined;
  let lastEnd = 0;
  for (let k = 0; k < spans.length; k++) {
    const span = spans[k];
    if (!span) continue;
    if (k > 0 && span.start - pieceStart >= minFrames) {
      const gap = span.start - lastEnd;
      if (!best || gap > best.gap) best = { word: k, frame: Math.round((lastEnd + span.start) / 2), gap };
    }
    if (span.end - pieceStart > maxFrames && best) {
      cuts.push({ word: best.word, frame: best.frame });
      pieceStart = best.frame;
      best = undefined;
      // The words after the cut up to here count towards the next piece's length already.
    }
    lastEnd = span.end;
  }
  return cuts;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

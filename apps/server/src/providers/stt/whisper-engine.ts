/**
 * The multilingual recogniser (parla_stt_multilingual_v1, issue 29): Whisper base through sherpa-onnx-node
 * in an engine child's engine thread (never in the server's process), on the 16 kHz mono s16le file the
 * server decoded. sherpa decodes at most 30 s at once ("we process only the first 30 seconds"), and a
 * Whisper decode costs a whole 30 s window whatever it holds, so consecutive voice-activity segments are
 * decoded together in windows of at most WINDOW_S and the words handed back to their segments by time.
 * The language is the one asked for, else Whisper's detection per window. Word starts are the token
 * times sherpa gives with the with-attention export (alignment heads + DTW); ends are whisper-words.ts's.
 */
import { createRequire } from 'node:module';
import type { OfflineRecognizer } from 'sherpa-onnx-node';
import { whisperFiles } from './model-files';
import { profileSegment } from './speaker-clustering';
import type { SttDecodedSegment, SttEngineRequest } from './stt-engine-protocol';
import { STT_SAMPLE_RATE } from './stt-provider';
import { assignToSegments, dropRepeats, type TimedWord, wordsFromTokens } from './whisper-words';

const require = createRequire(import.meta.url);

/** Threads per recogniser: one, as each engine child decodes in parallel with the others. */
const THREADS = Math.max(1, Number(process.env.STT_THREADS) || 1);

/** The longest window decoded at once: under Whisper's 30 s, with room for the padding around speech. */
export const WINDOW_S = 28;
const WINDOW = WINDOW_S * STT_SAMPLE_RATE;
/** Audio read around the speech silero found (it starts a segment a little late), as for Moonshine. */
const PAD_BEFORE = Math.round(0.15 * STT_SAMPLE_RATE);
const PAD_AFTER = Math.round(0.2 * STT_SAMPLE_RATE);

let recognizer: OfflineRecognizer | undefined;
/** The language the recogniser is set to ('' detects). */
let recognizerLanguage = '';

function whisperConfig(language: string) {
  const files = whisperFiles();
  return {
    featConfig: { sampleRate: STT_SAMPLE_RATE, featureDim: 80 },
    modelConfig: {
      whisper: {
        encoder: files.encoder,
        decoder: files.decoder,
        language,
        task: 'transcribe',
        tailPaddings: -1,
        // Token start times (the graphs carry the cross-attention output for them).
        enableTokenTimestamps: 1,
      },
      tokens: files.tokens,
      numThreads: THREADS,
      provider: 'cpu',
      debug: 0,
    },
  };
}

/** The recogniser, loaded on first use (about 0.4 s, ~300 MB) and set to `language` ('' to detect). */
function whisper(language: string): OfflineRecognizer {
  if (!recognizer) {
    // Throws with the model store's reason when the model is unavailable: a damaged one is never loaded.
    const config = whisperConfig(language);
    const { OfflineRecognizer } = require('sherpa-onnx-node') as typeof import('sherpa-onnx-node');
    recognizer = new OfflineRecognizer(config);
    recognizerLanguage = language;
  } else if (recognizerLanguage !== language) {
    recognizer.setConfig(whisperConfig(language));
    recognizerLanguage = language;
  }
  return recognizer;
}

/**
 * The windows decoded for a run of segments (samples): consecutive segments share a window while it stays
 * within WINDOW samples; a segment longer than that alone is cut into windows of WINDOW.
 */
export function whisperWindows(
  segments: readonly { start: number; end: number }[],
): { from: number; to: number }[] {
  const windows: { from: number; to: number }[] = [];
  let current: { from: number; to: number } | undefined;
  for (const segment of segments) {
    const from = Math.max(0, segment.start - PAD_BEFORE);
    const to = segment.end + PAD_AFTER;
    if (current && to - current.from <= WINDOW) {
      current.to = to;
      continue;
    }
    if (current) windows.push(current);
    // A window never reaches back into the one before (the padding would hear its last word twice).
    const start = Math.max(from, windows[windows.length - 1]?.to ?? 0);
    for (current = { from: start, to: Math.min(to, start + WINDOW) }; current.to < to; ) {
      windows.push(current);
      current = { from: current.to, to: Math.min(to, current.to + WINDOW) };
    }
  }
  if (current) windows.push(current);
  return windows;
}

/** Per-character times spread evenly over a word (Whisper gives none finer than a token). */
function withCharacters(word: TimedWord) {
  const chars = [...word.text];
  const step = (word.end - word.start) / Math.max(1, chars.length);
  return {
    ...word,
    characters: chars.map((c, k) => ({
      text: c,
      start: word.start + k * step,
      end: word.start + (k + 1) * step,
    })),
  };
}

/** Words spread over a window by character count, when the tokens could not be timed. */
function spread(text: string, start: number, end: number): TimedWord[] {
  const words = text.split(/\s+/).filter(Boolean);
  const total = words.reduce((n, w) => n + Math.max(1, w.length), 0);
  let at = start;
  return words.map((w) => {
    const span = ((end - start) * Math.max(1, w.length)) / Math.max(1, total);
    const word = { text: w, start: at, end: at + span };
    at += span;
    return word;
  });
}

/** Recognises a decode request's segments with Whisper: one result per segment, in order. */
export function decodeWithWhisper(
  request: Extract<SttEngineRequest, { kind: 'decode' }>,
  readSamples: (file: string, from: number, to: number) => Float32Array,
): SttDecodedSegment[] {
  const rec = whisper(request.language ?? '');
  const words: TimedWord[] = [];
  const languages: { from: number; language: string }[] = [];
  for (const window of whisperWindows(request.segments)) {
    const samples = readSamples(request.file, window.from, window.to);
    if (samples.length === 0) continue;
    const stream = rec.createStream();
    stream.acceptWaveform({ samples, sampleRate: STT_SAMPLE_RATE });
    rec.decode(stream);
    const result = rec.getResult(stream);
    const text = result.text.trim();
    const offset = window.from / STT_SAMPLE_RATE;
    const seconds = samples.length / STT_SAMPLE_RATE;
    languages.push({ from: window.from, language: result.lang || request.language || '' });
    if (text === '') continue;
    const timed =
      wordsFromTokens(result.tokens, result.timestamps ?? [], text, seconds) ?? spread(text, 0, seconds);
    for (const word of dropRepeats(timed))
      words.push({
        text: word.text,
        start: offset + word.start,
        end: Math.min(offset + word.end, window.to / STT_SAMPLE_RATE),
      });
  }
  const perSegment = assignToSegments(
    words,
    request.segments.map((s) => s.start / STT_SAMPLE_RATE),
  );
  return request.segments.map((segment, i) => {
    const own = perSegment[i] ?? [];
    const decoded: SttDecodedSegment = {
      text: own.map((w) => w.text).join(' '),
      words:
        request.timestamps === 'none'
          ? []
          : request.timestamps === 'character'
            ? own.map(withCharacters)
            : own,
    };
    const heard = [...languages].reverse().find((l) => l.from <= segment.start) ?? languages[0];
    if (heard?.language) decoded.language = heard.language;
    if (request.profile) {
      const profile = profileSegment(readSamples(request.file, segment.start, segment.end));
      if (profile) decoded.profile = profile;
    }
    return decoded;
  });
}

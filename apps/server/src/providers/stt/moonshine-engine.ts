/**
 * Speech to text inside an engine child's engine thread (never in the server's process): silero voice
 * activity and the Moonshine recogniser through sherpa-onnx-node, on a 16 kHz mono s16le file the
 * server decoded. Each call reads only the part of the file it works on, so an hour of audio never sits
 * in memory. The models load on first use (about 0.5 s for tiny, 0.8 s for base) and stay loaded.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { OfflineRecognizer, Vad } from 'sherpa-onnx-node';
import { detectAudioEvents } from './audio-events';
import { alignTextToAudio } from './forced-alignment';
import { type MoonshineSize, moonshineFiles, vadModelFile } from './model-files';
import { clusterSpeakers, profileSegment } from './speaker-clustering';
import type {
  SttDecodedSegment,
  SttDecodeResult,
  SttEngineRequest,
  SttVadResult,
} from './stt-engine-protocol';
import { STT_SAMPLE_RATE } from './stt-provider';
import { decodeWithWhisper } from './whisper-engine';
import { alignWords } from './word-alignment';

const require = createRequire(import.meta.url);
let sherpa: typeof import('sherpa-onnx-node') | undefined;
function loadSherpa(): typeof import('sherpa-onnx-node') {
  sherpa ??= require('sherpa-onnx-node') as typeof import('sherpa-onnx-node');
  return sherpa;
}

/** Threads per recogniser: one, as each engine child decodes its own segments in parallel with the others. */
const THREADS = Math.max(1, Number(process.env.STT_THREADS) || 1);

const recognizers = new Map<MoonshineSize, OfflineRecognizer>();
function recognizer(size: MoonshineSize): OfflineRecognizer {
  let found = recognizers.get(size);
  if (!found) {
    // Throws with the model store's reason when the model is unavailable: a damaged one is never loaded.
    const files = moonshineFiles(size);
    const { OfflineRecognizer } = loadSherpa();
    found = new OfflineRecognizer({
      featConfig: { sampleRate: STT_SAMPLE_RATE, featureDim: 80 },
      modelConfig: {
        moonshine: { encoder: files.encoder, mergedDecoder: files.mergedDecoder },
        tokens: files.tokens,
        numThreads: THREADS,
        provider: 'cpu',
        debug: 0,
      },
    });
    recognizers.set(size, found);
  }
  return found;
}

/** Silence that ends a segment, and the longest a segment may be (the recogniser is best under 30 s). */
const MIN_SILENCE_S = 0.4;
const MAX_SPEECH_S = 20;
const WINDOW = 512;

function newVad(): Vad {
  const { Vad } = loadSherpa();
  return new Vad(
    {
      sileroVad: {
        model: vadModelFile(),
        threshold: 0.5,
        minSilenceDuration: MIN_SILENCE_S,
        minSpeechDuration: 0.25,
        maxSpeechDuration: MAX_SPEECH_S,
        windowSize: WINDOW,
      },
      sampleRate: STT_SAMPLE_RATE,
      numThreads: 1,
      provider: 'cpu',
      debug: 0,
    },
    MAX_SPEECH_S * 3,
  );
}

/** Samples [from, to) of the s16le file, as floats in [-1, 1]. */
export function readSamples(file: string, from: number, to: number): Float32Array {
  const count = Math.max(0, to - from);
  const bytes = Buffer.alloc(count * 2);
  const fd = fs.openSync(file, 'r');
  let read = 0;
  try {
    read = fs.readSync(fd, bytes, 0, bytes.length, from * 2);
  } finally {
    fs.closeSync(fd);
  }
  const out = new Float32Array(Math.floor(read / 2));
  for (let i = 0; i < out.length; i += 1) out[i] = bytes.readInt16LE(i * 2) / 32768;
  return out;
}

/** Reads the span in blocks of about 10 s, so a long span is never held whole. */
const BLOCK = STT_SAMPLE_RATE * 10 - ((STT_SAMPLE_RATE * 10) % WINDOW);

/**
 * The speech in samples [from, to). Speech still going on at the span's end (not `final`) is left to the
 * next span, which starts where it began.
 */
function findSpeech(file: string, from: number, to: number, final: boolean): SttVadResult {
  const vad = newVad();
  const found: { start: number; end: number }[] = [];
  const collect = () => {
    while (!vad.isEmpty()) {
      const segment = vad.front();
      found.push({ start: from + segment.start, end: from + segment.start + segment.samples.length });
      vad.pop();
    }
  };
  for (let at = from; at < to; at += BLOCK) {
    const samples = readSamples(file, at, Math.min(to, at + BLOCK));
    for (let i = 0; i + WINDOW <= samples.length; i += WINDOW)
      vad.acceptWaveform(samples.subarray(i, i + WINDOW));
    collect();
  }
  const open = vad.isDetected();
  vad.flush();
  const beforeFlush = found.length;
  collect();
  if (!final && open && found.length > beforeFlush) {
    // Speech runs past the span: the next span starts a little before it, and finds it whole.
    const cut = found.pop() as { start: number; end: number };
    return { segments: found, next: Math.max(from + 1, cut.start - Math.round(0.1 * STT_SAMPLE_RATE)) };
  }
  return { segments: found, next: to };
}

/** Audio read around a segment: silero starts a segment a little after the speech starts. */
const PAD_BEFORE = Math.round(0.15 * STT_SAMPLE_RATE);
const PAD_AFTER = Math.round(0.2 * STT_SAMPLE_RATE);
/**
 * On narrowband (telephone) audio silero finds a segment's start later: 0.06–0.3 s on the bench's clips
 * and once 0.74 s (JFK's "ask not", heard as "Not"), while its ends stay where they were. Reading 0.3 s
 * before took the fast model from 5.3% to 2.3% word errors on the bench's telephone clips
 * (docs/decisions/0017-telephone-speech.md). It stays under MIN_SILENCE_S, so it never reaches back
 * into the speech of the segment before.
 */
const NARROWBAND_PAD_BEFORE = Math.round(0.3 * STT_SAMPLE_RATE);

/** The samples [from, to) read for a segment: a little before and after the speech silero found. */
export function readWindow(
  segment: { start: number; end: number },
  narrowband: boolean,
): { from: number; to: number } {
  return {
    from: Math.max(0, segment.start - (narrowband ? NARROWBAND_PAD_BEFORE : PAD_BEFORE)),
    to: segment.end + PAD_AFTER,
  };
}

/** Words with times spread over the segment by character count (until a word alignment is given). */
export function spreadWords(
  words: string[],
  start: number,
  end: number,
  characters: boolean,
): SttDecodedSegment['words'] {
  const weights = words.map((w) => Math.max(1, w.length));
  const total = weights.reduce((a, b) => a + b, 0);
  let at = start;
  return words.map((text, i) => {
    const span = ((end - start) * (weights[i] ?? 1)) / total;
    const word = { text, start: at, end: at + span };
    at += span;
    if (!characters) return word;
    const step = span / Math.max(1, text.length);
    return {
      ...word,
      characters: [...text].map((c, k) => ({
        text: c,
        start: word.start + k * step,
        end: word.start + (k + 1) * step,
      })),
    };
  });
}

/** Gaps longer than this are read at most this long for sounds (a long gap is looked at in its start). */
const MAX_GAP_READ = 300 * STT_SAMPLE_RATE;

async function decode(request: Extract<SttEngineRequest, { kind: 'decode' }>): Promise<SttDecodeResult> {
  const segments: SttDecodedSegment[] = [];
  const size = request.size;
  // The multilingual model decodes windows of several segments at once (whisper-engine.ts).
  if (size === 'whisper-base') segments.push(...decodeWithWhisper(request, readSamples));
  else
    for (const segment of request.segments) {
      const rec = recognizer(size);
      const { from, to } = readWindow(segment, request.narrowband);
      const samples = readSamples(request.file, from, to);
      const stream = rec.createStream();
      stream.acceptWaveform({ samples, sampleRate: STT_SAMPLE_RATE });
      rec.decode(stream);
      const text = rec.getResult(stream).text.trim();
      const words = text.split(/\s+/).filter(Boolean);
      const decoded: SttDecodedSegment = { text, words: [] };
      if (request.timestamps !== 'none' && words.length > 0) {
        // Where each word is: the recogniser's words aligned against a synthetic reading (word-alignment.ts).
        const characters = request.timestamps === 'character';
        const aligned = await alignWords(samples, words, { characters });
        const offset = from / STT_SAMPLE_RATE;
        decoded.words = words.map((word, i) => {
          const time = aligned.words[i] ?? { start: 0, end: 0 };
          const chars = aligned.characters?.[i];
          return {
            text: word,
            start: offset + time.start,
            end: offset + time.end,
            ...(characters && chars
              ? {
                  characters: [...word].map((c, k) => ({
                    text: c,
                    start: offset + (chars[k]?.start ?? time.start),
                    end: offset + (chars[k]?.end ?? time.end),
                  })),
                }
              : {}),
          };
        });
      }
      if (request.profile) {
        const profile = profileSegment(samples.subarray(segment.start - from, segment.end - from));
        if (profile) decoded.profile = profile;
      }
      segments.push(decoded);
    }
  const events: SttDecodeResult['events'] = [];
  for (const gap of request.gaps) {
    const samples = readSamples(request.file, gap.start, Math.min(gap.end, gap.start + MAX_GAP_READ));
    const offset = gap.start / STT_SAMPLE_RATE;
    for (const event of detectAudioEvents(samples, []))
      events.push({ label: event.label, start: offset + event.start, end: offset + event.end });
  }
  return { segments, events };
}

/** A known text aligned to the whole file (forced alignment: at most 10 minutes, forced-alignment.ts). */
function align(request: Extract<SttEngineRequest, { kind: 'align' }>) {
  const total = Math.floor(fs.statSync(request.file).size / 2);
  return alignTextToAudio(readSamples(request.file, 0, total), request.text);
}

/** Runs one speech-to-text request of the engine protocol. */
export async function runSttRequest(request: SttEngineRequest): Promise<unknown> {
  switch (request.kind) {
    case 'vad':
      return findSpeech(request.file, request.from, request.to, request.final);
    case 'decode':
      return decode(request);
    case 'align':
      return align(request);
    case 'cluster':
      // The clustering is cubic in the segments' count (at most 300 clustered, the rest join the nearest):
      // seconds of work for an hour of speech, so here, not on the server's event loop.
      return clusterSpeakers(request.profiles, {
        numSpeakers: request.numSpeakers,
        threshold: request.threshold,
      });
  }
}

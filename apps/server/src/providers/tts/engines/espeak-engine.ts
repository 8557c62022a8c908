import type { WordTiming } from '@parla/audio';
import { clamp } from '@parla/audio';
import { wordSpans } from '../engine-synthesis';
import { ipaToESpeak } from '../phoneme-alphabets';
import { type SplicedText, spliceSpans, toRequestRange, usableSpans } from '../phoneme-splice';
import type { EngineSynthesisRequest, EngineSynthesisResult } from '../tts-provider';

interface ESpeakEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
}

interface ESpeakWorker {
  set_voice(voice: string): void;
  set_rate(wordsPerMinute: number): void;
  set_pitch(pitch: number): void;
  set_range(range: number): void;
  get_samplerate(): number;
  /** eSpeak's text-to-phonemes (no audio); `1` asks for IPA. Returns a pointer to a C string. */
  text_to_phonemes(text: string, ipa: number): { ptr: number };
  synthesize(
    text: string,
    callback: (samples: Int16Array | undefined, events: ESpeakEvent[] | undefined) => boolean,
  ): void;
}

interface ESpeakModule {
  eSpeakNGWorker: new () => ESpeakWorker;
  HEAPU8: Uint8Array;
}

interface LoadedESpeak {
  worker: ESpeakWorker;
  module: ESpeakModule;
  /** Puts the module's memory back as it was just after loading. */
  reset(): void;
}

let loaded: Promise<LoadedESpeak> | undefined;

/** The clock eSpeak sees while it loads: it seeds its random numbers from the time. */
const LOAD_TIME_MS = 1_700_000_000_000;

/**
 * The size of the buffer the module's JavaScript glue passes strings through (its WebIDL "ensureCache"),
 * made before the memory copy is taken. The glue keeps that buffer's address in JavaScript and replaces
 * the buffer with a larger one when a longer string comes: a buffer made after the copy was taken is
 * free memory once the copy is written back, and the next strings overwrote whatever was given that
 * memory (a dictionary being loaded: switching to Spanish after a long English text crashed or hung).
 * Texts up to this size never make the glue replace it.
 */
const STRING_BUFFER_BYTES = 128 * 1024;

/**
 * The eSpeak-NG WebAssembly module, loaded once per engine child (110–120 ms). eSpeak draws random
 * numbers while it speaks (its C rand() state lives in the module's memory), so the same text would sound
 * slightly different from call to call. A copy of the memory taken after loading (17 MB) is written back
 * before every synthesis (about 3 ms): identical input then gives identical samples, whatever ran before.
 * It seeds those numbers from the clock while loading, so it loads on a fixed clock: otherwise two
 * children loaded in different seconds (or a child after a restart) spoke the same text differently.
 */
function load(): Promise<LoadedESpeak> {
  loaded ??= (async () => {
    const createModule = (await import('@echogarden/espeak-ng-emscripten')).default;
    const now = Date.now;
    Date.now = () => LOAD_TIME_MS;
    try {
      const module = (await createModule()) as ESpeakModule;
      const worker = new module.eSpeakNGWorker();
      // An unknown voice of that length makes the glue grow its string buffer at the next call.
      worker.set_voice('x'.repeat(STRING_BUFFER_BYTES));
      worker.set_voice('en-us'); // loads the phoneme data, so the snapshot holds it
      const snapshot = new Uint8Array(module.HEAPU8);
      return { worker, module, reset: () => module.HEAPU8.set(snapshot) };
    } finally {
      Date.now = now;
    }
  })();
  return loaded;
}

/** Where eSpeak said a word starts: character offsets [start, end) and the ms its audio starts at. */
export interface WordStart {
  start: number;
  end: number;
  ms: number;
}

/**
 * eSpeak's word events cover a word only up to a hyphen, an apostrophe or a dot inside it ("isn" of
 * "isn't", "dog" of "dog-house", "forty" of "forty-two"): the rest of the written word fell between two
 * words and had no duration. Each event is widened to the whole word (`wordSpans`) it starts in, and
 * events inside a word already begun are part of it.
 */
export function wholeWords(text: string, events: readonly WordStart[]): WordStart[] {
  const spans = wordSpans(text);
  const words: WordStart[] = [];
  let k = 0;
  for (const event of events) {
    while ((spans[k]?.end ?? Number.POSITIVE_INFINITY) <= event.start) k += 1;
    const span = spans[k];
    const inSpan = span !== undefined && span.start <= event.start;
    const word = inSpan ? { ...event, start: span.start, end: Math.max(span.end, event.end) } : event;
    const previous = words.at(-1);
    if (previous && word.start < previous.end) previous.end = Math.max(previous.end, word.end);
    else words.push(word);
  }
  return words;
}

/** The text of a C string in the module's memory, up to its terminating zero. */
function readCString(heap: Uint8Array, pointer: number): string {
  const end = heap.indexOf(0, pointer);
  return new TextDecoder().decode(heap.subarray(pointer, end < 0 ? heap.length : end));
}

/**
 * eSpeak-NG's phonemes of a text in IPA, without speaking it (its text-to-phonemes call, under a
 * millisecond a clause): phonemes joined by `_`, words by a space, clauses by ` | ` (`h_ə_l_ˈoʊ w_ˈɜː_l_d`).
 * A phoneme of several letters (`oʊ`, `tʃ`) is one item between the `_`s, as eSpeak's ties would mark
 * it. The neural engines read a text through it (kokoro-engine.ts, piper-engine.ts), in the same module
 * the eSpeak voices speak from: one copy of its data per child.
 */
export async function eSpeakPhonemes(text: string, voice: string): Promise<string> {
  if (Buffer.byteLength(text) > STRING_BUFFER_BYTES / 2) {
    throw new Error('The text is too long for one eSpeak call.');
  }
  const { worker, module, reset } = await load();
  reset();
  worker.set_voice(voice);
  const pointer = worker.text_to_phonemes(text, 1).ptr;
  return readCString(module.HEAPU8, pointer).trim();
}

/**
 * The text eSpeak is given for a request: each phoneme span as `[[…]]` in eSpeak's mnemonics (its only
 * phoneme input: no IPA, and SSML `<phoneme>` is ignored; research-30 §1), and every `[` of the text itself
 * made `(` — eSpeak reads `[[` as the start of phonemes wherever it stands, so a user's text could
 * otherwise say raw phonemes. Every one, not only those before another: the text is defused piece by
 * piece, and a review found a `[` at a piece's end rejoining a `[` that starts the next (a span eSpeak has no
 * mnemonics for, said as written) into `[[`. eSpeak says neither bracket. The same length, so offsets
 * outside the spans do not move.
 */
export function eSpeakText(request: Pick<EngineSynthesisRequest, 'text' | 'phonemes'>): SplicedText {
  return spliceSpans(
    request.text,
    usableSpans(request.text, request.phonemes),
    (span) => {
      const mnemonics = ipaToESpeak(span.ipa);
      return mnemonics ? `[[${mnemonics}]]` : undefined;
    },
    (piece) => piece.replaceAll('[', '('),
  );
}

/** eSpeak's default speaking rate (words per minute), pitch and intonation range (0–100). */
const DEFAULT_WPM = 175;
const DEFAULT_PITCH = 50;
const DEFAULT_RANGE = 50;

/**
 * eSpeak-NG through WebAssembly: many languages and variants, with word events that give exact word
 * times. Rate, pitch and range persist on the worker, so every call sets all three.
 */
export async function synthesizeWithESpeak(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  // Past the glue's string buffer the memory copy would no longer match the glue (see STRING_BUFFER_BYTES);
  // a request's text is at most 10,000 characters, 40 KB.
  const spliced = eSpeakText(request);
  if (Buffer.byteLength(spliced.text) > STRING_BUFFER_BYTES / 2) {
    throw new Error('The text is too long for one eSpeak call.');
  }
  const { worker: w, reset } = await load();
  reset();
  w.set_voice(request.voice);
  w.set_rate(Math.round(clamp(DEFAULT_WPM * (request.rate ?? 1), 80, 450)));
  w.set_pitch(Math.round(clamp(DEFAULT_PITCH * (request.pitch ?? 1), 0, 99)));
  w.set_range(Math.round(clamp(DEFAULT_RANGE * (request.range ?? 1), 0, 99)));
  const chunks: Int16Array[] = [];
  const said: WordStart[] = [];
  let endMs = 0;
  w.synthesize(spliced.text, (samples, events) => {
    if (samples && samples.length > 0) chunks.push(new Int16Array(samples));
    for (const event of events ?? []) {
      if (event.type === 'word') {
        // On the request's text: a bracketed word's event covers only its first syllable (`t@m` of
        // `[[t@m'A:toU]]`) and maps to the whole written word.
        const start = event.text_position - 1;
        const range = toRequestRange(spliced, start, start + event.word_length);
        said.push({ ...range, ms: event.audio_position });
      } else if (event.type === 'end' || event.type === 'msg_terminated') {
        endMs = Math.max(endMs, event.audio_position);
      }
    }
    return false;
  });
  const length = chunks.reduce((sum, c) => sum + c.length, 0);
  const samples = new Int16Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    samples.set(chunk, offset);
    offset += chunk.length;
  }
  const sampleRate = w.get_samplerate();
  const totalMs = Math.round((length / sampleRate) * 1000);
  const starts = wholeWords(request.text, said);
  const words: WordTiming[] = starts.map((word, i) => ({
    start: word.start,
    end: word.end,
    startMs: word.ms,
    endMs: Math.min(starts[i + 1]?.ms ?? Math.max(endMs, totalMs), totalMs),
  }));
  return { sampleRate, samples, words, timing: 'exact' };
}

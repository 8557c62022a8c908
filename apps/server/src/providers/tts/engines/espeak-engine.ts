import type { EngineSynthesisRequest, EngineSynthesisResult, WordTiming } from '../engine-synthesis';
import { clamp } from '../engine-synthesis';

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
  get_samplerate(): number;
  synthesize(
    text: string,
    callback: (samples: Int16Array | undefined, events: ESpeakEvent[] | undefined) => boolean,
  ): void;
  list_voices(): { name: string; identifier: string; languages: { name: string }[] }[];
}

let worker: Promise<ESpeakWorker> | undefined;

/** The eSpeak-NG WebAssembly module, loaded once per engine child (110–120 ms). */
function getWorker(): Promise<ESpeakWorker> {
  worker ??= (async () => {
    const createModule = (await import('@echogarden/espeak-ng-emscripten')).default;
    const instance = (await createModule()) as { eSpeakNGWorker: new () => ESpeakWorker };
    return new instance.eSpeakNGWorker();
  })();
  return worker;
}

/** eSpeak's default speaking rate (words per minute) and pitch (0–100). */
const DEFAULT_WPM = 175;
const DEFAULT_PITCH = 50;

/**
 * eSpeak-NG through WebAssembly: many languages and variants, with word events that give exact word
 * times. Rate and pitch persist on the worker, so every call sets both.
 */
export async function synthesizeWithESpeak(request: EngineSynthesisRequest): Promise<EngineSynthesisResult> {
  const w = await getWorker();
  w.set_voice(request.voice);
  w.set_rate(Math.round(clamp(DEFAULT_WPM * (request.rate ?? 1), 80, 450)));
  w.set_pitch(Math.round(clamp(DEFAULT_PITCH * (request.pitch ?? 1), 0, 99)));
  const chunks: Int16Array[] = [];
  const starts: { start: number; end: number; ms: number }[] = [];
  let endMs = 0;
  w.synthesize(request.text, (samples, events) => {
    if (samples && samples.length > 0) chunks.push(new Int16Array(samples));
    for (const event of events ?? []) {
      if (event.type === 'word') {
        const start = event.text_position - 1;
        starts.push({ start, end: start + event.word_length, ms: event.audio_position });
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
  const words: WordTiming[] = starts.map((word, i) => ({
    start: word.start,
    end: word.end,
    startMs: word.ms,
    endMs: Math.min(starts[i + 1]?.ms ?? Math.max(endMs, totalMs), totalMs),
  }));
  return { sampleRate, samples, words, timing: 'exact' };
}

/** Every eSpeak voice: identifier and languages. */
export async function listESpeakVoices(): Promise<
  { identifier: string; name: string; languages: string[] }[]
> {
  const w = await getWorker();
  return w
    .list_voices()
    .map((v) => ({ identifier: v.identifier, name: v.name, languages: v.languages.map((l) => l.name) }));
}

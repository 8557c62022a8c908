import { beforeAll } from 'vitest';

/** What the tests use of the eSpeak-NG WebAssembly module (the package ships no type declarations). */
interface ESpeakWorker {
  set_voice(voice: string): void;
  set_rate(wordsPerMinute: number): void;
  set_pitch(pitch: number): void;
  set_range(range: number): void;
  get_samplerate(): number;
  synthesize(text: string, callback: (samples: Int16Array | undefined) => boolean): void;
}

export interface SpokenAudio {
  sampleRate: number;
  samples: Int16Array;
}

/**
 * Real speech for a test file, in-process: eSpeak-NG loaded once in `beforeAll`. The returned `speak`
 * sets rate, pitch and range on every call, since they persist on the worker.
 */
export function useESpeakSpeech(): (
  voice: string,
  text: string,
  options?: { rate?: number; pitch?: number },
) => SpokenAudio {
  let worker: ESpeakWorker | undefined;
  beforeAll(async () => {
    // @ts-expect-error -- the package ships no type declarations; ESpeakWorker above types what is used.
    const createModule = (await import('@echogarden/espeak-ng-emscripten')).default;
    const module = (await createModule()) as { eSpeakNGWorker: new () => ESpeakWorker };
    worker = new module.eSpeakNGWorker();
  });
  return (voice, text, { rate = 170, pitch = 50 } = {}) => {
    if (!worker) throw new Error('eSpeak loads in beforeAll');
    worker.set_voice(voice);
    worker.set_rate(rate);
    worker.set_pitch(pitch);
    worker.set_range(50);
    const chunks: Int16Array[] = [];
    worker.synthesize(text, (samples) => {
      if (samples && samples.length > 0) chunks.push(new Int16Array(samples));
      return false;
    });
    const samples = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of chunks) {
      samples.set(chunk, offset);
      offset += chunk.length;
    }
    return { sampleRate: worker.get_samplerate(), samples };
  };
}

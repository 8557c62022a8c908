import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the speech-to-text model files are: MODELS_DIR, else the repository's `vendor/models` (found
 * upwards from this file, in the source and in a build), where `scripts/fetch-models.mjs` puts them.
 */
export function modelsDir(): string {
  if (process.env.MODELS_DIR) return path.resolve(process.env.MODELS_DIR);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'vendor', 'models');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('vendor/models');
    dir = parent;
  }
}

/** The embedded recogniser's two sizes. */
export type MoonshineSize = 'tiny' | 'base';

export function moonshineFiles(size: MoonshineSize): {
  encoder: string;
  mergedDecoder: string;
  tokens: string;
} {
  const dir = modelsDir();
  return {
    encoder: path.join(dir, `moonshine-${size}`, 'encoder_model.onnx'),
    mergedDecoder: path.join(dir, `moonshine-${size}`, 'decoder_model_merged.onnx'),
    tokens: path.join(dir, 'moonshine-tokens.txt'),
  };
}

export function vadModelFile(): string {
  return path.join(modelsDir(), 'silero_vad.onnx');
}

/** Whether the embedded models are on disk (npm start and npm test fetch them). */
export function embeddedModelsPresent(size: MoonshineSize = 'tiny'): boolean {
  const files = moonshineFiles(size);
  return [files.encoder, files.mergedDecoder, files.tokens, vadModelFile()].every((f) => fs.existsSync(f));
}

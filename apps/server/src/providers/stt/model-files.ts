import { requireModelFile } from '../../platform/models/model-store';

/** The embedded recogniser's two sizes. */
export type MoonshineSize = 'tiny' | 'base';

/**
 * The files of a Moonshine size, from the model store: it throws with the reason (missing, partial,
 * wrong size, checksum mismatch) when that model is unavailable, so a damaged model is never loaded.
 */
export function moonshineFiles(size: MoonshineSize): {
  encoder: string;
  mergedDecoder: string;
  tokens: string;
} {
  const id = size === 'tiny' ? 'moonshine-tiny' : 'moonshine-base';
  return {
    encoder: requireModelFile(id, `moonshine-${size}/encoder_model.onnx`),
    mergedDecoder: requireModelFile(id, `moonshine-${size}/decoder_model_merged.onnx`),
    tokens: requireModelFile(id, 'moonshine-tokens.txt'),
  };
}

/** The silero voice-activity model, from the model store (throws with the reason when unavailable). */
export function vadModelFile(): string {
  return requireModelFile('silero-vad', 'silero_vad.onnx');
}

import { requireModelFile } from '../../platform/models/model-store';

/** The embedded recogniser's two sizes. */
export type MoonshineSize = 'tiny' | 'base';

/** The embedded recognisers an engine child runs: Moonshine's two sizes (English) and Whisper base. */
export type SttRecogniser = MoonshineSize | 'whisper-base';

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

/**
 * Whisper base's files (the multilingual model, issue 29), from the model store: the graphs, their
 * external-data weights beside them (found by the graphs themselves) and the vocabulary.
 */
export function whisperFiles(): { encoder: string; decoder: string; tokens: string } {
  const id = 'whisper-base';
  requireModelFile(id, 'whisper-base/base-encoder.weights');
  requireModelFile(id, 'whisper-base/base-decoder.weights');
  return {
    encoder: requireModelFile(id, 'whisper-base/base-encoder.onnx'),
    decoder: requireModelFile(id, 'whisper-base/base-decoder.onnx'),
    tokens: requireModelFile(id, 'whisper-base/base-tokens.txt'),
  };
}

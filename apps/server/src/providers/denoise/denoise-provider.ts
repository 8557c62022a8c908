import type { PcmAudio } from '@parla/audio';

/** Suppresses background noise in mono speech. */
export interface DenoiseProvider {
  /** The same audio cleaned: mono, the same rate and length, lined up with the input. */
  denoise(audio: PcmAudio, options?: { timeoutMs?: number }): Promise<PcmAudio>;
}

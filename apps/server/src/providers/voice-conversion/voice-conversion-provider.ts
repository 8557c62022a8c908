import type { PcmAudio } from '@parla/audio';
import type { VoiceTransform } from '../../platform/media/voice-transform';

/**
 * Moves a recording's voice to a target while keeping its delivery (timing, intonation contour): the
 * voice changer's conversion. The target is given as the ratios the caller measured between the input's
 * voice and the target's (pitch, formants, tempo); a converter that learns a target from its recordings
 * would need those recordings, and this request would grow then.
 */
export interface VoiceConversionProvider {
  /** Mono in, mono out at the same rate, lasting 1 / tempoRatio as long. */
  convert(audio: PcmAudio, target: VoiceTransform, options?: { timeoutMs?: number }): Promise<PcmAudio>;
}

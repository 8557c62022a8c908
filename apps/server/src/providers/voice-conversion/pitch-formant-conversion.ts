import { transformVoice } from '../../platform/media/voice-transform';
import type { VoiceConversionProvider } from './voice-conversion-provider';

/**
 * The embedded voice conversion: the pitch, formant and pace transform (platform/media/voice-transform.ts,
 * librubberband through ffmpeg), by signal processing. A converter that learns a target voice from its
 * recordings would be another adapter of the same port.
 */
export const pitchFormantConversion: VoiceConversionProvider = { convert: transformVoice };

import { STS_MAX_SECONDS, STS_MAX_UPLOAD_BYTES, speechToSpeechCost } from '@parla/contracts';
import { AUDIO_UPLOAD_TYPES_TEXT, formatMegabytes, isAudioUpload } from '../../lib/audio-upload-types';
import { formatClipDuration } from '../../lib/recording';

const megabytes = STS_MAX_UPLOAD_BYTES / 1024 / 1024;

/**
 * Why a chosen file cannot be converted, or null when it can be sent: one of the §5 audio types (by MIME
 * type or extension, a type with parameters like `audio/webm;codecs=opus` included), not empty, and at most
 * the API's 50 MB upload bound. Checked before any request.
 */
export function checkAudioFile(file: { name: string; type: string; size: number }): string | null {
  if (!isAudioUpload(file))
    return `${file.name} is not an audio file we can convert. Choose ${AUDIO_UPLOAD_TYPES_TEXT}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > STS_MAX_UPLOAD_BYTES)
    return `${file.name} is ${formatMegabytes(file.size)}; files of at most ${megabytes} MB can be converted.`;
  return null;
}

/** Why a clip of `seconds` cannot be converted (longer than the 5 minutes the API takes), or null. */
export function checkClipLength(seconds: number | null): string | null {
  if (seconds === null || seconds <= STS_MAX_SECONDS) return null;
  return `This recording is ${formatClipDuration(seconds)} long; at most ${formatClipDuration(STS_MAX_SECONDS)} can be converted.`;
}

/** The credits a clip will cost (contracts speechToSpeechCost: 1,000 a minute, per started second). */
export function estimateConversionCredits(seconds: number | null): number | null {
  return seconds === null || !Number.isFinite(seconds) || seconds <= 0 ? null : speechToSpeechCost(seconds);
}

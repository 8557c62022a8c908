import { STS_MAX_SECONDS, STS_MAX_UPLOAD_BYTES, speechToSpeechCost } from '@parla/contracts';
import { AUDIO_UPLOAD_TYPES_TEXT, formatMegabytes, isAudioUpload } from '../../lib/audio-upload-types';

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

/** A clip's length as `m:ss`, rounding up a started second so a 0.4 s clip does not read 0:00. */
export function formatClipDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds - 1e-9) : 0;
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/** Recording formats tried in order; the first the browser's MediaRecorder supports is used. */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

/** The MIME type to record in, or '' to let the browser choose. */
export function pickRecordingType(isTypeSupported: (type: string) => boolean): string {
  return RECORDING_TYPES.find((type) => isTypeSupported(type)) ?? '';
}

/** The file name of a browser recording: its time and an extension matching its type. */
export function recordingFileName(type: string, date: Date): string {
  const mime = type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = mime === 'audio/ogg' ? 'ogg' : mime === 'audio/mp4' ? 'm4a' : 'webm';
  const stamp = date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `recording-${stamp}.${extension}`;
}

/** What to tell the user when the microphone cannot be opened (getUserMedia's DOMException names). */
export function microphoneErrorMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'Microphone access was denied. Allow the microphone for this site in your browser settings, or choose a file instead.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No microphone was found. Connect one, or choose a file instead.';
  if (name === 'NotReadableError')
    return 'The microphone is in use by another application. Close it and try again, or choose a file instead.';
  return 'The recording could not be started. Try again, or choose a file instead.';
}

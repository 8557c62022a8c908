import { STS_MAX_SECONDS, STS_MAX_UPLOAD_BYTES, speechToSpeechCost } from '@parla/contracts';

/** history/voices §5 audio types a recording may be sent as, by file extension. */
export const STS_AUDIO_EXTENSIONS = [
  'aac',
  'aif',
  'aiff',
  'ogg',
  'oga',
  'mpeg',
  'mp3',
  'opus',
  'wav',
  'webm',
  'flac',
  'mp4',
  'm4a',
] as const;

/** The same types by MIME type (browsers name some of them in more than one way). */
const STS_AUDIO_MIME_TYPES: ReadonlySet<string> = new Set([
  'audio/aac',
  'audio/x-aac',
  'audio/aiff',
  'audio/x-aiff',
  'audio/ogg',
  'audio/mpeg',
  'audio/mp3',
  'audio/opus',
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'audio/webm',
  'audio/flac',
  'audio/x-flac',
  'audio/mp4',
  'audio/m4a',
  'audio/x-m4a',
  'video/mp4',
  'video/webm',
]);

/** The `accept` attribute of the file input: every §5 extension and MIME type. */
export const STS_AUDIO_ACCEPT = [
  ...STS_AUDIO_EXTENSIONS.map((extension) => `.${extension}`),
  ...STS_AUDIO_MIME_TYPES,
].join(',');

/** The types as the page lists them to the user. */
export const STS_AUDIO_TYPES_TEXT = 'AAC, AIFF, OGG, MPEG, MP3, OPUS, WAV, WEBM, FLAC, MP4 or M4A';

const megabytes = STS_MAX_UPLOAD_BYTES / 1024 / 1024;

/**
 * Why a chosen file cannot be converted, or null when it can be sent: one of the §5 audio types (by MIME
 * type or extension, a type with parameters like `audio/webm;codecs=opus` included), not empty, and at most
 * the API's 50 MB upload bound. Checked before any request.
 */
export function checkAudioFile(file: { name: string; type: string; size: number }): string | null {
  const mime = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = file.name.includes('.') ? (file.name.split('.').pop()?.toLowerCase() ?? '') : '';
  const known =
    STS_AUDIO_MIME_TYPES.has(mime) || (STS_AUDIO_EXTENSIONS as readonly string[]).includes(extension);
  if (!known) return `${file.name} is not an audio file we can convert. Choose ${STS_AUDIO_TYPES_TEXT}.`;
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

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
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

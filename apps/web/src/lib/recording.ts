/** Browser recordings: their format, file name, length label and microphone errors (pure). */

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

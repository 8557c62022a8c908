import { AUDIO_UPLOAD_TYPES } from '@parla/contracts';

/**
 * history/voices §5 "Uploads": the audio types a file may be uploaded as, by file extension (the §5 list
 * from contracts, plus the other extensions of two of its types: .aif for AIFF, .oga for Ogg).
 */
export const AUDIO_UPLOAD_EXTENSIONS = [...AUDIO_UPLOAD_TYPES, 'aif', 'oga'] as const;

/** The same types by MIME type (browsers name some of them in more than one way). */
const AUDIO_UPLOAD_MIME_TYPES: ReadonlySet<string> = new Set([
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

/** The `accept` attribute of an audio file input: every §5 extension and MIME type. */
export const AUDIO_UPLOAD_ACCEPT = [
  ...AUDIO_UPLOAD_EXTENSIONS.map((extension) => `.${extension}`),
  ...AUDIO_UPLOAD_MIME_TYPES,
].join(',');

/** The types as pages list them to the user. */
export const AUDIO_UPLOAD_TYPES_TEXT = 'AAC, AIFF, OGG, MPEG, MP3, OPUS, WAV, WEBM, FLAC, MP4 or M4A';

/**
 * Whether a file is one of the §5 audio types, by its MIME type (parameters like `;codecs=opus` ignored)
 * or by its extension. The server checks the content; this only spares a request that cannot succeed.
 */
export function isAudioUpload(file: { name: string; type: string }): boolean {
  const mime = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = file.name.includes('.') ? (file.name.split('.').pop()?.toLowerCase() ?? '') : '';
  return (
    AUDIO_UPLOAD_MIME_TYPES.has(mime) || (AUDIO_UPLOAD_EXTENSIONS as readonly string[]).includes(extension)
  );
}

/** A size in megabytes with one decimal, as upload messages show it. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

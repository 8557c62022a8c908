/** history/voices §5 "Uploads": the audio types an upload may be (the server checks the content). */
export const AUDIO_UPLOAD_TYPES = [
  'aac',
  'aiff',
  'ogg',
  'mpeg',
  'mp3',
  'opus',
  'wav',
  'webm',
  'flac',
  'mp4',
  'm4a',
] as const;

/** history/voices §5 "Uploads": the video types an upload may be. */
export const VIDEO_UPLOAD_TYPES = [
  'mp4',
  'avi',
  'mkv',
  'quicktime',
  'wmv',
  'flv',
  'webm',
  'mpeg',
  '3gpp',
] as const;

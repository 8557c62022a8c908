import { isVideoFile } from './dubbing-rules';

/**
 * A file's duration in seconds, read by the browser from its metadata with a media element (the cost
 * estimate of the new-dub dialog); null when the browser cannot read it (an unknown codec: the server
 * still can, through ffmpeg).
 */
export function readMediaDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const media = document.createElement(isVideoFile(file) ? 'video' : 'audio');
    const url = URL.createObjectURL(file);
    const done = (seconds: number | null) => {
      media.removeAttribute('src');
      URL.revokeObjectURL(url);
      resolve(seconds);
    };
    media.preload = 'metadata';
    media.addEventListener('loadedmetadata', () =>
      done(Number.isFinite(media.duration) && media.duration > 0 ? media.duration : null),
    );
    media.addEventListener('error', () => done(null));
    media.src = url;
  });
}

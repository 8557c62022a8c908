/** Playback speeds offered by the speed menu (history/voices §9). */
export const playbackSpeeds = [0.8, 1, 1.2, 1.5, 2] as const;
export type PlaybackSpeed = (typeof playbackSpeeds)[number];

/** How far the skip buttons move (history/voices §9). */
export const skipSeconds = 10;
/** How far the Left and Right arrow keys move (history/voices §9). */
export const keyboardSeekSeconds = 3;
/** How often the time readout updates while playing (history/voices §9). */
export const timeReadoutIntervalMs = 25;
/** The speaking rate behind the length estimate (history/voices §9 "words / 140 per minute"). */
export const estimatedWordsPerMinute = 140;
/** Playback past this many seconds shows the feedback control (history/voices §4). */
export const feedbackAfterSeconds = 3;

/** Whether a number is one of the offered speeds. */
export function isPlaybackSpeed(value: number): value is PlaybackSpeed {
  return (playbackSpeeds as readonly number[]).includes(value);
}

/** A speed as the speed menu shows it: `1×`, `0.8×`. */
export function formatPlaybackSpeed(speed: number): string {
  return `${speed}×`;
}

/** A time as the readout shows it: `m:ss`, or `h:mm:ss` from an hour; nonsense (NaN, negative) reads 0:00. */
export function formatPlaybackTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

/** The number of words in a text (runs of non-space characters). */
export function countWords(text: string): number {
  const words = text.trim().match(/\S+/g);
  return words ? words.length : 0;
}

/** The estimated length in seconds of a text read aloud: words / 140 per minute (history/voices §9). */
export function estimateSpeechSeconds(text: string): number {
  return (countWords(text) / estimatedWordsPerMinute) * 60;
}

export interface DisplayDuration {
  seconds: number;
  /** True when the number is the words-per-minute estimate, shown with a `~`. */
  estimated: boolean;
}

/**
 * The length the bar shows: the media's own once it is known, else the item's `duration` (ms), else, while
 * a stream is still arriving (its length unknown), the estimate from the item's text (history/voices §9),
 * rounded up to whole seconds.
 * Null when nothing is known.
 */
export function getDisplayDuration(input: {
  mediaSeconds: number | null;
  itemDurationMs?: number | undefined;
  text?: string | undefined;
}): DisplayDuration | null {
  const { mediaSeconds, itemDurationMs, text } = input;
  if (mediaSeconds !== null && Number.isFinite(mediaSeconds) && mediaSeconds > 0)
    return { seconds: mediaSeconds, estimated: false };
  if (itemDurationMs !== undefined && Number.isFinite(itemDurationMs) && itemDurationMs > 0)
    return { seconds: itemDurationMs / 1000, estimated: false };
  // Whole seconds, rounded up: two words read "~0:01", not "~0:00".
  const estimate = text ? Math.ceil(estimateSpeechSeconds(text)) : 0;
  return estimate > 0 ? { seconds: estimate, estimated: true } : null;
}

/**
 * Whether the feedback control shows (history/voices §4): once playback passes 3 s, or when the audio
 * ends (short clips never reach 3 s).
 */
export function shouldShowFeedback(playedSeconds: number, ended: boolean): boolean {
  return ended || playedSeconds > feedbackAfterSeconds;
}

/** A seek target kept inside the audio: not before 0, not after the end when the end is known. */
export function clampSeekTime(seconds: number, endSeconds: number | null): number {
  const target = Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
  return endSeconds !== null && Number.isFinite(endSeconds) ? Math.min(target, endSeconds) : target;
}

/** The player feature's front door for other features. */

export { getAudioFile } from './api/get-audio-file';
export type { Playback } from './player-item';
export { usePlayer } from './use-player';

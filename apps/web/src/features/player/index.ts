/** The player feature's front door for other features. */
export type { Playback } from './player-item';
export { usePlayer } from './use-player';

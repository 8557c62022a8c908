import { createContext } from 'react';
import type { AudioPlayerItem, PlayerSource } from './player-item';
import type { PlayerState } from './player-reducer';
import type { PlaybackSpeed } from './player-rules';

/** What pages get from usePlayer(): the player's state and its controls. */
export interface PlayerControls {
  state: PlayerState;
  /**
   * Loads an item into the bottom player, replacing whatever was there. It starts by itself when the item
   * has `autoStart` (after `autoStartDelaySeconds`); otherwise it waits, ready, for the play button.
   */
  play: (item: AudioPlayerItem, source: PlayerSource) => void;
  pause: () => void;
  /** Plays the loaded item: from where it paused, or again from the start once it has ended. */
  resume: () => void;
  /** Stops, forgets the item and hides the bar. */
  stop: () => void;
  /** Moves to a time in seconds, kept inside the audio. */
  seekTo: (seconds: number) => void;
  /** Moves by a number of seconds (negative: back). */
  seekBy: (seconds: number) => void;
  setPlaybackRate: (speed: PlaybackSpeed) => void;
  /** Saves the audio under the item's fileName (history/voices §4 "Download"). */
  download: () => Promise<void>;
  /** The media element's time right now, for the 25 ms readout (§9) that would be too fast for state. */
  getCurrentTime: () => number;
}

/** Filled by PlayerProvider; read it with usePlayer(). */
export const PlayerContext = createContext<PlayerControls | null>(null);

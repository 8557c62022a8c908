import type { AudioPlayerItem, PlayerSource } from './player-item';
import { type PlaybackSpeed, shouldShowFeedback } from './player-rules';

/** The player's states (history/voices §4 "Audio player"). */
export type PlayerStatus = 'idle' | 'loading' | 'ready' | 'playing' | 'paused' | 'ended';

export interface PlayerState {
  status: PlayerStatus;
  /** What is loaded; kept after a failed load (status idle, `error` set) so the bar can say what failed. */
  item: AudioPlayerItem | null;
  sourceKind: PlayerSource['kind'] | null;
  /** Counts loads, so an answer about an item that has since been replaced is ignored. */
  loadId: number;
  /** Seconds; follows the media's `timeupdate` (the bar reads the element itself every 25 ms, §9). */
  currentTime: number;
  /** Seconds, as the media reports it; null until it is known (a stream learns it only at its end). */
  duration: number | null;
  playbackRate: PlaybackSpeed;
  /** A stream's body is still arriving. */
  streaming: boolean;
  /** §4: playback has passed 3 s or ended once for this item; it stays shown after that. */
  feedbackVisible: boolean;
  /** A sentence for the person: a failed load, a cut-off stream, a failed download. */
  error: string | null;
}

export type PlayerEvent =
  | { type: 'load'; item: AudioPlayerItem; sourceKind: PlayerSource['kind']; loadId: number }
  | { type: 'canPlay'; loadId: number }
  | { type: 'playing' }
  | { type: 'paused' }
  | { type: 'ended' }
  | { type: 'autoplayBlocked' }
  | { type: 'timeUpdate'; currentTime: number }
  | { type: 'seeked'; currentTime: number }
  | { type: 'durationChange'; duration: number }
  | { type: 'rateChange'; playbackRate: PlaybackSpeed }
  | { type: 'streamEnded'; loadId: number; error?: string }
  | { type: 'failed'; loadId: number; message: string }
  | { type: 'itemLoaded'; loadId: number }
  | { type: 'errorShown'; message: string }
  | { type: 'errorCleared' }
  | { type: 'stop' };

export const initialPlayerState: PlayerState = {
  status: 'idle',
  item: null,
  sourceKind: null,
  loadId: 0,
  currentTime: 0,
  duration: null,
  playbackRate: 1,
  streaming: false,
  feedbackVisible: false,
  error: null,
};

/** Whether the bar shows: once something has been played, and until it is closed (§2). */
export function isPlayerVisible(state: PlayerState): boolean {
  return state.item !== null;
}

/** Whether the media is playing or about to (the play button shows Pause). */
export function isPlaybackActive(state: PlayerState): boolean {
  return state.status === 'playing';
}

/**
 * The player state machine (history/voices §4): idle → loading → ready → playing ↔ paused → ended, and
 * ended → playing on replay; a new item goes to loading from anywhere. A failed load goes back to idle
 * with the item kept and the message set. Events from the media element (playing, paused, ended) carry no
 * load id; the reducer ignores those that make no sense in the current state.
 */
export function playerReducer(state: PlayerState, event: PlayerEvent): PlayerState {
  switch (event.type) {
    case 'load':
      return {
        ...initialPlayerState,
        playbackRate: state.playbackRate,
        status: 'loading',
        item: event.item,
        sourceKind: event.sourceKind,
        loadId: event.loadId,
        streaming: event.sourceKind === 'stream',
      };
    case 'canPlay':
      if (event.loadId !== state.loadId || state.status !== 'loading') return state;
      return { ...state, status: 'ready' };
    case 'playing':
      if (state.status === 'idle') return state;
      return { ...state, status: 'playing' };
    case 'paused':
      if (state.status !== 'playing') return state;
      return { ...state, status: 'paused' };
    case 'ended':
      if (state.status !== 'playing' && state.status !== 'paused') return state;
      return { ...state, status: 'ended', feedbackVisible: true };
    case 'autoplayBlocked':
      // §4: only logged; the person presses play. Loading stays loading until the media can play.
      return state.status === 'playing' ? { ...state, status: 'paused' } : state;
    case 'timeUpdate':
      if (state.status === 'idle' || state.status === 'loading') return state;
      return {
        ...state,
        currentTime: event.currentTime,
        feedbackVisible: state.feedbackVisible || shouldShowFeedback(event.currentTime, false),
      };
    case 'seeked': {
      if (state.status === 'idle' || state.status === 'loading') return state;
      // Moving back from the end leaves the ended state: the play button plays from there, not from 0.
      const end = state.duration ?? Number.POSITIVE_INFINITY;
      const leftTheEnd = state.status === 'ended' && event.currentTime < end - 0.05;
      return {
        ...state,
        status: leftTheEnd ? 'paused' : state.status,
        currentTime: event.currentTime,
        feedbackVisible: state.feedbackVisible || shouldShowFeedback(event.currentTime, false),
      };
    }
    case 'durationChange':
      // A stream reports Infinity (or NaN) until its end: keep the estimate until a real length arrives.
      if (state.status === 'idle' || !Number.isFinite(event.duration) || event.duration <= 0) return state;
      return { ...state, duration: event.duration };
    case 'rateChange':
      return { ...state, playbackRate: event.playbackRate };
    case 'streamEnded':
      if (event.loadId !== state.loadId) return state;
      return { ...state, streaming: false, error: event.error ?? state.error };
    case 'failed':
      if (event.loadId !== state.loadId || state.item === null) return state;
      return { ...state, status: 'idle', streaming: false, error: event.message };
    case 'itemLoaded':
      if (event.loadId !== state.loadId || state.item === null) return state;
      return { ...state, item: { ...state.item, loaded: true } };
    case 'errorShown':
      if (state.item === null) return state;
      return { ...state, error: event.message };
    case 'errorCleared':
      // A failed load keeps its message: it is the only thing the bar has to show.
      if (state.status === 'idle') return state;
      return { ...state, error: null };
    case 'stop':
      return { ...initialPlayerState, playbackRate: state.playbackRate, loadId: state.loadId };
  }
}

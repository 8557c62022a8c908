import { describe, expect, it } from 'vitest';
import type { AudioPlayerItem } from './player-item';
import {
  initialPlayerState,
  isPlayerVisible,
  type PlayerEvent,
  type PlayerState,
  playerReducer,
} from './player-reducer';

const item: AudioPlayerItem = {
  id: 'hist123',
  fileName: 'hello.mp3',
  type: 'text-to-speech',
  loaded: false,
  player: { title: 'Rachel', description: 'Hello there' },
};

const run = (events: PlayerEvent[], from: PlayerState = initialPlayerState) =>
  events.reduce(playerReducer, from);
const load = (loadId = 1, next: AudioPlayerItem = item): PlayerEvent => ({
  type: 'load',
  item: next,
  sourceKind: 'url',
  loadId,
});

describe('playerReducer (§4 "Audio player")', () => {
  it('starts idle, with nothing loaded and the bar hidden', () => {
    expect(initialPlayerState.status).toBe('idle');
    expect(isPlayerVisible(initialPlayerState)).toBe(false);
  });

  it('goes idle → loading → ready → playing ↔ paused → ended → playing again', () => {
    let state = run([load()]);
    expect(state.status).toBe('loading');
    expect(isPlayerVisible(state)).toBe(true);
    state = run([{ type: 'canPlay', loadId: 1 }], state);
    expect(state.status).toBe('ready');
    state = run([{ type: 'playing' }], state);
    expect(state.status).toBe('playing');
    state = run([{ type: 'paused' }], state);
    expect(state.status).toBe('paused');
    state = run([{ type: 'playing' }], state);
    expect(state.status).toBe('playing');
    // Browsers fire pause just before ended.
    state = run([{ type: 'paused' }, { type: 'ended' }], state);
    expect(state.status).toBe('ended');
    state = run([{ type: 'playing' }], state);
    expect(state.status).toBe('playing');
  });

  it('sends a new item to loading from any state and resets its time, length and error', () => {
    const playing = run([
      load(),
      { type: 'canPlay', loadId: 1 },
      { type: 'playing' },
      { type: 'durationChange', duration: 30 },
      { type: 'timeUpdate', currentTime: 12 },
      { type: 'rateChange', playbackRate: 1.5 },
    ]);
    const next = run([load(2, { ...item, id: 'other' })], playing);
    expect(next).toMatchObject({
      status: 'loading',
      loadId: 2,
      currentTime: 0,
      duration: null,
      error: null,
      feedbackVisible: false,
      playbackRate: 1.5,
    });
    expect(next.item?.id).toBe('other');
  });

  it('ignores answers about a load that has been replaced', () => {
    const state = run([load(1), load(2)]);
    expect(run([{ type: 'canPlay', loadId: 1 }], state).status).toBe('loading');
    expect(run([{ type: 'failed', loadId: 1, message: 'x' }], state).error).toBeNull();
    expect(run([{ type: 'itemLoaded', loadId: 1 }], state).item?.loaded).toBe(false);
  });

  it('ignores media events that make no sense where it is', () => {
    expect(run([{ type: 'playing' }])).toEqual(initialPlayerState);
    expect(run([load(), { type: 'paused' }]).status).toBe('loading');
    expect(run([load(), { type: 'ended' }]).status).toBe('loading');
    expect(run([load(), { type: 'timeUpdate', currentTime: 9 }]).currentTime).toBe(0);
  });

  it('shows a failed load as idle with the item kept and the message set', () => {
    const state = run([
      load(),
      { type: 'failed', loadId: 1, message: 'The audio could not be loaded: Not Found' },
    ]);
    expect(state.status).toBe('idle');
    expect(state.error).toBe('The audio could not be loaded: Not Found');
    expect(isPlayerVisible(state)).toBe(true);
    // Nothing to clear it but a new load: it is all the bar can show.
    expect(run([{ type: 'errorCleared' }], state).error).not.toBeNull();
    expect(run([load(2)], state).error).toBeNull();
  });

  it('goes to paused when autoplay is refused while playing, and stays put otherwise', () => {
    const ready = run([load(), { type: 'canPlay', loadId: 1 }]);
    expect(run([{ type: 'autoplayBlocked' }], ready).status).toBe('ready');
    expect(run([{ type: 'playing' }, { type: 'autoplayBlocked' }], ready).status).toBe('paused');
    expect(run([load(), { type: 'autoplayBlocked' }]).status).toBe('loading');
  });

  it('keeps the estimate until a stream reports a real length', () => {
    let state = run([{ ...load(), sourceKind: 'stream' } as PlayerEvent, { type: 'canPlay', loadId: 1 }]);
    expect(state.streaming).toBe(true);
    state = run([{ type: 'durationChange', duration: Number.POSITIVE_INFINITY }], state);
    expect(state.duration).toBeNull();
    state = run([{ type: 'durationChange', duration: Number.NaN }], state);
    expect(state.duration).toBeNull();
    state = run(
      [
        { type: 'streamEnded', loadId: 1 },
        { type: 'durationChange', duration: 7.2 },
      ],
      state,
    );
    expect(state).toMatchObject({ streaming: false, duration: 7.2 });
  });

  it('keeps a stream that was cut off playable, with a message', () => {
    const state = run([
      { ...load(), sourceKind: 'stream' } as PlayerEvent,
      { type: 'canPlay', loadId: 1 },
      { type: 'playing' },
      { type: 'streamEnded', loadId: 1, error: 'cut off' },
    ]);
    expect(state).toMatchObject({ status: 'playing', streaming: false, error: 'cut off' });
  });

  it('latches the feedback control once playback passes 3 s or ends (§4)', () => {
    const playing = run([load(), { type: 'canPlay', loadId: 1 }, { type: 'playing' }]);
    expect(run([{ type: 'timeUpdate', currentTime: 2.9 }], playing).feedbackVisible).toBe(false);
    const past = run([{ type: 'timeUpdate', currentTime: 3.2 }], playing);
    expect(past.feedbackVisible).toBe(true);
    expect(run([{ type: 'seeked', currentTime: 0 }], past).feedbackVisible).toBe(true);
    expect(run([{ type: 'timeUpdate', currentTime: 1 }, { type: 'ended' }], playing).feedbackVisible).toBe(
      true,
    );
  });

  it('leaves ended for paused when moved back from the end', () => {
    const ended = run([
      load(),
      { type: 'canPlay', loadId: 1 },
      { type: 'durationChange', duration: 10 },
      { type: 'playing' },
      { type: 'ended' },
    ]);
    expect(run([{ type: 'seeked', currentTime: 10 }], ended).status).toBe('ended');
    expect(run([{ type: 'seeked', currentTime: 4 }], ended)).toMatchObject({
      status: 'paused',
      currentTime: 4,
    });
  });

  it('marks the item loaded once its history item is found', () => {
    const state = run([load(), { type: 'canPlay', loadId: 1 }, { type: 'itemLoaded', loadId: 1 }]);
    expect(state.item?.loaded).toBe(true);
  });

  it('shows and clears a download error without leaving the current state', () => {
    const paused = run([load(), { type: 'canPlay', loadId: 1 }, { type: 'playing' }, { type: 'paused' }]);
    const failed = run([{ type: 'errorShown', message: 'The download failed: Network error' }], paused);
    expect(failed).toMatchObject({ status: 'paused', error: 'The download failed: Network error' });
    expect(run([{ type: 'errorCleared' }], failed).error).toBeNull();
  });

  it('stops to idle with nothing loaded, keeping the chosen speed', () => {
    const state = run([load(), { type: 'rateChange', playbackRate: 2 }, { type: 'stop' }]);
    expect(state).toMatchObject({ status: 'idle', item: null, playbackRate: 2, loadId: 1 });
    expect(isPlayerVisible(state)).toBe(false);
  });
});

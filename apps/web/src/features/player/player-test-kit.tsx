import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { stubResizeObserver } from '../../test/dom-stubs';
import { PlayerBar, type PlayerBarProps } from './components/player-bar';
import type { PlayerControls } from './player-context';
import type { AudioPlayerItem } from './player-item';
import { PlayerProvider } from './player-provider';
import { usePlayer } from './use-player';

/** Test helpers for the player: jsdom has a media element that never loads or plays, so tests drive it. */

/** An item with every field the bar reads; override what a test is about. */
export function makePlayerItem(overrides: Partial<AudioPlayerItem> = {}): AudioPlayerItem {
  return {
    id: 'voice1',
    fileName: 'rachel-preview.mp3',
    type: 'voicePreview',
    loaded: true,
    ...overrides,
    player: { title: 'Rachel', voice_name: 'Rachel', description: 'Hello there', ...overrides.player },
  };
}

/**
 * Stubs what jsdom leaves out: play() (resolves and fires play/playing, or rejects with `playError`),
 * pause(), load(), object URLs (recorded), and ResizeObserver for the Radix menu.
 */
export function stubMedia(options: { playError?: () => Error } = {}) {
  const objects: (Blob | MediaSource)[] = [];
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    if (options.playError) return Promise.reject(options.playError());
    this.dispatchEvent(new Event('play'));
    this.dispatchEvent(new Event('playing'));
    return Promise.resolve();
  });
  const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    this.dispatchEvent(new Event('pause'));
  });
  const load = vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  stubResizeObserver();
  const createObjectURL = vi.fn((object: Blob | MediaSource) => {
    objects.push(object);
    return `blob:test/${objects.length}`;
  });
  const revokeObjectURL = vi.fn();
  vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL, revokeObjectURL }));
  return { play, pause, load, objects, createObjectURL, revokeObjectURL };
}

/** The app's one <audio> element. */
export function getAudio(): HTMLAudioElement {
  const audio = document.querySelector('audio');
  if (!audio) throw new Error('No <audio> element');
  return audio;
}

/** Plays the part of the browser: the media's length is known and it can play. */
export function fireCanPlay(duration: number) {
  const audio = getAudio();
  Object.defineProperty(audio, 'duration', { configurable: true, value: duration });
  act(() => {
    fireEvent(audio, new Event('loadedmetadata'));
    fireEvent(audio, new Event('canplay'));
  });
}

/** Moves the media's clock as playback would, with its `timeupdate`. */
export function fireTimeUpdate(seconds: number) {
  const audio = getAudio();
  audio.currentTime = seconds;
  act(() => {
    fireEvent(audio, new Event('timeupdate'));
  });
}

/** Hands the test the controls a page would get from usePlayer(). */
function CaptureControls({ into }: { into: { current: PlayerControls | null } }) {
  into.current = usePlayer();
  return null;
}

/** Renders the provider and the bar, and hands back the controls pages would get from usePlayer(). */
export function renderPlayer(
  options: { queryClient?: QueryClient; bar?: PlayerBarProps; children?: ReactNode } = {},
) {
  const queryClient =
    options.queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const ref: { current: PlayerControls | null } = { current: null };
  const view = render(
    <QueryClientProvider client={queryClient}>
      <PlayerProvider>
        <CaptureControls into={ref} />
        {options.children}
        <PlayerBar {...options.bar} />
      </PlayerProvider>
    </QueryClientProvider>,
  );
  const controls = () => {
    if (!ref.current) throw new Error('The player is not mounted');
    return ref.current;
  };
  return { ...view, queryClient, controls };
}

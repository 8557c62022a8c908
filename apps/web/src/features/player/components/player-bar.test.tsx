import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fireCanPlay,
  fireTimeUpdate,
  getAudio,
  makePlayerItem,
  renderPlayer,
  stubMedia,
} from '../player-test-kit';

let media: ReturnType<typeof stubMedia>;

beforeEach(() => {
  media = stubMedia();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const region = () => screen.getByRole('region', { name: 'Audio player' });

/** Loads a public url item and lets it reach `ready` with a 60 s length, current time 20 s. */
function loadReadyItem(view: ReturnType<typeof renderPlayer>) {
  act(() => view.controls().play(makePlayerItem(), { kind: 'url', url: '/previews/rachel.mp3' }));
  fireCanPlay(60);
  fireTimeUpdate(20);
}

describe('<PlayerBar>', () => {
  it('is hidden while idle with nothing loaded, with the one <audio> element in the page', () => {
    renderPlayer();
    expect(screen.queryByRole('region', { name: 'Audio player' })).toBeNull();
    expect(document.querySelectorAll('audio')).toHaveLength(1);
  });

  it('shows every control with a name once an item is played, loading first', () => {
    const view = renderPlayer();
    act(() => view.controls().play(makePlayerItem(), { kind: 'url', url: '/previews/rachel.mp3' }));
    const bar = region();
    expect(getAudio().getAttribute('src')).toBe('/previews/rachel.mp3');
    expect(within(bar).getByText('Rachel')).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Play' }).getAttribute('aria-busy')).toBe('true');
    for (const name of [
      'Back 10 seconds',
      'Forward 10 seconds',
      'Download rachel-preview.mp3',
      'Close player',
    ])
      expect(within(bar).getByRole('button', { name })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: 'Playback speed 1×' })).toBeTruthy();
    expect((within(bar).getByRole('slider', { name: 'Seek' }) as HTMLInputElement).disabled).toBe(true);
    // Until the media knows its length, the estimate from the text: 2 words at 140 per minute, rounded up
    // (the "~" is for the eye, "about" for screen readers).
    expect(bar.textContent).toContain('~about 0:01');

    fireCanPlay(83);
    expect(view.controls().state.status).toBe('ready');
    expect(bar.textContent).toContain('1:23');
    expect(bar.textContent).not.toContain('~');
    expect(within(bar).getByRole('slider', { name: 'Seek' }).getAttribute('aria-valuetext')).toBe(
      '0:00 of 1:23',
    );
  });

  it('shows the words / 140 per minute estimate while the length is unknown', () => {
    const view = renderPlayer();
    const text = Array(70).fill('word').join(' ');
    act(() =>
      view.controls().play(makePlayerItem({ player: { title: 'Long', description: text } }), {
        kind: 'url',
        url: '/a.mp3',
      }),
    );
    expect(region().textContent).toContain('~about 0:30');
    expect(within(region()).getByRole('slider', { name: 'Seek' }).getAttribute('aria-valuetext')).toBe(
      '0:00 of about 0:30',
    );
  });

  it('plays and pauses with the main button', () => {
    const view = renderPlayer();
    loadReadyItem(view);
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(view.controls().state.status).toBe('playing');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(media.pause).toHaveBeenCalled();
    expect(view.controls().state.status).toBe('paused');
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('skips 10 s with the buttons, kept inside the audio', () => {
    const view = renderPlayer();
    loadReadyItem(view);
    const audio = getAudio();
    fireEvent.click(screen.getByRole('button', { name: 'Forward 10 seconds' }));
    expect(audio.currentTime).toBe(30);
    fireEvent.click(screen.getByRole('button', { name: 'Back 10 seconds' }));
    fireEvent.click(screen.getByRole('button', { name: 'Back 10 seconds' }));
    fireEvent.click(screen.getByRole('button', { name: 'Back 10 seconds' }));
    expect(audio.currentTime).toBe(0);
    fireTimeUpdate(55);
    fireEvent.click(screen.getByRole('button', { name: 'Forward 10 seconds' }));
    expect(audio.currentTime).toBe(60);
    expect(view.controls().state.currentTime).toBe(60);
  });

  it('moves 3 s with the arrow keys and plays with Space when focus is in the bar', () => {
    const view = renderPlayer();
    loadReadyItem(view);
    const seek = screen.getByRole('slider', { name: 'Seek' });
    seek.focus();
    fireEvent.keyDown(seek, { key: 'ArrowRight' });
    expect(getAudio().currentTime).toBe(23);
    fireEvent.keyDown(seek, { key: 'ArrowLeft' });
    fireEvent.keyDown(seek, { key: 'ArrowLeft' });
    expect(getAudio().currentTime).toBe(17);
    fireEvent.keyDown(seek, { key: ' ' });
    expect(view.controls().state.status).toBe('playing');
    fireEvent.keyDown(region(), { key: ' ' });
    expect(view.controls().state.status).toBe('paused');
    // A button answers Space itself (Download must not also toggle playback).
    fireEvent.keyDown(screen.getByRole('button', { name: 'Close player' }), { key: ' ' });
    expect(view.controls().state.status).toBe('paused');
  });

  it('seeks with the seek bar', () => {
    const view = renderPlayer();
    loadReadyItem(view);
    fireEvent.change(screen.getByRole('slider', { name: 'Seek' }), { target: { value: '42.5' } });
    expect(getAudio().currentTime).toBe(42.5);
    expect(view.controls().state.currentTime).toBe(42.5);
  });

  it('changes the speed from the menu of five speeds', async () => {
    const view = renderPlayer();
    loadReadyItem(view);
    const trigger = screen.getByRole('button', { name: 'Playback speed 1×' });
    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    const options = within(menu).getAllByRole('menuitemradio');
    expect(options.map((option) => option.textContent)).toEqual(['0.8×', '1×', '1.2×', '1.5×', '2×']);
    expect(options[1]?.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(within(menu).getByRole('menuitemradio', { name: '1.5×' }));
    expect(getAudio().playbackRate).toBe(1.5);
    expect(view.controls().state.playbackRate).toBe(1.5);
    expect(await screen.findByRole('button', { name: 'Playback speed 1.5×' })).toBeTruthy();
    // Arrow keys inside the menu (rendered in a portal) are the menu's, not the seek's.
    expect(getAudio().currentTime).toBe(20);
  });

  it('updates the time readout every 25 ms while playing', () => {
    vi.useFakeTimers();
    try {
      const view = renderPlayer();
      loadReadyItem(view);
      fireEvent.click(screen.getByRole('button', { name: 'Play' }));
      getAudio().currentTime = 21;
      act(() => {
        vi.advanceTimersByTime(25);
      });
      expect(region().textContent).toContain('0:21');
      getAudio().currentTime = 65;
      act(() => {
        vi.advanceTimersByTime(25);
      });
      expect(region().textContent).toContain('1:05');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the feedback slot only after 3 s of playback (§4)', () => {
    const renderFeedback = vi.fn(() => <button type="button">Rate this audio</button>);
    const view = renderPlayer({ bar: { renderFeedback } });
    act(() => view.controls().play(makePlayerItem(), { kind: 'url', url: '/a.mp3' }));
    fireCanPlay(60);
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    fireTimeUpdate(2.5);
    expect(screen.queryByRole('button', { name: 'Rate this audio' })).toBeNull();
    fireTimeUpdate(3.5);
    expect(screen.getByRole('button', { name: 'Rate this audio' })).toBeTruthy();
    expect(renderFeedback).toHaveBeenCalledWith(expect.objectContaining({ id: 'voice1' }));
  });

  it('shows a failed load as a message in the bar', () => {
    const view = renderPlayer();
    act(() => view.controls().play(makePlayerItem(), { kind: 'url', url: '/missing.mp3' }));
    Object.defineProperty(getAudio(), 'error', { configurable: true, value: { code: 4 } });
    act(() => {
      fireEvent(getAudio(), new Event('error'));
    });
    expect(within(region()).getByRole('alert').textContent).toContain('The audio could not be played');
    expect((screen.getByRole('button', { name: 'Play' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('closes with the Close button and hides again', () => {
    const view = renderPlayer();
    loadReadyItem(view);
    fireEvent.click(screen.getByRole('button', { name: 'Close player' }));
    expect(screen.queryByRole('region', { name: 'Audio player' })).toBeNull();
    expect(getAudio().hasAttribute('src')).toBe(false);
    expect(view.controls().state.status).toBe('idle');
  });
});

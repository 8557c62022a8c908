import { clsx } from 'clsx';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../../../ui/button';
import {
  AlertCircleIcon,
  CloseIcon,
  DownloadIcon,
  PauseIcon,
  PlayIcon,
  RefreshIcon,
  SkipBackTenIcon,
  SkipForwardTenIcon,
  SpinnerIcon,
} from '../../../ui/icons';
import type { AudioPlayerItem } from '../player-item';
import { isPlayerVisible, type PlayerStatus } from '../player-reducer';
import { formatPlaybackTime, getDisplayDuration, keyboardSeekSeconds, skipSeconds } from '../player-rules';
import { usePlayer } from '../use-player';
import { SpeedMenu } from './speed-menu';
import { usePlaybackClock } from './use-playback-clock';

export interface PlayerBarProps {
  /**
   * The feedback control (history/voices §2 "Feedback control"), rendered once §4's rule allows it
   * (playback passed 3 s or the audio ended); the app shell passes the history feature's thumbs.
   */
  renderFeedback?: (item: AudioPlayerItem) => ReactNode;
}

/** Statuses in which the audio has a position to move. */
const seekableStatuses: ReadonlySet<PlayerStatus> = new Set(['ready', 'playing', 'paused', 'ended']);

/** Elements that answer Space themselves (a button presses itself). */
const ownSpaceSelector = 'button, a[href], [role="menuitem"], [role="menuitemradio"], select, textarea';

function describePlayButton(status: PlayerStatus): { label: string; icon: ReactNode } {
  if (status === 'playing') return { label: 'Pause', icon: <PauseIcon /> };
  if (status === 'ended') return { label: 'Replay', icon: <RefreshIcon /> };
  return { label: 'Play', icon: <PlayIcon className="translate-x-px" /> };
}

/** The CSS property holding the bar's height while it shows (0 otherwise), for other fixed elements. */
export const playerOffsetProperty = '--parla-player-offset';

/**
 * The persistent bottom player (history/voices §2, §9): a 5rem bar fixed to the bottom of the page, shown
 * once something is loaded, with a spacer in the page flow so nothing hides behind it. Play/pause, 10 s
 * skips, a seek bar (Left/Right move 3 s and Space plays or pauses while focus is in the bar), the speed
 * menu, the time read every 25 ms while playing, Download and Close.
 */
export function PlayerBar({ renderFeedback }: PlayerBarProps) {
  const player = usePlayer();
  const { state } = player;
  const regionRef = useRef<HTMLElement>(null);
  const [downloading, setDownloading] = useState(false);
  const playing = state.status === 'playing';
  const time = usePlaybackClock(player.getCurrentTime, playing, state.currentTime);

  const { item } = state;
  const visible = isPlayerVisible(state) && item !== null;
  // Fixed things at the bottom (the bottom-right toast stack) move up by the bar's height while it shows.
  useEffect(() => {
    if (!visible) return;
    const root = document.documentElement;
    root.style.setProperty(playerOffsetProperty, '5rem');
    return () => {
      root.style.removeProperty(playerOffsetProperty);
    };
  }, [visible]);
  if (!visible || !item) return null;

  const failed = state.status === 'idle';
  const canSeek = seekableStatuses.has(state.status);
  const duration = getDisplayDuration({
    mediaSeconds: state.duration,
    itemDurationMs: item.player.duration,
    text: item.player.description,
  });
  const seekMax = Math.max(duration?.seconds ?? 0, time);
  const durationText = duration ? formatPlaybackTime(duration.seconds) : '--:--';
  const playButton = describePlayButton(state.status);
  const subtitle = [
    item.player.voice_name !== item.player.title ? item.player.voice_name : '',
    item.player.description,
  ]
    .filter(Boolean)
    .join(' · ');

  const handleTogglePlay = () => {
    if (playing) player.pause();
    else player.resume();
  };

  const handleDownload = async () => {
    if (downloading) return;
    setDownloading(true);
    try {
      await player.download();
    } finally {
      setDownloading(false);
    }
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target;
    // React passes on key presses from the speed menu, which is rendered in a portal: not ours.
    if (!(target instanceof Element) || !regionRef.current?.contains(target)) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      if (!canSeek) return;
      event.preventDefault();
      player.seekBy(event.key === 'ArrowLeft' ? -keyboardSeekSeconds : keyboardSeekSeconds);
    } else if (event.key === ' ' && !target.closest(ownSpaceSelector)) {
      if (failed) return;
      event.preventDefault();
      handleTogglePlay();
    }
  };

  return (
    <>
      {/* Keeps the end of the page clear of the fixed bar. */}
      <div aria-hidden="true" className="h-20 shrink-0" />
      <section
        ref={regionRef}
        aria-label="Audio player"
        tabIndex={-1}
        onKeyDown={handleKeyDown}
        className="fixed inset-x-0 bottom-0 z-40 h-20 border-t border-line bg-surface/95 text-fg shadow-[0_-8px_24px_-12px_rgb(0_0_0/0.18)] backdrop-blur focus:outline-none supports-backdrop-filter:bg-surface/85 dark:shadow-black/50"
      >
        {/*
          Below sm a grid of two rows: the buttons and the title above, the seek bar with its times across
          the whole width below, so neither squeezes the other (issue 18: at 390 px the bar had shrunk to
          nothing). From sm one row, the seek bar under the title.
        */}
        <div className="mx-auto grid h-full max-w-6xl grid-cols-[auto_minmax(0,1fr)_auto] content-center items-center gap-x-2 gap-y-1 px-3 sm:flex sm:gap-4 sm:px-6">
          <div className="col-start-1 row-start-1 flex shrink-0 items-center gap-1">
            {/* Narrow screens keep the room for the seek bar; the arrow keys still skip there. */}
            <div className="hidden sm:flex">
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Back ${skipSeconds} seconds`}
                disabled={!canSeek}
                onClick={() => player.seekBy(-skipSeconds)}
              >
                <SkipBackTenIcon className="size-6" />
              </Button>
            </div>
            <button
              type="button"
              aria-label={playButton.label}
              aria-busy={state.status === 'loading'}
              disabled={failed}
              onClick={handleTogglePlay}
              className="inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-full bg-fg text-lg text-bg sm:size-11 shadow-sm transition-colors hover:bg-fg/85 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50"
            >
              {state.status === 'loading' ? (
                <SpinnerIcon className="motion-safe:animate-spin" />
              ) : (
                playButton.icon
              )}
            </button>
            <div className="hidden sm:flex">
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Forward ${skipSeconds} seconds`}
                disabled={!canSeek}
                onClick={() => player.seekBy(skipSeconds)}
              >
                <SkipForwardTenIcon className="size-6" />
              </Button>
            </div>
          </div>

          <div className="contents min-w-0 flex-1 sm:block">
            <div className="col-start-2 row-start-1 flex min-w-0 items-baseline gap-2 text-sm">
              <p className="max-w-full shrink-0 truncate font-medium md:max-w-[50%]">{item.player.title}</p>
              {subtitle && (
                <p className="hidden min-w-0 flex-1 truncate text-fg-muted md:block">{subtitle}</p>
              )}
            </div>
            {state.error && (
              <p
                role="alert"
                className="col-span-3 flex min-w-0 items-center gap-1.5 text-xs text-danger sm:mt-1"
              >
                <AlertCircleIcon className="shrink-0" />
                <span className="truncate" title={state.error}>
                  {state.error}
                </span>
              </p>
            )}
            {!failed && (
              <div
                className={clsx(
                  'col-span-3 flex min-w-0 items-center gap-2 text-xs text-fg-muted tabular-nums',
                  state.error ? 'sm:mt-0.5' : 'sm:mt-1.5',
                )}
              >
                <span className="w-10 shrink-0 text-right">{formatPlaybackTime(time)}</span>
                <input
                  type="range"
                  aria-label="Seek"
                  aria-valuetext={`${formatPlaybackTime(time)} of ${duration?.estimated ? 'about ' : ''}${durationText}`}
                  min={0}
                  max={seekMax}
                  step="any"
                  value={Math.min(time, seekMax)}
                  disabled={!canSeek}
                  onChange={(event) => player.seekTo(Number(event.currentTarget.value))}
                  className="h-1.5 min-w-0 flex-1 cursor-pointer accent-accent disabled:cursor-default disabled:opacity-50"
                />
                <span className="w-12 shrink-0">
                  {duration?.estimated && (
                    <>
                      <span aria-hidden="true">~</span>
                      <span className="sr-only">about </span>
                    </>
                  )}
                  {durationText}
                </span>
              </div>
            )}
          </div>

          <div className="col-start-3 row-start-1 flex shrink-0 items-center gap-0.5 sm:gap-1">
            <SpeedMenu speed={state.playbackRate} onSpeedChange={player.setPlaybackRate} />
            {renderFeedback && state.feedbackVisible && renderFeedback(item)}
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Download ${item.fileName}`}
              aria-busy={downloading}
              aria-disabled={downloading}
              onClick={handleDownload}
            >
              {downloading ? <SpinnerIcon className="motion-safe:animate-spin" /> : <DownloadIcon />}
            </Button>
            <Button variant="ghost" size="icon" aria-label="Close player" onClick={player.stop}>
              <CloseIcon />
            </Button>
          </div>
        </div>
        <p className="sr-only" aria-live="polite">
          {state.status === 'loading' ? `Loading ${item.player.title}` : ''}
          {state.status === 'ended' ? `${item.player.title} finished` : ''}
        </p>
      </section>
    </>
  );
}

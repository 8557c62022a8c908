import { type Playback, usePlayer } from '../player';

/**
 * Plays previews in the bottom player: `toggle` loads a preview, or pauses and resumes the one already
 * there; `isPlaying(id)` says whether a preview is the one sounding (for its button's label).
 */
export function usePreviewPlayer() {
  const player = usePlayer();
  const { item, status } = player.state;
  const playingId = item && (status === 'playing' || status === 'loading') ? item.id : null;
  const toggle = (playback: Playback) => {
    const [next] = playback;
    if (item?.id === next.id && status !== 'idle') {
      if (status === 'playing' || status === 'loading') player.pause();
      else player.resume();
      return;
    }
    player.play(...playback);
  };
  return { toggle, isPlaying: (id: string) => playingId === id };
}

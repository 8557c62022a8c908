import { useEffect, useState } from 'react';
import { findWordAt, type ViewWord } from './stt-rules';

/**
 * The word being spoken while the transcript's audio is in the bottom player: read from the media
 * element on every animation frame while it plays (the state's time moves only 4 times a second), and
 * from the player's state while it is paused or sought. -1 when the audio is not this transcript's.
 */
export function useActiveWord(
  words: readonly ViewWord[],
  options: { loaded: boolean; playing: boolean; restingTime: number; readTime: () => number },
): number {
  const { loaded, playing, restingTime, readTime } = options;
  const [active, setActive] = useState(-1);
  useEffect(() => {
    if (!loaded) {
      setActive(-1);
      return;
    }
    if (!playing) {
      setActive(findWordAt(words, restingTime));
      return;
    }
    let frame = 0;
    const tick = () => {
      const next = findWordAt(words, readTime());
      // The same index again leaves the state alone: React then skips the render.
      setActive(next);
      frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [words, loaded, playing, restingTime, readTime]);
  return active;
}

import { useEffect, useState } from 'react';
import { timeReadoutIntervalMs } from '../player-rules';

/**
 * The time the readout shows: read from the media element every 25 ms while playing (history/voices §9),
 * and the state's time otherwise. Kept in the bar so only the bar re-renders that often.
 */
export function usePlaybackClock(readTime: () => number, running: boolean, restingTime: number): number {
  const [time, setTime] = useState(restingTime);
  useEffect(() => {
    if (!running) return;
    setTime(readTime());
    const timer = setInterval(() => setTime(readTime()), timeReadoutIntervalMs);
    return () => clearInterval(timer);
  }, [readTime, running]);
  return running ? time : restingTime;
}

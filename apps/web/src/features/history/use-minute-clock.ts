import { useEffect, useState } from 'react';

/** How often relative dates ("3 minutes ago") and the day headings are brought up to date. */
const clockTickMs = 60_000;

/** A clock for relative dates, moving once a minute. */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), clockTickMs);
    return () => clearInterval(timer);
  }, []);
  return now;
}

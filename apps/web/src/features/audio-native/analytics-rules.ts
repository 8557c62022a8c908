import type { AudioNativeAnalytics, AudioNativeDay } from '@parla/contracts';

type Totals = Omit<AudioNativeDay, 'date'>;

/**
 * The workspace's analytics across its players (`/app/audio-native/analytics`, accounts §2): per day,
 * the players' loads, plays, listeners and seconds listened added up. Listen-through is a mean over
 * listening sessions, so across players it is each player's mean weighted by its listeners (a listener is
 * a session that played); a day or total with no listener's listen-through stays null.
 */
export function combineAnalytics(all: readonly Pick<AudioNativeAnalytics, 'days' | 'totals'>[]): {
  days: AudioNativeDay[];
  totals: Totals;
} {
  const byDate = new Map<string, AudioNativeDay[]>();
  for (const analytics of all)
    for (const day of analytics.days) byDate.set(day.date, [...(byDate.get(day.date) ?? []), day]);
  const days = [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, list]) => ({ date, ...sum(list) }));
  return { days, totals: sum(all.map((a) => a.totals)) };
}

function sum(list: readonly Totals[]): Totals {
  let weighted = 0;
  let weight = 0;
  for (const item of list)
    if (item.listen_through !== null && item.listeners > 0) {
      weighted += item.listen_through * item.listeners;
      weight += item.listeners;
    }
  return {
    loads: list.reduce((n, d) => n + d.loads, 0),
    plays: list.reduce((n, d) => n + d.plays, 0),
    listeners: list.reduce((n, d) => n + d.listeners, 0),
    listened_secs: list.reduce((n, d) => n + d.listened_secs, 0),
    listen_through: weight > 0 ? weighted / weight : null,
  };
}

/** The periods the analytics pages offer, in days. */
export const ANALYTICS_PERIODS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number]['value'];

import { describe, expect, it } from 'vitest';
import { combineAnalytics } from './analytics-rules';

const day = (date: string, plays: number, listeners: number, listen_through: number | null) => ({
  date,
  loads: plays * 2,
  plays,
  listeners,
  listened_secs: plays * 10,
  listen_through,
});
const totals = ({ date: _date, ...rest }: ReturnType<typeof day>) => rest;

describe('combineAnalytics (every player of the workspace)', () => {
  it('adds the players up per day, in date order, with listen-through weighted by listeners', () => {
    const a = { days: [day('2026-11-02', 3, 3, 0.5)], totals: totals(day('', 3, 3, 0.5)) };
    const b = {
      days: [day('2026-11-01', 1, 1, null), day('2026-11-02', 1, 1, 1)],
      totals: totals(day('', 2, 2, 1)),
    };
    const combined = combineAnalytics([a, b]);
    expect(combined.days.map((d) => d.date)).toEqual(['2026-11-01', '2026-11-02']);
    expect(combined.days[0]).toEqual(day('2026-11-01', 1, 1, null));
    // (0.5 × 3 + 1 × 1) / 4 listeners.
    expect(combined.days[1]).toEqual({ ...day('2026-11-02', 4, 4, 0.625) });
    expect(combined.totals).toEqual({
      loads: 10,
      plays: 5,
      listeners: 5,
      listened_secs: 50,
      listen_through: (0.5 * 3 + 1 * 2) / 5,
    });
  });

  it('answers nothing for no player', () => {
    expect(combineAnalytics([])).toEqual({
      days: [],
      totals: { loads: 0, plays: 0, listeners: 0, listened_secs: 0, listen_through: null },
    });
  });
});

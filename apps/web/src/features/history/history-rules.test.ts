import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dayKey,
  getShareButtonState,
  groupHistoryByDay,
  historyPagePaths,
  historySourceFromPath,
  previousDayKey,
} from './history-rules';

const at = (iso: string) => ({ date_unix: Date.parse(iso) / 1000 });

describe('historySourceFromPath (history/voices §2)', () => {
  it('reads speech to speech from its path and text to speech otherwise', () => {
    expect(historySourceFromPath(historyPagePaths.TTS)).toBe('TTS');
    expect(historySourceFromPath(historyPagePaths.STS)).toBe('STS');
    expect(historySourceFromPath('/App/Speech-Synthesis/Speech-To-Speech/History/')).toBe('STS');
    expect(historySourceFromPath('/somewhere/else')).toBe('TTS');
  });
});

describe('day keys', () => {
  it('name the calendar day in the given zone', () => {
    const ms = Date.parse('2025-06-15T23:30:00Z');
    expect(dayKey(ms, 'UTC')).toBe('2025-06-15');
    expect(dayKey(ms, 'Europe/Berlin')).toBe('2025-06-16');
    expect(dayKey(ms, 'America/New_York')).toBe('2025-06-15');
  });

  it('step back one calendar day across months, years and leap days', () => {
    expect(previousDayKey('2025-06-15')).toBe('2025-06-14');
    expect(previousDayKey('2025-03-01')).toBe('2025-02-28');
    expect(previousDayKey('2024-03-01')).toBe('2024-02-29');
    expect(previousDayKey('2025-01-01')).toBe('2024-12-31');
  });

  it('the previous day of any day is the day 24 hours earlier in UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), (seconds) => {
        const ms = seconds * 1000;
        expect(previousDayKey(dayKey(ms, 'UTC'))).toBe(dayKey(ms - 86_400_000, 'UTC'));
      }),
    );
  });
});

describe('groupHistoryByDay', () => {
  const now = Date.parse('2025-06-15T12:00:00Z');
  const options = { now, timeZone: 'UTC', locale: 'en-US' };

  it('heads today "Today", the day before "Yesterday" and older days with their date, in item order', () => {
    const items = [
      at('2025-06-15T11:00:00Z'),
      at('2025-06-15T00:00:00Z'),
      at('2025-06-14T23:59:59Z'),
      at('2025-06-13T10:00:00Z'),
      at('2024-12-31T10:00:00Z'),
    ];
    const groups = groupHistoryByDay(items, options);
    expect(groups.map((g) => [g.heading, g.items.length])).toEqual([
      ['Today', 2],
      ['Yesterday', 1],
      ['Friday, June 13, 2025', 1],
      ['Tuesday, December 31, 2024', 1],
    ]);
    expect(groups.map((g) => g.key)).toEqual(['2025-06-15', '2025-06-14', '2025-06-13', '2024-12-31']);
  });

  it('counts days in the given time zone', () => {
    const groups = groupHistoryByDay([at('2025-06-14T23:30:00Z')], { ...options, timeZone: 'Europe/Berlin' });
    expect(groups[0]?.heading).toBe('Today');
  });

  it('keeps every item exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1_600_000_000, max: 1_800_000_000 })), (dates) => {
        const items = dates.map((date_unix) => ({ date_unix }));
        const groups = groupHistoryByDay(items, options);
        expect(groups.flatMap((g) => g.items)).toHaveLength(items.length);
        expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
      }),
    );
  });

  it('gives nothing for no items', () => {
    expect(groupHistoryByDay([], options)).toEqual([]);
  });
});

describe('getShareButtonState (history/voices §2 "Share controls", §6)', () => {
  it('opens the link dialog, or the video dialog when the flag is on', () => {
    expect(getShareButtonState({ hasItem: true, tier: 'creator', videoGeneration: false })).toEqual({
      visible: true,
      disabled: false,
      opens: 'link',
    });
    expect(getShareButtonState({ hasItem: true, tier: 'creator', videoGeneration: true })).toEqual({
      visible: true,
      disabled: false,
      opens: 'video',
    });
  });

  it('is disabled when no history item exists', () => {
    expect(getShareButtonState({ hasItem: false, tier: 'free', videoGeneration: false })).toMatchObject({
      visible: true,
      disabled: true,
    });
  });

  it('is hidden for enterprise-tier workspaces (enterprise and trial) unless the flag is on', () => {
    for (const tier of ['enterprise', 'trial'] as const) {
      expect(getShareButtonState({ hasItem: true, tier, videoGeneration: false })).toEqual({
        visible: false,
      });
      expect(getShareButtonState({ hasItem: true, tier, videoGeneration: true })).toMatchObject({
        visible: true,
        opens: 'video',
      });
    }
  });

  it('hides while the user (tier and flag) is not known yet, so it never opens the wrong dialog', () => {
    expect(getShareButtonState({ hasItem: true, tier: undefined, videoGeneration: false })).toEqual({
      visible: false,
    });
  });
});

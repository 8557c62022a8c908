import { type HistorySource, isEnterpriseTier, type SubscriptionTier } from '@parla/contracts';

/** The two speech history pages (history/voices §2: text to speech and speech to speech each have one). */
export const historyPagePaths: Record<HistorySource, string> = {
  TTS: '/app/speech-synthesis/text-to-speech/history',
  STS: '/app/speech-synthesis/speech-to-speech/history',
};

/** Which history a page path shows: speech to speech under its own path, text to speech otherwise. */
export function historySourceFromPath(pathname: string): HistorySource {
  return pathname.toLowerCase().startsWith('/app/speech-synthesis/speech-to-speech') ? 'STS' : 'TTS';
}

/** A calendar day, `YYYY-MM-DD`, of a moment in a time zone (the browser's when left out). */
export function dayKey(ms: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone,
  }).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day before a `YYYY-MM-DD` day (calendar arithmetic, so daylight-saving changes do not matter). */
export function previousDayKey(key: string): string {
  const [year = 0, month = 1, day = 1] = key.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10);
}

export interface DayGroupOptions {
  /** The moment "today" is counted from; now when left out. Tests pass a fixed one. */
  now?: number;
  locale?: string;
  /** IANA zone; the browser's zone when left out. */
  timeZone?: string;
}

export interface HistoryDayGroup<Item> {
  /** The day, `YYYY-MM-DD`: a stable React key. */
  key: string;
  /** "Today", "Yesterday", or the date, e.g. "Friday, June 13, 2025". */
  heading: string;
  items: Item[];
}

/**
 * Groups history items by the calendar day they were made on, in the order the items come (newest first
 * from the server): "Today", "Yesterday", then a date heading per older day.
 */
export function groupHistoryByDay<Item extends { date_unix: number }>(
  items: readonly Item[],
  { now = Date.now(), locale = 'en-US', timeZone }: DayGroupOptions = {},
): HistoryDayGroup<Item>[] {
  const today = dayKey(now, timeZone);
  const yesterday = previousDayKey(today);
  const headingFormat = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone,
  });
  const groups = new Map<string, HistoryDayGroup<Item>>();
  for (const item of items) {
    const ms = item.date_unix * 1000;
    const key = dayKey(ms, timeZone);
    let group = groups.get(key);
    if (!group) {
      const heading = key === today ? 'Today' : key === yesterday ? 'Yesterday' : headingFormat.format(ms);
      group = { key, heading, items: [] };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}

/** What the Share button of a history item does (history/voices §2 "Share controls", §6). */
export type ShareButtonState =
  | { visible: false }
  | { visible: true; disabled: boolean; opens: 'video' | 'link' };

/**
 * history/voices §2, §6: hidden for enterprise-tier workspaces (enterprise and trial, accounts §4) unless
 * the tts-video-generation flag is on; disabled when there is no history item; with the flag on it opens
 * the video dialog, otherwise the link dialog. Until the user document has loaded (`tier` undefined) the
 * rule cannot be known: the button is hidden, so an enterprise workspace never sees it flash.
 */
export function getShareButtonState({
  hasItem,
  tier,
  videoGeneration,
}: {
  hasItem: boolean;
  tier: SubscriptionTier | undefined;
  videoGeneration: boolean;
}): ShareButtonState {
  if (tier === undefined) return { visible: false };
  if (isEnterpriseTier(tier) && !videoGeneration) return { visible: false };
  return { visible: true, disabled: !hasItem, opens: videoGeneration ? 'video' : 'link' };
}

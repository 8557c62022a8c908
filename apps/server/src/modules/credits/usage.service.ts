import type { Db } from '../../platform/db/client';
import { invalid } from '../../platform/errors';
import { listLedgerUsage } from './credits.store';

export type AggregationInterval = 'hour' | 'day' | 'week' | 'month' | 'cumulative';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Buckets per answer at most: a year of days, a month of hours. */
const MAX_BUCKETS = 1000;

/** The start (ms) of the bucket holding `at`: UTC hours, days, ISO weeks (Monday) and months. */
export function bucketStart(at: number, interval: Exclude<AggregationInterval, 'cumulative'>): number {
  if (interval === 'hour') return Math.floor(at / HOUR) * HOUR;
  const day = Math.floor(at / DAY) * DAY;
  if (interval === 'day') return day;
  if (interval === 'week') return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextBucket(start: number, interval: Exclude<AggregationInterval, 'cumulative'>): number {
  if (interval === 'hour') return start + HOUR;
  if (interval === 'day') return start + DAY;
  if (interval === 'week') return start + 7 * DAY;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * Credits used between `start_unix` and `end_unix` (milliseconds, as the public API's usage call takes
 * them), per bucket and per model, voice or in all: charges less their refunds, from the credit ledger.
 */
export async function characterStats(
  db: Db,
  workspaceId: string,
  query: {
    start_unix: number;
    end_unix: number;
    breakdown_type: 'none' | 'voice' | 'model';
    aggregation_interval: AggregationInterval;
  },
): Promise<{ time: number[]; usage: Record<string, number[]> }> {
  const { start_unix: start, end_unix: end, aggregation_interval: interval } = query;
  if (end <= start) throw invalid('end_unix', 'end_unix must be after start_unix.', 'query');
  const times: number[] = [];
  if (interval === 'cumulative') times.push(start);
  else {
    for (let t = bucketStart(start, interval); t < end; t = nextBucket(t, interval)) {
      times.push(t);
      if (times.length > MAX_BUCKETS) {
        throw invalid(
          'aggregation_interval',
          `The window holds more than ${MAX_BUCKETS} ${interval}s; pick a longer interval.`,
          'query',
        );
      }
    }
  }
  const rows = await listLedgerUsage(db, workspaceId, new Date(start), new Date(end));
  const usage: Record<string, number[]> = {};
  for (const row of rows) {
    const key =
      query.breakdown_type === 'model'
        ? (row.modelId ?? 'unknown')
        : query.breakdown_type === 'voice'
          ? (row.voiceId ?? 'unknown')
          : 'All';
    const at = row.createdAt.getTime();
    const index = interval === 'cumulative' ? 0 : times.indexOf(bucketStart(at, interval));
    if (index < 0) continue;
    const series = usage[key] ?? times.map(() => 0);
    usage[key] = series;
    series[index] = (series[index] ?? 0) + (row.kind === 'refund' ? -row.amount : row.amount);
  }
  if (Object.keys(usage).length === 0 && query.breakdown_type === 'none') usage.All = times.map(() => 0);
  return { time: times, usage };
}

import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from './rate-limit.tables';

/** One in this many hits also deletes windows that ended long ago, so the table stays small. */
const SWEEP_ONE_IN = 500;

/**
 * Counts one hit for `key` in a fixed window of `windowMs` and returns the count so far and the ms left
 * in the window. One atomic upsert on the database clock, so all processes agree.
 */
export async function countHit(
  db: Db,
  key: string,
  windowMs: number,
): Promise<{ current: number; ttl: number }> {
  const expired = sql`${rateLimits.windowStartedAt} + make_interval(secs => ${windowMs / 1000}) <= now()`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStartedAt: sql`now()`, windowMs })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else ${rateLimits.windowStartedAt} end`,
        windowMs,
      },
    })
    .returning({
      current: rateLimits.count,
      ttl: sql<number>`greatest(0, ceil(extract(epoch from (${rateLimits.windowStartedAt} + make_interval(secs => ${windowMs / 1000}) - now())) * 1000))::int`,
    });
  if (Math.random() * SWEEP_ONE_IN < 1) {
    await db
      .delete(rateLimits)
      .where(
        sql`${rateLimits.windowStartedAt} + ${rateLimits.windowMs} * interval '1 millisecond' < now() - interval '1 hour'`,
      );
  }
  return { current: row?.current ?? 1, ttl: Number(row?.ttl ?? windowMs) };
}

/**
 * A store for @fastify/rate-limit backed by the database. Each route gets its own key space (`child`), so
 * a limit on sign-in does not count requests to sign-up.
 */
export function createPgRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class PgRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'global',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      countHit(db, `${this.prefix}:${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    /** The plugin passes the route as `routeInfo` (method and url) in the merged options. */
    child(options: object): FastifyRateLimitStore {
      const route = (options as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new PgRateLimitStore(
        undefined,
        route?.url ? `${String(route.method)} ${String(route.url)}` : 'global',
      );
    }
  }
  return PgRateLimitStore;
}

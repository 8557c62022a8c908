import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import {
  type AudioNativeProjectRow,
  audioNativePageLoads,
  audioNativeProjects,
  audioNativeSessions,
} from './audio-native.tables';

export async function insertAudioNative(db: Db, row: typeof audioNativeProjects.$inferInsert) {
  const [inserted] = await db.insert(audioNativeProjects).values(row).returning();
  return inserted as AudioNativeProjectRow;
}

/** A project of the workspace (undefined: none, or another workspace's). */
export async function findAudioNative(
  db: Db,
  workspaceId: string,
  projectId: string,
): Promise<AudioNativeProjectRow | undefined> {
  const [row] = await db
    .select()
    .from(audioNativeProjects)
    .where(
      and(eq(audioNativeProjects.projectId, projectId), eq(audioNativeProjects.workspaceId, workspaceId)),
    );
  return row;
}

/** A project by id alone (the public player routes, which carry no key). */
export async function findAudioNativeById(
  db: Db,
  projectId: string,
): Promise<AudioNativeProjectRow | undefined> {
  const [row] = await db
    .select()
    .from(audioNativeProjects)
    .where(eq(audioNativeProjects.projectId, projectId));
  return row;
}

export async function findAudioNativeByPage(
  db: Db,
  workspaceId: string,
  pageUrl: string,
): Promise<AudioNativeProjectRow | undefined> {
  const [row] = await db
    .select()
    .from(audioNativeProjects)
    .where(and(eq(audioNativeProjects.workspaceId, workspaceId), eq(audioNativeProjects.pageUrl, pageUrl)))
    .orderBy(audioNativeProjects.createdAt)
    .limit(1);
  return row;
}

export function listAudioNatives(db: Db, workspaceId: string): Promise<AudioNativeProjectRow[]> {
  return db
    .select()
    .from(audioNativeProjects)
    .where(eq(audioNativeProjects.workspaceId, workspaceId))
    .orderBy(sql`${audioNativeProjects.createdAt} desc`);
}

export async function updateAudioNative(
  db: Db,
  projectId: string,
  values: Partial<typeof audioNativeProjects.$inferInsert>,
): Promise<AudioNativeProjectRow | undefined> {
  const [row] = await db
    .update(audioNativeProjects)
    .set(values)
    .where(eq(audioNativeProjects.projectId, projectId))
    .returning();
  return row;
}

/** Counts one load of the player on a page (the day's row made on its first). */
export async function recordPageLoad(db: Db, projectId: string, day: string, pageUrl: string): Promise<void> {
  await db
    .insert(audioNativePageLoads)
    .values({ projectId, day, pageUrl, loads: 1 })
    .onConflictDoUpdate({
      target: [audioNativePageLoads.projectId, audioNativePageLoads.pageUrl, audioNativePageLoads.day],
      set: { loads: sql`${audioNativePageLoads.loads} + 1` },
    });
}

/** The page most loads came from since `fromDay` (a tie: the one loaded most recently, then by address). */
export async function mostLoadedPage(db: Db, projectId: string, fromDay: string): Promise<string | null> {
  const loads = sql<number>`sum(${audioNativePageLoads.loads})`;
  const last = sql<string>`max(${audioNativePageLoads.day})`;
  const [row] = await db
    .select({ pageUrl: audioNativePageLoads.pageUrl })
    .from(audioNativePageLoads)
    .where(and(eq(audioNativePageLoads.projectId, projectId), gte(audioNativePageLoads.day, fromDay)))
    .groupBy(audioNativePageLoads.pageUrl)
    .orderBy(desc(loads), desc(last), audioNativePageLoads.pageUrl)
    .limit(1);
  return row?.pageUrl ?? null;
}

/** Sets the page players reported, unless the owner has set one. */
export async function setReportedPage(db: Db, projectId: string, pageUrl: string | null): Promise<void> {
  await db
    .update(audioNativeProjects)
    .set({ pageUrl })
    .where(and(eq(audioNativeProjects.projectId, projectId), eq(audioNativeProjects.pagePinned, false)));
}

/** Deletes sessions and page loads of days before the given ones (the retention job). */
export async function deleteAnalyticsBefore(
  db: Db,
  sessionsBefore: string,
  pagesBefore: string,
): Promise<void> {
  await db.delete(audioNativeSessions).where(lt(audioNativeSessions.day, sessionsBefore));
  await db.delete(audioNativePageLoads).where(lt(audioNativePageLoads.day, pagesBefore));
}

/** Adds one beacon to its session's row of the day (made on the session's first beacon). */
export async function recordBeacon(
  db: Db,
  row: {
    projectId: string;
    day: string;
    sessionId: string;
    loads: number;
    plays: number;
    listenedSecs: number;
    origin: string | null;
  },
): Promise<void> {
  await db
    .insert(audioNativeSessions)
    .values(row)
    .onConflictDoUpdate({
      target: [audioNativeSessions.projectId, audioNativeSessions.day, audioNativeSessions.sessionId],
      set: {
        loads: sql`${audioNativeSessions.loads} + ${row.loads}`,
        plays: sql`${audioNativeSessions.plays} + ${row.plays}`,
        listenedSecs: sql`${audioNativeSessions.listenedSecs} + ${row.listenedSecs}`,
      },
    });
}

/** Per day since `fromDay`: loads, plays, sessions that played, seconds listened, listen-through. */
export async function dailyAnalytics(
  db: Db,
  projectId: string,
  fromDay: string,
  durationSecs: number | null,
) {
  const duration = durationSecs && durationSecs > 0 ? durationSecs : null;
  const rows = await db
    .select({
      day: audioNativeSessions.day,
      loads: sql<number>`coalesce(sum(${audioNativeSessions.loads}), 0)::int`,
      plays: sql<number>`coalesce(sum(${audioNativeSessions.plays}), 0)::int`,
      listeners: sql<number>`(count(*) filter (where ${audioNativeSessions.plays} > 0))::int`,
      listenedSecs: sql<number>`coalesce(sum(${audioNativeSessions.listenedSecs}), 0)::float8`,
      listenThrough: duration
        ? sql<
            number | null
          >`(avg(least(1.0, ${audioNativeSessions.listenedSecs} / ${duration}::float8)) filter (where ${audioNativeSessions.plays} > 0))::float8`
        : sql<null>`null`,
    })
    .from(audioNativeSessions)
    .where(and(eq(audioNativeSessions.projectId, projectId), gte(audioNativeSessions.day, fromDay)))
    .groupBy(audioNativeSessions.day)
    .orderBy(audioNativeSessions.day);
  return rows;
}

/** The same over the whole period (listeners and listen-through are not sums of the days'). */
export async function totalAnalytics(
  db: Db,
  projectId: string,
  fromDay: string,
  durationSecs: number | null,
) {
  const duration = durationSecs && durationSecs > 0 ? durationSecs : null;
  const [row] = await db
    .select({
      loads: sql<number>`coalesce(sum(${audioNativeSessions.loads}), 0)::int`,
      plays: sql<number>`coalesce(sum(${audioNativeSessions.plays}), 0)::int`,
      listeners: sql<number>`(count(*) filter (where ${audioNativeSessions.plays} > 0))::int`,
      listenedSecs: sql<number>`coalesce(sum(${audioNativeSessions.listenedSecs}), 0)::float8`,
      listenThrough: duration
        ? sql<
            number | null
          >`(avg(least(1.0, ${audioNativeSessions.listenedSecs} / ${duration}::float8)) filter (where ${audioNativeSessions.plays} > 0))::float8`
        : sql<null>`null`,
    })
    .from(audioNativeSessions)
    .where(and(eq(audioNativeSessions.projectId, projectId), gte(audioNativeSessions.day, fromDay)));
  return row ?? { loads: 0, plays: 0, listeners: 0, listenedSecs: 0, listenThrough: null };
}

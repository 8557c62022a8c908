import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type AudioNativeProjectRow, audioNativeProjects, audioNativeSessions } from './audio-native.tables';

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

/** Sets the page a project is embedded on, the first time a player reports one. */
export async function setPageIfUnset(db: Db, projectId: string, pageUrl: string): Promise<void> {
  await db
    .update(audioNativeProjects)
    .set({ pageUrl })
    .where(and(eq(audioNativeProjects.projectId, projectId), sql`${audioNativeProjects.pageUrl} is null`));
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

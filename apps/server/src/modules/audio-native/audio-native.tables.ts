import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { studioProjects } from '../studio/studio.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * An Audio Native project's player (issue 30 item 4): the Studio project of the same id holds the content,
 * its conversions and snapshots; this row the player's settings, the embed's allowed origins and what is
 * published. Deleting the Studio project deletes it.
 */
export const audioNativeProjects = pgTable(
  'audio_native_projects',
  {
    projectId: text('project_id')
      .primaryKey()
      .references(() => studioProjects.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    author: text('author').notNull().default(''),
    image: text('image').notNull().default(''),
    small: boolean('small').notNull().default(false),
    textColor: text('text_color').notNull(),
    backgroundColor: text('background_color').notNull(),
    /** Minutes after which a listener's next visit is a new session. */
    sessionizationMinutes: integer('sessionization_minutes').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Origins whose pages may embed the player; empty: any origin (EL's default). */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    /**
     * The page the player is embedded on (`POST …/content` finds it): the owner's when `pagePinned`, else
     * the page most of the player's loads came from in the last 30 days (decision 25 "Audio Native").
     */
    pageUrl: text('page_url'),
    /** The owner set `pageUrl` (the settings page): players' reports no longer change it. */
    pagePinned: boolean('page_pinned').notNull().default(false),
    /** True: each new snapshot is published as it is made; false: `publishedSnapshotId` stays. */
    autoPublish: boolean('auto_publish').notNull().default(true),
    publishedSnapshotId: text('published_snapshot_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('audio_native_projects_workspace_idx').on(t.workspaceId)],
);
export type AudioNativeProjectRow = typeof audioNativeProjects.$inferSelect;

/**
 * The player's analytics, one row per listening session per day (no cookie: the session id is a random
 * value the player keeps for one sessionization window). A day's loads, plays, listeners (sessions that
 * played) and listened seconds are sums over its rows.
 */
export const audioNativeSessions = pgTable(
  'audio_native_sessions',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => audioNativeProjects.projectId, { onDelete: 'cascade' }),
    /** UTC day, YYYY-MM-DD. */
    day: text('day').notNull(),
    sessionId: text('session_id').notNull(),
    loads: integer('loads').notNull().default(0),
    plays: integer('plays').notNull().default(0),
    listenedSecs: real('listened_secs').notNull().default(0),
    /** The origin the beacons came from (the settings page suggests it for the allowlist). */
    origin: text('origin'),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.day, t.sessionId] }),
    // The retention job deletes by day across projects.
    index('audio_native_sessions_day_idx').on(t.day),
  ],
);

/**
 * The pages the player reported loading on, per UTC day (a `load` beacon's page, on the beacon's own
 * Origin and not Parla's): the project's page is the one with the most loads over the last
 * `AUDIO_NATIVE_PAGE_WINDOW_DAYS`. Older rows are deleted by the retention job.
 */
export const audioNativePageLoads = pgTable(
  'audio_native_page_loads',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => audioNativeProjects.projectId, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    pageUrl: text('page_url').notNull(),
    loads: integer('loads').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.pageUrl, t.day] })],
);

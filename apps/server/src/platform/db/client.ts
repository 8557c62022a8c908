import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Config } from '../../config';
import { lockDataDir } from './data-dir-lock';

/**
 * The database both drivers share, typed by each query's tables (the modules' `*.tables.ts`; no relational
 * schema object: the app never uses `db.query`). On PGlite a transaction holds the only connection: inside
 * `db.transaction(async (tx) => …)` use `tx` for every query, never `db` (it would wait forever).
 */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs the committed SQL migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  /** The server's `version()` string. */
  version(): Promise<string>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The folder of committed migrations (`apps/server/drizzle`), found from this file or the bundle. */
export function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'drizzle');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('Could not find the drizzle migrations folder next to the server');
}

const MIGRATION_LOCK = 727_310_001;

/** Opens the database the config names: PGlite under DATA_DIR, or PostgreSQL at DATABASE_URL. */
export async function openDatabase(database: Config['database']): Promise<Database> {
  return database.kind === 'pglite'
    ? openPglite(database.dir)
    : openPostgres(database.url, database.poolSize);
}

async function openPglite(dir: string): Promise<Database> {
  const unlock = lockDataDir(dir);
  try {
    const client = new PGlite(dir);
    await client.waitReady;
    const database = fromPglite(client);
    return {
      ...database,
      close: async () => {
        await database.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Wraps an open PGlite (tests pass an in-memory one loaded from a snapshot). */
export function fromPglite(client: PGlite): Database {
  const db: Db = drizzlePglite({ client });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client }), { migrationsFolder: findMigrationsDir() }),
    version: async () => (await client.query<{ version: string }>('select version()')).rows[0]?.version ?? '',
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that errors (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db: Db = drizzlePg({ client: pool });
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // One process migrates at a time; the others wait and then find nothing to do.
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg({ client }), { migrationsFolder: findMigrationsDir() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        await client.end();
      }
    },
    version: async () => (await pool.query<{ version: string }>('select version()')).rows[0]?.version ?? '',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config';
import { seedModules } from '../modules';
import { fromPglite, openDatabase } from '../platform/db/client';

/** The seeding's log line is not wanted in the test output. */
const logger = pino({ level: 'silent' });

declare module 'vitest' {
  export interface ProvidedContext {
    /** A gzip dump of a migrated PGlite database, loaded in memory by each test file (PGlite leg). */
    pgliteSnapshot: string;
    /** The PostgreSQL URL under test (PostgreSQL leg), or '' on PGlite. */
    databaseUrl: string;
    /** The engine child entry bundled once for the run (test/child-bundle.setup.ts). */
    engineChildBundle: string;
    /**
     * The folder of that bundle, which on the integration leg also holds the server (`main.js`) and the
     * admin command (`admin.js`) bundled once for the run (test/processes.ts); '' on the stress leg.
     */
    serverBundleDir: string;
  }
}

/**
 * Prepares the database once per run. On PGlite it migrates an in-memory database and saves a snapshot
 * that every test file loads (a second instead of initdb each time); with DATABASE_URL it migrates the
 * server and prints its version, so the log shows which PostgreSQL the suite ran on.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Inside the server's folder, so the bundle's imports resolve from its node_modules as a build's do.
  const root = path.resolve(import.meta.dirname, '../../../..');
  fs.mkdirSync(path.join(root, 'apps/server/.tmp'), { recursive: true });
  const bundleDir = fs.mkdtempSync(path.join(root, 'apps/server/.tmp/engine-child-'));
  // The integration leg also runs the server and the admin command as processes of their own (main.int,
  // the crash tests, admin.int…): bundled here once, each start is node on one file (about 2 s) instead of
  // tsx compiling the server's hundreds of files, and then its engine children's, in every process.
  const withServer = project.name === 'integration';
  execFileSync(
    process.execPath,
    [
      path.join(root, 'scripts/build-server.mjs'),
      withServer ? '--test-bundle' : '--engine-child-only',
      bundleDir,
    ],
    {
      stdio: 'inherit',
    },
  );
  project.provide('engineChildBundle', path.join(bundleDir, 'engine-child.js'));
  project.provide('serverBundleDir', withServer ? bundleDir : '');
  const removeBundle = () => fs.rmSync(bundleDir, { recursive: true, force: true });
  const { database: target } = loadConfig(undefined, []);
  if (target.kind === 'postgres') {
    const databaseUrl = target.url;
    const database = await openDatabase({ ...target, poolSize: 2 });
    await database.migrate();
    // A fresh install: migrated, with the library's built-in voices, as main.ts starts.
    await seedModules({ db: database.db, logger });
    console.log(`[integration] database: ${await database.version()}`);
    await database.close();
    project.provide('databaseUrl', databaseUrl);
    project.provide('pgliteSnapshot', '');
    return async () => removeBundle();
  }
  const client = new PGlite();
  const database = fromPglite(client);
  await database.migrate();
  await seedModules({ db: database.db, logger });
  console.log(`[integration] database: PGlite, ${await database.version()}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-pglite-'));
  const file = path.join(dir, 'snapshot.tar.gz');
  const dump = await client.dumpDataDir('gzip');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('databaseUrl', '');
  project.provide('pgliteSnapshot', file);
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    removeBundle();
  };
}

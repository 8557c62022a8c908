import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config';
import { getUserDocument } from '../modules/account/account.service';
import { resolveApiKey } from '../modules/api-keys/api-keys.service';
import { openDatabase } from '../platform/db/client';
import { newId } from '../platform/ids';
import { seedEmbeddedDatabase, spawnTsNode } from '../test/processes';

const databaseEnv = (): Record<string, string> => {
  const url = inject('databaseUrl');
  return url ? { DATABASE_URL: url } : {};
};
const entry = fileURLToPath(new URL('../admin.ts', import.meta.url));

/** The real command line in its own process, on the database under test (a fresh PGlite folder, or PostgreSQL). */
async function runAdmin(dataDir: string, ...args: string[]) {
  return runAdminWithInput(dataDir, undefined, ...args);
}

async function runAdminWithInput(dataDir: string, stdin: string | undefined, ...args: string[]) {
  const env = { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...databaseEnv() };
  const run = spawnTsNode(entry, args, env, stdin);
  const code = await run.exited;
  return { code, output: run.output() };
}

describe('npm run admin', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-admin-'));
    await seedEmbeddedDatabase(dataDir);
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates a verified user with a workspace on a tier and an API key, then changes the tier', async () => {
    const email = `admin-${newId(8).toLowerCase()}@example.test`;
    const created = await runAdmin(
      dataDir,
      'create-user',
      '--email',
      email,
      '--password',
      'admin-pass-1',
      '--tier',
      'pro',
      '--api-key',
    );
    expect(created.output).toContain(`Created ${email}`);
    expect(created.code).toBe(0);
    const key = created.output.match(/API key \(shown once, keep it safe\): (sk_[0-9a-f]{48})/)?.[1];
    expect(key).toBeDefined();

    // The password from standard input passes the rules, and the taken email is refused.
    const again = await runAdminWithInput(
      dataDir,
      'admin-pass-1\n',
      'create-user',
      '--email',
      email,
      '--password',
      '-',
    );
    expect(again.code).toBe(1);
    expect(again.output).toContain('already exists');

    const tier = await runAdmin(dataDir, 'set-tier', '--email', email, '--tier', 'growing_business');
    expect(tier.code).toBe(0);
    const timeout = await runAdmin(dataDir, 'set-inactivity-timeout', '--email', email, '--seconds', '900');
    expect(timeout.code).toBe(0);

    // Read back through the services, from the database the command line wrote to.
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...databaseEnv() }, []);
    const database = await openDatabase(config.database);
    try {
      const row = await resolveApiKey(database.db, key ?? '', new Date());
      expect(row).toBeDefined();
      const user = await getUserDocument(database.db, {
        userId: row?.userId ?? '',
        workspaceId: row?.workspaceId ?? '',
      });
      expect(user).toMatchObject({
        email,
        email_verified: true,
        subscription: { tier: 'growing_business' },
        session_inactivity_timeout: 900,
      });
    } finally {
      await database.close();
    }
  }, 60_000);

  it('prints the usage and exits 2 on a mistake', async () => {
    const bad = await runAdmin(dataDir, 'set-tier', '--email', 'a@b.test', '--tier', 'gold');
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('--tier must be one of');
    expect(bad.output).toContain('Usage: npm run admin');
  }, 30_000);
});

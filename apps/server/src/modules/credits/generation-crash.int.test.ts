import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWav } from '@parla/audio';
import { PREMADE_VOICES } from '@parla/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../platform/db/client';
import { freePort, seedEmbeddedDatabase, spawnServer, spawnTsNode, waitHealthy } from '../../test/processes';
import { fliteSpeech, TEN_SECONDS_OF_TEXT } from '../../test/test-signals';
import { concurrencySlots, creditLedger } from './credits.tables';

/*
 * Credits survive crashes (issue 16): the server is killed with SIGKILL while a non-streamed text to
 * speech, a dialogue and a speech to speech are running, each charged to its own workspace. After a
 * restart the credits are back as they were (a refund in the ledger for each charge) and the
 * concurrency slots are free within the lease — at start on PGlite, once the 2 s lease ran out on
 * PostgreSQL — on the real server process, on both databases.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const admin = path.join(here, '..', '..', 'admin.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

function serverEnv(port: number): NodeJS.ProcessEnv {
  const url = inject('databaseUrl');
  return {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    PORT: String(port),
    GENERATION_LEASE_SECONDS: '2',
    ENGINE_POOL_SIZE: '2',
    DATA_DIR: path.join(tmp, 'data'),
    ...(url ? { DATABASE_URL: url } : {}),
  };
}

/** An account on the Creator plan with an API key, made with the admin command (before the server runs). */
async function createAccount(env: NodeJS.ProcessEnv, name: string): Promise<string> {
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@crash.test`;
  const run = spawnTsNode(
    admin,
    ['create-user', '--email', email, '--password', 'a-Strong-pass-1', '--tier', 'creator', '--api-key'],
    env,
  );
  children.push(run.child);
  expect(await run.exited, run.output()).toBe(0);
  const key = /API key \(shown once, keep it safe\): (sk_\w+)/.exec(run.output())?.[1];
  if (!key) throw new Error(run.output());
  return key;
}

async function workspaceOf(base: string, key: string): Promise<string> {
  const res = await fetch(`${base}/v1/user`, { headers: { 'xi-api-key': key } });
  return ((await res.json()) as { workspace_id: string }).workspace_id;
}

async function creditsUsed(base: string, key: string): Promise<number> {
  const res = await fetch(`${base}/v1/user/subscription`, { headers: { 'xi-api-key': key } });
  return ((await res.json()) as { character_count: number }).character_count;
}

const voice = (name: string) => PREMADE_VOICES.find((v) => v.name === name)?.voice_id as string;
const words = 'The committee will review every proposal and publish its findings next spring. ';

describe('a crash during a generation', () => {
  it('refunds the credits and frees the slots of text to speech, dialogue and speech to speech', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = serverEnv(port);
    await seedEmbeddedDatabase(path.join(tmp, 'data'));
    const [ttsKey, dialogueKey, stsKey] = [
      await createAccount(env, 'tts'),
      await createAccount(env, 'dialogue'),
      await createAccount(env, 'sts'),
    ] as [string, string, string];
    const recording = encodeWav(await fliteSpeech('awb', TEN_SECONDS_OF_TEXT.repeat(6)));

    let server = spawnServer(env, children);
    await waitHealthy(base, server);
    const workspaceIds = await Promise.all(
      [ttsKey, dialogueKey, stsKey].map((key) => workspaceOf(base, key)),
    );
    const post = (url: string, key: string, body: string | FormData, json = true) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'xi-api-key': key, ...(json ? { 'content-type': 'application/json' } : {}) },
        body,
      }).catch(() => undefined);
    const form = new FormData();
    form.append('audio', new Blob([recording], { type: 'audio/wav' }), 'talk.wav');
    // Long enough that none finishes before the kill: ~5,000 characters, three lines of ~950, 60 s of audio.
    const running = [
      post(`/v1/text-to-speech/${voice('Sarah')}`, ttsKey, JSON.stringify({ text: words.repeat(60) })),
      post(
        '/v1/text-to-dialogue',
        dialogueKey,
        JSON.stringify({
          inputs: [voice('Sarah'), voice('Kevin'), voice('Sarah')].map((v) => ({
            text: words.repeat(12),
            voice_id: v,
          })),
        }),
      ),
      post(`/v1/speech-to-speech/${voice('Kevin')}`, stsKey, form, false),
    ];
    // Every one charged (its credits reserved, its slot taken), none finished: then the kill.
    const finished: string[] = [];
    running.forEach((answer, i) => {
      void answer.then(async (res) => finished.push(`${i}: ${res?.status} ${await res?.text()}`));
    });
    for (const key of [ttsKey, dialogueKey, stsKey]) {
      await expect
        .poll(() => creditsUsed(base, key), { timeout: 30_000, interval: 50, message: finished.join('\n') })
        .toBeGreaterThan(0);
    }
    expect(finished).toEqual([]);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull();
    const answers = await Promise.all(running);
    expect(answers.every((res) => res === undefined || res.status >= 500)).toBe(true);

    server = spawnServer(env, children);
    await waitHealthy(base, server);
    // Refunded at start (PGlite), or once the 2 s lease ran out (PostgreSQL).
    for (const key of [ttsKey, dialogueKey, stsKey])
      await expect.poll(() => creditsUsed(base, key), { timeout: 15_000, interval: 200 }).toBe(0);
    // The slots are free: two requests at once (the plan allows 5) both succeed.
    const both = await Promise.all(
      [1, 2].map(() =>
        post(`/v1/text-to-speech/${voice('Kevin')}`, ttsKey, JSON.stringify({ text: 'Back.' })),
      ),
    );
    expect(both.map((res) => res?.status)).toEqual([200, 200]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // The ledger shows each refund, tied to its charge; no slot is left.
    const url = inject('databaseUrl');
    const database = await openDatabase(
      url ? { kind: 'postgres', url, poolSize: 1 } : { kind: 'pglite', dir: path.join(tmp, 'data', 'db') },
    );
    try {
      const db = database.db;
      const charges = await db
        .select()
        .from(creditLedger)
        .where(and(eq(creditLedger.kind, 'charge'), inArray(creditLedger.workspaceId, workspaceIds)));
      const crashed = charges.filter((c) => c.amount > 'Back.'.length);
      expect(crashed).toHaveLength(3);
      for (const charge of crashed) {
        const refunds = await db
          .select()
          .from(creditLedger)
          .where(and(eq(creditLedger.chargeId, charge.id), eq(creditLedger.kind, 'refund')));
        expect(refunds.map((r) => r.amount)).toEqual([charge.amount]);
        const slots = await db
          .select()
          .from(concurrencySlots)
          .where(eq(concurrencySlots.workspaceId, charge.workspaceId));
        expect(slots).toEqual([]);
      }
    } finally {
      await database.close();
    }
  }, 240_000);
});

// @postgres-leg skip: a dub on the real engines killed mid-way; the job recovery itself is tested on both databases (job-recovery.int).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWav } from '@parla/audio';
import { dubbingCredits } from '@parla/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { modelsUnavailable, skipWithout } from '../../test/needs-models';
import { freePort, seedEmbeddedDatabase, spawnServer, spawnTsNode, waitHealthy } from '../../test/processes';
import { fliteSpeech, joinWithPauses } from '../../test/test-signals';

/*
 * Issue 29: "a dub killed mid-way (kill -9) resumes after restart and finishes once". The real server is
 * killed with SIGKILL while the dub speaks its segments; after a restart the job is claimed again once its
 * lease runs out, resumes at the segments not spoken yet, and the dub is dubbed once: one output, its
 * credits charged once (the killed run's reservation refunded by the lease sweep).
 */

const noModel = modelsUnavailable('moonshine-tiny', 'silero-vad', 'kokoro-82m');
const here = path.dirname(fileURLToPath(import.meta.url));
const admin = path.join(here, '..', '..', 'admin.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'parla-dub-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

const LINES = [
  'The weather is nice today and the children are playing in the park.',
  'Please bring the blue folder to the meeting on Tuesday.',
  'The train leaves the station at nine in the morning.',
  'Thank you very much, I will see you tomorrow.',
];

function serverEnv(port: number): NodeJS.ProcessEnv {
  return {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    PORT: String(port),
    GENERATION_LEASE_SECONDS: '2',
    JOB_LEASE_SECONDS: '3',
    JOB_POLL_INTERVAL_MS: '200',
    ENGINE_POOL_SIZE: '2',
    DATA_DIR: path.join(tmp, 'data'),
  };
}

describe('a dub killed mid-way', () => {
  it('resumes after a restart and finishes once, charged once', async (context) => {
    skipWithout(context, noModel);
    const port = await freePort();
    const env = serverEnv(port);
    const base = `http://127.0.0.1:${port}`;
    const email = `dub-${Math.random().toString(36).slice(2, 8)}@crash.test`;
    await seedEmbeddedDatabase(path.join(tmp, 'data'));
    const made = spawnTsNode(
      admin,
      ['create-user', '--email', email, '--password', 'a-Strong-pass-1', '--tier', 'creator', '--api-key'],
      env,
    );
    children.push(made.child);
    expect(await made.exited, made.output()).toBe(0);
    const key = /API key \(shown once, keep it safe\): (sk_\w+)/.exec(made.output())?.[1] ?? '';
    const headers = { 'xi-api-key': key };
    const speech = joinWithPauses(...(await Promise.all(LINES.map((line) => fliteSpeech('awb', line)))));

    let server = spawnServer(env, children);
    await waitHealthy(base, server);
    const form = new FormData();
    form.append('file', new Blob([encodeWav(speech)], { type: 'audio/wav' }), 'lines.wav');
    form.append('source_lang', 'en');
    form.append('target_lang', 'es');
    const created = await fetch(`${base}/v1/dubbing`, { method: 'POST', headers, body: form });
    expect(created.status, await created.clone().text()).toBe(200);
    const { dubbing_id: id } = (await created.json()) as { dubbing_id: string };
    const status = async () =>
      (await (await fetch(`${base}/v1/dubbing/${id}`, { headers })).json()) as {
        status: string;
        stage: string;
        progress_message: string | null;
        media_metadata: { duration: number };
      };
    // Killed once the first segment is spoken and before the last is.
    await expect
      .poll(async () => (await status()).progress_message ?? '', { timeout: 120_000, interval: 50 })
      .toMatch(/^Speaking segment [1-3] of [4-9]/);
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull();

    server = spawnServer(env, children);
    await waitHealthy(base, server);
    await expect
      .poll(async () => (await status()).status, { timeout: 180_000, interval: 250 })
      .toBe('dubbed');
    const resource = (await (await fetch(`${base}/v1/dubbing/resource/${id}`, { headers })).json()) as {
      renders: Record<string, { language: string; status: string }>;
      speaker_segments: Record<string, { dubs: Record<string, { audio_stale: boolean }> }>;
    };
    expect(Object.values(resource.renders).filter((r) => r.language === 'es')).toHaveLength(1);
    for (const segment of Object.values(resource.speaker_segments))
      expect(segment.dubs.es?.audio_stale).toBe(false);
    const audio = await fetch(`${base}/v1/dubbing/${id}/audio/es`, { headers });
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    // Charged once: the killed run's reservation came back when its lease ran out.
    const seconds = (await status()).media_metadata.duration;
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${base}/v1/user/subscription`, { headers })).json()) as {
              character_count: number;
            }
          ).character_count,
        { timeout: 20_000, interval: 250 },
      )
      .toBe(dubbingCredits(seconds, 1, false));
  }, 420_000);
});

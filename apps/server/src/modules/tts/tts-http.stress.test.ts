import { ErrorResponse, PREMADE_VOICES } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../../test/factories';
import { characterCountOf } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { historyItems } from '../history/history.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Issue 4 "Engines are supervised and isolated", through the server: many requests over HTTP with
 * random texts while engine children are killed among them. Every request ends with audio or a clean
 * error in the API's shape, the server answers throughout, and exactly the requests that delivered audio
 * are charged and kept. The suite runs 120 requests: every 20 requests cover each voice-and-model target with
 * each of the four forms (5 targets × 4 forms, so each pair 6 times), and an engine child is killed every
 * 20 (6 kills, mid-synthesis under 6 clients on a pool of 3: about as often in time as 400 requests killed
 * one every 25, so the pool is as often short of a child as before). That proves the point with Kokoro speaking
 * most of them; 400 took ~5 minutes on the 2-core CI machine once Kokoro became the default voice, and the
 * engine pool's own stress test runs thousands of syntheses. For a longer storm:
 *   STRESS_REQUESTS=1000 npx vitest run --project stress apps/server/src/modules/tts/tts-http.stress.test.ts
 */
let t: TestApp;
let baseUrl: string;
let apiKey: string;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_POOL_SIZE: '3', ENGINE_TIMEOUT_MS: '10000' } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const account = await signUpWithApiKey(t.app);
  apiKey = account.apiKey;
  workspaceId = account.workspaceId;
  // Enterprise: credits and concurrency enough for the storm.
  await t.deps.database.db
    .update(workspaces)
    .set({ tier: 'enterprise' })
    .where(eq(workspaces.id, workspaceId));
});
afterAll(() => t.close());

const REQUESTS = Number(process.env.STRESS_REQUESTS ?? 120);
const CLIENTS = 6;
/** Every this many requests, an engine child is killed from outside (SIGKILL), whatever it was doing. */
const KILL_EVERY = 20;

const texts = fc.sample(
  fc.oneof(
    fc.lorem({ maxCount: 12 }),
    fc.string({ minLength: 0, maxLength: 120 }),
    fc.constantFrom(
      '<speak><prosody rate="slow">Slow down.</prosody></speak>',
      '-voice kal -o /etc/passwd',
      '") (system "touch /tmp/parla-pwned") (set! x "',
      '$5.50 on 2024-05-31 at 3:30 pm, 50% off! Call 555-0100.',
      '🙂🙃 ¿¡ ... --- [laughs] [long pause]',
      '   ',
      'A. B. C. D. E. F. G. H. I. J.',
    ),
  ),
  { numRuns: REQUESTS, seed: 4 },
);

const voiceId = (name: string) => PREMADE_VOICES.find((v) => v.name === name)?.voice_id as string;
/** Kokoro voices on the default model and v3, and the eSpeak model (Flash and Turbo fall back to it only where Kokoro cannot). */
const TARGETS = [
  { voice: voiceId('Kevin'), model: 'eleven_multilingual_v2' },
  { voice: voiceId('Sarah'), model: 'eleven_flash_v2_5' },
  { voice: voiceId('Lucía'), model: 'eleven_multilingual_v2' },
  { voice: voiceId('Sarah'), model: 'eleven_multilingual_v2' },
  { voice: voiceId('Ryan'), model: 'eleven_v3' },
];
const FORMS = ['', '/stream', '/with-timestamps', '/stream/with-timestamps'];

type Outcome =
  | { kind: 'audio'; characters: number }
  | { kind: 'error'; status: number; code: string; message: string; request: string }
  | { kind: 'broken'; message: string };

/** One request; a stream that breaks after its headers (its credits refunded) counts as `broken`. */
async function speak(i: number): Promise<Outcome> {
  const target = TARGETS[i % TARGETS.length] as (typeof TARGETS)[number];
  const form = FORMS[i % FORMS.length] as string;
  const text = texts[i] ?? '';
  const res = await fetch(`${baseUrl}/v1/text-to-speech/${target.voice}${form}`, {
    method: 'POST',
    headers: { 'xi-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ text, model_id: target.model }),
  });
  if (!res.ok) {
    const body = ErrorResponse.parse(await res.json());
    return {
      kind: 'error',
      status: res.status,
      code: body.detail.status,
      message: body.detail.message,
      request: `${target.model} ${form} ${JSON.stringify(text)}`,
    };
  }
  try {
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length === 0) return { kind: 'broken', message: 'no bytes' };
    if (form.endsWith('with-timestamps')) {
      // One JSON object, or one per line: each must parse, and together they carry audio (a line holds
      // the bytes the encoder gave out since the line before, which may be none).
      const chunks = form.startsWith('/stream') ? bytes.toString().trim().split('\n') : [bytes.toString()];
      const audio = chunks.map((chunk) => (JSON.parse(chunk) as { audio_base64: string }).audio_base64);
      expect(audio.every((piece) => typeof piece === 'string')).toBe(true);
      expect(audio.join('')).toBeTruthy();
    }
    return { kind: 'audio', characters: Number(res.headers.get('x-character-count')) };
  } catch (error) {
    return { kind: 'broken', message: error instanceof Error ? error.message : String(error) };
  }
}

describe('text to speech under stress, through HTTP (issue 4)', () => {
  it('random requests over every form with engine children killed among them: audio or a clean error each time, the server up, credits exact', async () => {
    const outcomes: Outcome[] = [];
    let next = 0;
    let killed = 0;
    const client = async () => {
      while (next < texts.length) {
        const i = next++;
        if (i % KILL_EVERY === KILL_EVERY - 1) {
          const { pid } = (await t.deps.engines.run('ping')) as { pid: number };
          process.kill(pid, 'SIGKILL');
          killed += 1;
        }
        outcomes.push(await speak(i));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    expect(outcomes).toHaveLength(REQUESTS);
    const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
    console.log(
      `[stress] ${REQUESTS} requests, ${killed} engine children killed: ${count('audio')} audio, ${count('error')} clean errors, ${count('broken')} streams cut`,
    );
    expect(killed).toBe(Math.floor(REQUESTS / KILL_EVERY));
    const errors = outcomes.filter((o) => o.kind === 'error');
    // Clean errors only: empty or unspeakable text (422), and an engine that failed twice (503).
    expect(errors.filter((e) => e.status !== 422 && e.status !== 503)).toEqual([]);
    const audio = outcomes.filter((o) => o.kind === 'audio');
    expect(audio.length).toBeGreaterThan(REQUESTS * 0.8);
    // A stream cut by a failure after its first audio is rare: its sentence is tried again first.
    expect(outcomes.filter((o) => o.kind === 'broken').length).toBeLessThan(REQUESTS * 0.01);

    // The server still answers, and its engines are all back.
    await expect.poll(async () => (await fetch(`${baseUrl}/health`)).status, { timeout: 15_000 }).toBe(200);
    const after = await speak(0);
    expect(after.kind === 'audio' || after.kind === 'error').toBe(true);

    // Exactly the requests that delivered audio are charged and kept (every form keeps its item).
    const db = t.deps.database.db;
    await expect
      .poll(
        async () =>
          (await db.select().from(historyItems).where(eq(historyItems.workspaceId, workspaceId))).length,
        {
          timeout: 15_000,
        },
      )
      .toBe(audio.length + (after.kind === 'audio' ? 1 : 0));
    const charged =
      audio.reduce((sum, o) => sum + (o.kind === 'audio' ? o.characters : 0), 0) +
      (after.kind === 'audio' ? after.characters : 0);
    expect(await characterCountOf(db, workspaceId)).toBe(charged);
  }, 600_000);
});

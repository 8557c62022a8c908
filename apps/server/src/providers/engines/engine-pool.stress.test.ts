import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSynthesisRequest } from '../tts/tts-provider';
import { EngineFailure, EnginePool } from './engine-pool';

let pool: EnginePool;
beforeAll(async () => {
  pool = new EnginePool({ size: 3, timeoutMs: 10_000, logger: pino({ level: 'silent' }) });
  await pool.start();
});
afterAll(() => pool.stop());

/** Random texts, with the kinds of input that hurt engines: markup flite would loop on, symbols, empties. */
const texts = fc.sample(
  fc.oneof(
    fc.lorem({ maxCount: 12 }),
    fc.string({ minLength: 0, maxLength: 80 }),
    fc.constantFrom(
      '<speak><prosody rate="slow">Slow down.</prosody></speak>',
      '-voice kal -o /etc/passwd',
      '$5.50 on 2024-05-31 at 3:30 pm, 50% off!',
      '🙂🙃 ¿¡ ... ---',
      '   ',
    ),
  ),
  { numRuns: 2400, seed: 42 },
);

const voices: Omit<EngineSynthesisRequest, 'text'>[] = [
  { engine: 'espeak', voice: 'en-us' },
  { engine: 'espeak', voice: 'es+f3' },
  { engine: 'flite', voice: 'kal16' },
  { engine: 'flite', voice: 'slt', rate: 1.3 },
];

describe('engine supervision under stress (issue 4)', () => {
  it('thousands of random syntheses with children crashing among them: each ends with audio or a clean failure, and the pool recovers', async () => {
    let audio = 0;
    const failures: unknown[] = [];
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const i = next++;
        // Every 150th call crashes its child outright, taking the calls running there with it.
        const call =
          i % 150 === 149
            ? pool.run('crash')
            : pool.synthesize({
                ...(voices[i % voices.length] as EngineSynthesisRequest),
                text: texts[i] ?? '',
              });
        try {
          const result = (await call) as { samples?: Int16Array };
          if (result?.samples) audio += 1;
        } catch (error) {
          failures.push(error);
          // A child is down: give the pool a moment to respawn it, as a client retrying would.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));

    expect(failures.every((error) => error instanceof EngineFailure)).toBe(true);
    const crashes = Math.floor(texts.length / 150);
    expect(audio).toBeGreaterThan(texts.length - crashes * 8);
    await expect.poll(() => pool.readyCount, { timeout: 10_000 }).toBe(3);
    const after = await pool.synthesize({ engine: 'espeak', voice: 'en-us', text: 'Still here.' });
    expect(after.samples.length).toBeGreaterThan(0);
  }, 180_000);

  it('a synthesis past its time bound is killed, and the child replaced', async () => {
    await expect(pool.run('hang', 200)).rejects.toMatchObject({ reason: 'timeout' });
    await expect.poll(() => pool.readyCount, { timeout: 10_000 }).toBe(3);
  });
});

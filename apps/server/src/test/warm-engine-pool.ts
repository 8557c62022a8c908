import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { EnginePool } from '../providers/engines/engine-pool';

/**
 * A test file's engine pool of two children, started before its tests and stopped after them, with
 * Festival and eSpeak already loaded in both children: the first call of an engine in a child loads it
 * (Festival's voice, eSpeak's WebAssembly module), seconds and more on a busy machine, past a sentence's
 * own time bound. Returns a getter, since the pool exists only once `beforeAll` has run.
 */
export function useWarmEnginePool(): () => EnginePool {
  let pool: EnginePool | undefined;
  beforeAll(async () => {
    pool = new EnginePool({ size: 2, timeoutMs: 60_000, logger: pino({ level: 'silent' }) });
    await pool.start();
    for (const voice of ['cmu_us_slt_arctic_hts', 'en-us+f3'])
      for (let child = 0; child < 2; child++)
        await pool.synthesize(
          { engine: voice.startsWith('en') ? 'espeak' : 'festival', voice, text: 'Hello.' },
          { timeoutMs: 120_000 },
        );
  }, 600_000);
  afterAll(() => pool?.stop());
  return () => {
    if (!pool) throw new Error('the engine pool starts in beforeAll');
    return pool;
  };
}

import type { HealthResponse } from '@parla/contracts';
import type { Database } from '../../platform/db/client';
import type { EnginePool } from '../../providers/engines/engine-pool';

async function timed(
  check: () => Promise<string | undefined>,
): Promise<HealthResponse['checks']['database']> {
  const started = performance.now();
  try {
    const message = await check();
    return { ok: true, latency_ms: round(performance.now() - started), ...(message ? { message } : {}) };
  } catch (error) {
    return {
      ok: false,
      latency_ms: round(performance.now() - started),
      message: error instanceof Error ? error.message : 'check failed',
    };
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Health: the database answers a query and the engine pool's children answer a ping. */
export async function checkHealth(deps: {
  database: Database;
  engines: EnginePool;
  role: HealthResponse['role'];
  version: string;
}): Promise<HealthResponse> {
  const [database, engines] = await Promise.all([
    timed(async () => {
      await deps.database.ping();
      return deps.database.kind;
    }),
    timed(async () => {
      if (deps.engines.readyCount < deps.engines.size) {
        throw new Error(`${deps.engines.readyCount} of ${deps.engines.size} engine processes ready`);
      }
      await deps.engines.run('ping', 5000);
      return `${deps.engines.size} engine processes ready`;
    }),
  ]);
  return {
    status: database.ok && engines.ok ? 'ok' : 'degraded',
    version: deps.version,
    role: deps.role,
    uptime_seconds: Math.round(process.uptime()),
    checks: { database, engines },
  };
}

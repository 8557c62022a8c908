import type { HealthResponse } from '@parla/contracts';
import type { Database } from '../../platform/db/client';
import type { ModelStatus, ModelStore } from '../../platform/models/model-store';
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

/**
 * Health: the database answers a query, every engine child is up and answers its heartbeat, and no
 * synthesis has waited for an engine longer than the pool's saturation bound (5 s). The models are listed
 * as the start-up check found them; an unavailable one does not make the server degraded, since
 * everything that does not need it works (issue 27 item 1).
 */
export async function checkHealth(deps: {
  database: Database;
  engines: EnginePool;
  models: ModelStore;
  role: HealthResponse['role'];
  version: string;
}): Promise<HealthResponse> {
  const database = await timed(async () => {
    await deps.database.ping();
    return deps.database.kind;
  });
  // The pool's own heartbeat answers for the engines, with no round trip now (see EnginePool.health);
  // the latency is that of the slowest child's last heartbeat.
  const pool = deps.engines.health();
  const engines = {
    ok: pool.ok,
    latency_ms: round(pool.heartbeatMs ?? 0),
    message: pool.message,
    queue_length: pool.queueLength,
    oldest_wait_ms: pool.oldestWaitMs,
  };
  return {
    status: database.ok && engines.ok ? 'ok' : 'degraded',
    version: deps.version,
    role: deps.role,
    uptime_seconds: Math.round(process.uptime()),
    checks: { database, engines },
    models: deps.models.list().map((m) => ({ id: m.id, available: m.available, reason: m.reason })),
  };
}

/** The model store's state (`GET /v1/model-store`): every model of the catalogue, as last checked. */
export function listStoredModels(models: ModelStore): ModelStatus[] {
  return models.list();
}

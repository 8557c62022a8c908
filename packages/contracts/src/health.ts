import { z } from 'zod';
import { defineRoute } from './routes';

export const HealthCheck = z.object({
  ok: z.boolean(),
  /** Milliseconds the check took. */
  latency_ms: z.number(),
  message: z.string().optional(),
});

/** The engines' check adds their saturation: syntheses waiting for an engine and the oldest wait. */
export const EngineHealthCheck = HealthCheck.extend({
  queue_length: z.number().int(),
  oldest_wait_ms: z.number(),
});

/**
 * A model of the model store: available, or why not. An unavailable model does not make the server
 * degraded: everything that does not need it keeps working (issue 27 item 1).
 */
export const HealthModel = z.object({
  id: z.string(),
  available: z.boolean(),
  reason: z.string().nullable(),
});

export const HealthResponse = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    role: z.enum(['api', 'worker', 'all']),
    uptime_seconds: z.number(),
    checks: z.object({
      database: HealthCheck,
      engines: EngineHealthCheck,
    }),
    models: z.array(HealthModel),
  })
  .meta({ id: 'HealthResponse' });
export type HealthResponse = z.infer<typeof HealthResponse>;

export const healthRoute = defineRoute({
  method: 'GET',
  path: '/health',
  summary: 'Liveness and readiness: database reachable, engine pool ready and not saturated',
  tags: ['system'],
  response: HealthResponse,
  otherResponses: { 503: HealthResponse },
});

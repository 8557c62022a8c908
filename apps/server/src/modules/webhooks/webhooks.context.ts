import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import type { EventBus } from '../../platform/events/event-bus';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { deriveSealingKey } from '../../platform/secrets';
import { ensureSealingKey } from './webhooks.store';

/** What the webhooks' use cases and delivery job need. */
export interface WebhookDeps {
  db: Db;
  queue: JobQueue;
  events: EventBus;
  logger: Logger;
  clock: Clock;
  settings: Config['webhooks'];
  /** NODE_ENV=production: webhook URLs must be https. */
  production: boolean;
}

/** The key that seals the webhooks' signing secrets (WEBHOOK_SECRETS_KEY, or the server's own). */
export async function sealingKeyOf(deps: Pick<WebhookDeps, 'db' | 'settings'>): Promise<Buffer> {
  const master =
    deps.settings.secretsKey ?? (await ensureSealingKey(deps.db, randomBytes(32).toString('base64url')));
  return deriveSealingKey(master, 'webhook-signing-secrets');
}

import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../../app-deps';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { deriveSealingKey } from '../../platform/secrets';
import { ensureSealingKey } from './agents.store';

/** What the agents' use cases need. */
export interface AgentDeps {
  db: Db;
  clock: Clock;
  settings: Config['agents'];
  /** NODE_ENV=production: webhook tool URLs must be https. */
  production: boolean;
  /** PUBLIC_URL: the agent's shareable link is a page of it. */
  publicUrl: string;
}

/** The agents' dependencies from the app's. */
export function agentDepsOf(deps: Pick<AppDeps, 'database' | 'clock' | 'config'>): AgentDeps {
  return {
    db: deps.database.db,
    clock: deps.clock,
    settings: deps.config.agents,
    production: deps.config.env === 'production',
    publicUrl: deps.config.publicUrl,
  };
}

/** The key that seals workspace secrets (AGENT_SECRETS_KEY, or the server's own kept in the database). */
export async function sealingKeyOf(deps: Pick<AgentDeps, 'db' | 'settings'>): Promise<Buffer> {
  const master =
    deps.settings.secretsKey ?? (await ensureSealingKey(deps.db, randomBytes(32).toString('base64url')));
  return deriveSealingKey(master, 'agent-workspace-secrets');
}

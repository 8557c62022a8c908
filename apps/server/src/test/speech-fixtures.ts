import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { PREMADE_VOICES } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { creditBalances } from '../modules/credits/credits.tables';
import { historyItems } from '../modules/history/history.tables';
import type { Db } from '../platform/db/client';
import { signUpWithApiKey } from './factories';

/** The id of a premade voice by its name ('' when there is none, which the API refuses). */
export const premadeVoiceId = (name: string): string =>
  PREMADE_VOICES.find((v) => v.name === name)?.voice_id ?? '';

export interface SpeechAccount {
  token: string;
  key: string;
  userId: string;
  workspaceId: string;
  /** The official client on the listening app. */
  sdk: ElevenLabsClient;
}

/** A new user and workspace with an API key, and the official client for it at `baseUrl`. */
export async function newSpeechAccount(app: FastifyInstance, baseUrl: string): Promise<SpeechAccount> {
  const created = await signUpWithApiKey(app);
  return {
    token: created.accessToken,
    key: created.apiKey,
    userId: created.userId,
    workspaceId: created.workspaceId,
    sdk: new ElevenLabsClient({ apiKey: created.apiKey, baseUrl, maxRetries: 0 }),
  };
}

/** Credits the workspace has used this period. */
export async function characterCountOf(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db.select().from(creditBalances).where(eq(creditBalances.workspaceId, workspaceId));
  return row?.used ?? 0;
}

/** Sets the credits the workspace has used this period (a plan near its limit, for quota tests). */
export async function setCharacterCount(db: Db, workspaceId: string, used: number): Promise<void> {
  await db
    .insert(creditBalances)
    .values({ workspaceId, used })
    .onConflictDoUpdate({ target: creditBalances.workspaceId, set: { used } });
}

/** The workspace's history rows, as stored. */
export function historyRowsOf(db: Db, workspaceId: string) {
  return db.select().from(historyItems).where(eq(historyItems.workspaceId, workspaceId));
}

/** A JSON call with the account's API key through the app (no network), for what the SDK does not send. */
export function callAs(
  app: FastifyInstance,
  account: Pick<SpeechAccount, 'key'>,
  method: string,
  path: string,
  body?: unknown,
) {
  return app.inject({
    method: method as 'GET',
    url: path,
    headers: { 'xi-api-key': account.key },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

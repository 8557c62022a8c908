import { randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/client';
import { ensureSigningSecret } from './auth.store';

/**
 * The secret that signs access tokens: AUTH_SECRET when set, else a random key created on first use and
 * kept in the database, so every API process (and every restart) verifies the others' tokens.
 */
export async function resolveSigningSecret(db: Db, configured: string | undefined): Promise<string> {
  return configured ?? ensureSigningSecret(db, randomBytes(48).toString('base64url'));
}

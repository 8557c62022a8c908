import { createHash, randomBytes } from 'node:crypto';
import { SINGLE_USE_TOKEN_TTL_MS, SINGLE_USE_TOKEN_TYPES, type SingleUseTokenType } from '@parla/contracts';
import type { Principal } from '../../platform/auth-guard';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { insertSingleUseToken, markSingleUseTokenUsed } from './single-use-tokens.store';

/*
 * Single-use tokens (issue 20 item 5): a caller with an API key or a session asks for one, hands it to a
 * browser, and the browser opens one socket of the token's type with it (`?token=` on the socket's address,
 * or `authorization` on the text-to-speech sockets). A token is bound to the workspace, the user and the
 * key that asked for it, lasts 15 minutes, and is accepted once.
 */

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** 400 for a type Parla does not issue (`batch_scribe`, or anything else). */
export function parseTokenType(value: string): SingleUseTokenType {
  if ((SINGLE_USE_TOKEN_TYPES as readonly string[]).includes(value)) return value as SingleUseTokenType;
  throw new AppError(
    'invalid_request',
    `token_type must be one of ${SINGLE_USE_TOKEN_TYPES.join(', ')}; "${value.slice(0, 64)}" is not issued here.`,
    { errors: [{ loc: ['path', 'token_type'], msg: 'unknown token type', type: 'enum' }] },
  );
}

/** Issues a token for the caller; expired tokens are swept on the way. */
export async function issueSingleUseToken(
  db: Db,
  caller: Pick<Principal, 'userId' | 'workspaceId' | 'apiKeyId'>,
  tokenType: SingleUseTokenType,
  now: Date,
): Promise<string> {
  const token = `sutkn_${randomBytes(24).toString('hex')}`;
  await insertSingleUseToken(
    db,
    {
      tokenHash: hash(token),
      tokenType,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId ?? null,
      expiresAt: new Date(now.getTime() + SINGLE_USE_TOKEN_TTL_MS),
    },
    now,
  );
  return token;
}

/**
 * Accepts a token once for a socket of `tokenType`: answers its owner, or undefined when it is unknown,
 * of another type, expired or already used (one UPDATE decides, so two sockets racing get one winner).
 */
export async function consumeSingleUseToken(
  db: Db,
  token: string,
  tokenType: SingleUseTokenType,
  now: Date,
): Promise<{ userId: string; workspaceId: string; apiKeyId: string | null } | undefined> {
  if (!/^sutkn_[0-9a-f]{48}$/.test(token)) return undefined;
  return markSingleUseTokenUsed(db, hash(token), tokenType, now);
}

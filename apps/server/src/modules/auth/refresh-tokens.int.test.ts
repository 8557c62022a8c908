import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { createTestUser } from '../../test/factories';
import { openTestDatabase } from '../../test/test-app';
import {
  issueRefreshToken,
  REFRESH_TOKEN_TTL_DAYS,
  revokeRefreshToken,
  rotateRefreshToken,
} from './refresh-tokens.service';
import { resolveSigningSecret } from './signing-secret';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const now = () => new Date();

describe('refresh tokens', () => {
  it('rotates on use: the successor works, in the same family', async () => {
    const { user } = await createTestUser(database.db);
    const first = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    const rotated = await rotateRefreshToken(database.db, first.token, now());
    expect(rotated.outcome).toBe('rotated');
    if (rotated.outcome !== 'rotated') return;
    expect(rotated.next.familyId).toBe(first.familyId);
    expect(rotated.next.token).not.toBe(first.token);
    expect((await rotateRefreshToken(database.db, rotated.next.token, now())).outcome).toBe('rotated');
  });

  it('a reused rotated token revokes the whole family, successor included', async () => {
    const { user } = await createTestUser(database.db);
    const first = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    const rotated = await rotateRefreshToken(database.db, first.token, now());
    if (rotated.outcome !== 'rotated') throw new Error('expected a rotation');
    const replay = await rotateRefreshToken(database.db, first.token, now());
    expect(replay).toEqual({ outcome: 'reused', userId: user.id, revoked: 2 }); // the replayed token and its successor
    expect((await rotateRefreshToken(database.db, rotated.next.token, now())).outcome).toBe('invalid');
    // Another sign-in of the same user (another family) is untouched.
    const other = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    expect((await rotateRefreshToken(database.db, other.token, now())).outcome).toBe('rotated');
  });

  it('of two concurrent uses of one token, one rotates and the other counts as reuse', async () => {
    const { user } = await createTestUser(database.db);
    const first = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    const outcomes = await Promise.all([
      rotateRefreshToken(database.db, first.token, now()),
      rotateRefreshToken(database.db, first.token, now()),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['reused', 'rotated']);
  });

  it('an expired, unknown or signed-out token is invalid', async () => {
    const { user } = await createTestUser(database.db);
    const old = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    const later = new Date(Date.now() + (REFRESH_TOKEN_TTL_DAYS * 86_400 + 1) * 1000);
    expect((await rotateRefreshToken(database.db, old.token, later)).outcome).toBe('invalid');
    expect((await rotateRefreshToken(database.db, 'no-such-token', now())).outcome).toBe('invalid');
    const signedIn = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    await revokeRefreshToken(database.db, signedIn.token, now());
    expect((await rotateRefreshToken(database.db, signedIn.token, now())).outcome).toBe('invalid');
  });
});

describe('the access-token signing secret', () => {
  it('is AUTH_SECRET when set, else one stored key that every process gets', async () => {
    expect(await resolveSigningSecret(database.db, 'x'.repeat(40))).toBe('x'.repeat(40));
    const [a, b] = await Promise.all([
      resolveSigningSecret(database.db, undefined),
      resolveSigningSecret(database.db, undefined),
    ]);
    expect(a).toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(64);
    expect(await resolveSigningSecret(database.db, undefined)).toBe(a);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { createTestUser } from '../../test/factories';
import { openTestDatabase } from '../../test/test-app';
import {
  issueRefreshToken,
  REFRESH_REUSE_GRACE_SECONDS,
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
const SECRET = 'refresh-test-secret-'.repeat(3);
/** A rotation with the test secret, at `at` (now by default). */
const rotate = (token: string, at = now()) => rotateRefreshToken(database.db, token, at, SECRET);
const afterGrace = () => new Date(Date.now() + (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000);

/** A new sign-in of a new user, its first token, and that token's first rotation. */
async function rotatedSignIn() {
  const { user } = await createTestUser(database.db);
  const first = await issueRefreshToken(database.db, { userId: user.id, now: now() });
  const rotated = await rotate(first.token);
  if (rotated.outcome !== 'rotated') throw new Error(`expected a rotation, not ${rotated.outcome}`);
  return { user, first, rotated };
}

describe('refresh tokens', () => {
  it('rotates on use: the successor works, in the same family', async () => {
    const { first, rotated } = await rotatedSignIn();
    expect(rotated.next.familyId).toBe(first.familyId);
    expect(rotated.next.token).not.toBe(first.token);
    expect((await rotate(rotated.next.token)).outcome).toBe('rotated');
  });

  it('a rotated token presented again within the grace window gets the same successor', async () => {
    const { first, rotated } = await rotatedSignIn();
    expect(await rotate(first.token)).toEqual(rotated);
    // The successor is still the live token: it rotates as usual.
    expect((await rotate(rotated.next.token)).outcome).toBe('rotated');
  });

  it('follows a successor rotated meanwhile to the live token', async () => {
    const { first, rotated: second } = await rotatedSignIn();
    const third = await rotate(second.next.token);
    if (third.outcome !== 'rotated') throw new Error('expected a rotation');
    expect(await rotate(first.token)).toEqual(third);
  });

  it('of concurrent uses of one token, all get the same successor', async () => {
    const { user } = await createTestUser(database.db);
    const first = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    const outcomes = await Promise.all([rotate(first.token), rotate(first.token), rotate(first.token)]);
    const tokens = outcomes.map((o) => (o.outcome === 'rotated' ? o.next.token : o.outcome));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe('reused');
  });

  it('a rotated token replayed after the grace window revokes the whole family, successor included', async () => {
    const { user, first, rotated } = await rotatedSignIn();
    const replay = await rotate(first.token, afterGrace());
    expect(replay).toEqual({ outcome: 'reused', userId: user.id, revoked: 2 }); // the replayed token and its successor
    expect((await rotate(rotated.next.token)).outcome).toBe('invalid');
    // Another sign-in of the same user (another family) is untouched.
    const other = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    expect((await rotate(other.token)).outcome).toBe('rotated');
  });

  it('a repeat whose successor cannot be found (the secret changed) counts as a replay', async () => {
    const { first } = await rotatedSignIn();
    const repeat = await rotateRefreshToken(database.db, first.token, now(), `${SECRET}changed`);
    expect(repeat).toMatchObject({ outcome: 'reused', revoked: 2 });
  });

  it('an expired, unknown or signed-out token is invalid', async () => {
    const { user } = await createTestUser(database.db);
    const old = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    const later = new Date(Date.now() + (REFRESH_TOKEN_TTL_DAYS * 86_400 + 1) * 1000);
    expect((await rotate(old.token, later)).outcome).toBe('invalid');
    expect((await rotate('no-such-token')).outcome).toBe('invalid');
    const signedIn = await issueRefreshToken(database.db, { userId: user.id, now: now() });
    await revokeRefreshToken(database.db, signedIn.token, now());
    expect((await rotate(signedIn.token)).outcome).toBe('invalid');
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

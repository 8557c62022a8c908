import { ErrorResponse } from '@parla/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, resolveApiKey } from '../modules/api-keys/api-keys.service';
import { apiKeys } from '../modules/api-keys/api-keys.tables';
import { signAccessToken } from '../modules/auth/access-token';
import { createTestUser } from '../test/factories';
import { addWhoamiRoute, createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ extend: addWhoamiRoute });
});
afterAll(() => t.close());

const whoami = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/v1/test/whoami', headers });

function expectError(res: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(ErrorResponse.parse(res.json()).detail.status).toBe(code);
}

describe('API keys', () => {
  it('are shown once and stored only as a hash with a preview', async () => {
    const { user, workspace } = await createTestUser(t.deps.database.db);
    const { key, row } = await createApiKey(t.deps.database.db, {
      userId: user.id,
      workspaceId: workspace.id,
      name: 'ci',
    });
    expect(key).toMatch(/^sk_[0-9a-f]{48}$/);
    expect(row.preview).toBe(`sk_…${key.slice(-4)}`);
    const [stored] = await t.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, row.id));
    expect(JSON.stringify(stored)).not.toContain(key.slice(3));
  });
});

describe('API key use', () => {
  it('is noted at most once a minute', async () => {
    const { user, workspace } = await createTestUser(t.deps.database.db);
    const { key, row } = await createApiKey(t.deps.database.db, {
      userId: user.id,
      workspaceId: workspace.id,
      name: 'x',
    });
    const lastUsed = async () =>
      (
        await t.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, row.id))
      )[0]?.lastUsedAt?.getTime();
    const start = new Date('2026-11-21T10:00:00Z');
    await resolveApiKey(t.deps.database.db, key, start);
    expect(await lastUsed()).toBe(start.getTime());
    await resolveApiKey(t.deps.database.db, key, new Date(start.getTime() + 30_000));
    expect(await lastUsed()).toBe(start.getTime());
    const later = new Date(start.getTime() + 61_000);
    await resolveApiKey(t.deps.database.db, key, later);
    expect(await lastUsed()).toBe(later.getTime());
  });
});

describe('the auth guard', () => {
  it('accepts an API key in xi-api-key as its own user and workspace, and notes its use', async () => {
    const a = await createTestUser(t.deps.database.db);
    const b = await createTestUser(t.deps.database.db);
    const keyA = await createApiKey(t.deps.database.db, {
      userId: a.user.id,
      workspaceId: a.workspace.id,
      name: 'a',
    });
    const keyB = await createApiKey(t.deps.database.db, {
      userId: b.user.id,
      workspaceId: b.workspace.id,
      name: 'b',
    });
    expect((await whoami({ 'xi-api-key': keyA.key })).json()).toEqual({
      userId: a.user.id,
      workspaceId: a.workspace.id,
      via: 'api_key',
      apiKeyId: keyA.row.id,
      role: 'admin',
    });
    expect((await whoami({ 'xi-api-key': keyB.key })).json().userId).toBe(b.user.id);
    const [used] = await t.deps.database.db.select().from(apiKeys).where(eq(apiKeys.id, keyA.row.id));
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('answers 401 invalid_api_key "Invalid API key" for a wrong or malformed key', async () => {
    for (const key of [`sk_${'0'.repeat(48)}`, 'not-a-key', `sk_${'Z'.repeat(48)}`]) {
      const res = await whoami({ 'xi-api-key': key });
      expectError(res, 401, 'invalid_api_key');
      expect(res.json().detail.message).toBe('Invalid API key');
    }
  });

  it('accepts a valid Bearer access token, and refuses an expired, forged or foreign one', async () => {
    const { user, workspace } = await createTestUser(t.deps.database.db);
    const secret = await t.deps.auth.signingSecret();
    const subject = { userId: user.id, workspaceId: workspace.id };
    const valid = signAccessToken(subject, secret, new Date());
    expect((await whoami({ authorization: `Bearer ${valid}` })).json()).toEqual({
      ...subject,
      via: 'access_token',
      role: 'admin',
    });

    const expired = signAccessToken(subject, secret, new Date(Date.now() - 301_000));
    expectError(await whoami({ authorization: `Bearer ${expired}` }), 401, 'unauthorized');
    const foreign = signAccessToken(subject, 'another-secret-another-secret-another', new Date());
    expectError(await whoami({ authorization: `Bearer ${foreign}` }), 401, 'unauthorized');
    expectError(await whoami({ authorization: `Bearer ${valid}x` }), 401, 'unauthorized');
  });

  it('answers 401 unauthorized without credentials', async () => {
    const res = await whoami({});
    expectError(res, 401, 'unauthorized');
    expect(res.json().detail.message).toBe('Sign in, or send an API key in the xi-api-key header.');
    expectError(await whoami({ authorization: 'Basic abc' }), 401, 'unauthorized');
  });
});

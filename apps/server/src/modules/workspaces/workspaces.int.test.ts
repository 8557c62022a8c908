import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import { createTestUser } from '../../test/factories';
import { openTestDatabase } from '../../test/test-app';
import { getUser } from '../users';
import { getMemberRole } from './workspaces.store';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('createUserWithWorkspace', () => {
  it('gives every new user a workspace they own as admin', async () => {
    const { user, workspace } = await createTestUser(database.db, { firstName: 'Ada' });
    expect(workspace.ownerId).toBe(user.id);
    expect(workspace.name).toBe("Ada's Workspace");
    expect((await getUser(database.db, user.id))?.workspaceId).toBe(workspace.id);
    expect(await getMemberRole(database.db, workspace.id, user.id)).toBe('admin');
  });

  it('keeps workspaces apart: a user is no member of another workspace', async () => {
    const a = await createTestUser(database.db);
    const b = await createTestUser(database.db);
    expect(await getMemberRole(database.db, b.workspace.id, a.user.id)).toBeUndefined();
  });

  it('rolls back the user when the workspace cannot be created (one transaction)', async () => {
    const { user } = await createTestUser(database.db);
    await expect(createTestUser(database.db, { email: user.email })).rejects.toThrow();
  });
});

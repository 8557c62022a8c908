import { createUserWithWorkspace } from '../modules/workspaces/workspaces.service';
import type { Db } from '../platform/db/client';
import { newId } from '../platform/ids';

/** A fresh user with their own workspace, unique per call, so tests never share or clean up data. */
export async function createTestUser(db: Db, overrides: { email?: string; firstName?: string } = {}) {
  return createUserWithWorkspace(db, {
    email: overrides.email ?? `user-${newId(10).toLowerCase()}@test.parla.local`,
    firstName: overrides.firstName ?? 'Test',
  });
}

import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import {
  deleteUserRow,
  fillFirstName,
  insertUserRow,
  selectUser,
  selectUserByEmail,
  type UserChanges,
  updateUserRow,
} from './users.store';
import type { UserRow, users } from './users.tables';

/*
 * The users module keeps the identity every module reads: email, names, the current workspace, the
 * password and the account flags of accounts §3. What another module keeps about a user is in its own
 * tables; changes to these rows come through here (issue 26 item 3).
 */

/** The user behind a principal; a deleted account's still-valid token gets a 401. */
export async function requireUser(db: Db, userId: string): Promise<UserRow> {
  const user = await selectUser(db, userId);
  if (!user) throw new AppError('unauthorized', 'Your session has ended. Please sign in again.');
  return user;
}

/** A user by id, or undefined. */
export function getUser(db: Db, userId: string): Promise<UserRow | undefined> {
  return selectUser(db, userId);
}

/** A user by email (any case), or undefined. */
export function getUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return selectUserByEmail(db, email);
}

/** Makes a user (sign-up, invitations, the operator's command line: through the workspaces module). */
export function createUser(db: Db, user: typeof users.$inferInsert): Promise<UserRow> {
  return insertUserRow(db, user);
}

/** Changes some of a user's fields (names, flags, password, email and its verification, …). */
export function updateUser(db: Db, userId: string, changes: UserChanges): Promise<void> {
  return updateUserRow(db, userId, changes);
}

/** The workspace the user works in from now on (accounts §3 User.workspace_id). */
export function setUserWorkspace(db: Db, userId: string, workspaceId: string): Promise<void> {
  return updateUserRow(db, userId, { workspaceId });
}

/** Fills an empty first name (the onboarding survey's); a name the user has stays. */
export function setFirstNameIfEmpty(db: Db, userId: string, firstName: string): Promise<void> {
  return fillFirstName(db, userId, firstName);
}

/** Deletes a user row; what references it goes by cascade or loses its user (the account module decides). */
export function deleteUser(db: Db, userId: string): Promise<void> {
  return deleteUserRow(db, userId);
}

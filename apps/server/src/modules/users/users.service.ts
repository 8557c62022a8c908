import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { getUser } from './users.store';
import type { UserRow } from './users.tables';

/** The user behind a principal; a deleted account's still-valid token gets a 401. */
export async function requireUser(db: Db, userId: string): Promise<UserRow> {
  const user = await getUser(db, userId);
  if (!user) throw new AppError('unauthorized', 'Your session has ended. Please sign in again.');
  return user;
}

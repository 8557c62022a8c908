import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type UserRow, users } from './users.tables';

/** Inserts a user row. */
export async function insertUser(db: Db, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

export async function getUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function setUserWorkspace(db: Db, userId: string, workspaceId: string): Promise<void> {
  await db.update(users).set({ workspaceId }).where(eq(users.id, userId));
}

/** The user with this email (stored lower-case). */
export async function getUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

/** Sets some of a user's fields. */
export async function updateUser(
  db: Db,
  userId: string,
  set: Partial<typeof users.$inferInsert>,
): Promise<void> {
  await db.update(users).set(set).where(eq(users.id, userId));
}

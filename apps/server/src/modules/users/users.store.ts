import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type UserRow, users } from './users.tables';

/** Inserts a user row. */
export async function insertUserRow(db: Db, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error('insert into users returned no row');
  return row;
}

export async function selectUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** The user with this email (stored lower-case). */
export async function selectUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

/** Sets some of a user's fields. */
export async function updateUserRow(db: Db, userId: string, set: UserChanges): Promise<void> {
  await db.update(users).set(set).where(eq(users.id, userId));
}

/** Sets the first name unless the user has one already (blank counts as none). */
export async function fillFirstName(db: Db, userId: string, firstName: string): Promise<void> {
  await db
    .update(users)
    .set({ firstName: sql`coalesce(nullif(trim(${users.firstName}), ''), ${firstName})` })
    .where(eq(users.id, userId));
}

/** Deletes a user; their sign-ins, keys and codes go by cascade, their items elsewhere lose their user. */
export async function deleteUserRow(db: Db, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
}

/** The fields of a user another module may change through the front door (never the id). */
export type UserChanges = Partial<Omit<typeof users.$inferInsert, 'id' | 'createdAt'>>;

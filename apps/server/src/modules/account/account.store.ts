import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { userDevices } from './account.tables';

/** Notes a device (by its hash) as seen now; answers whether this was its first sighting. */
export async function touchUserDevice(db: Db, userId: string, fingerprintHash: string): Promise<boolean> {
  const [row] = await db
    .insert(userDevices)
    .values({ userId, fingerprintHash })
    .onConflictDoUpdate({
      target: [userDevices.userId, userDevices.fingerprintHash],
      set: { lastSeenAt: sql`now()` },
    })
    .returning({ firstSeenAt: userDevices.firstSeenAt, lastSeenAt: userDevices.lastSeenAt });
  return row !== undefined && row.firstSeenAt.getTime() === row.lastSeenAt.getTime();
}

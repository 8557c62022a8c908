import { CCPA_OPT_OUT_STATES, type TermsName } from '@parla/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type GeoLocation, type UserRow, users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** Stores the location when none is known yet; answers the row as it stands after. */
export async function setGeoLocationIfUnknown(
  db: Db,
  userId: string,
  geo: GeoLocation,
): Promise<UserRow | undefined> {
  await db
    .update(users)
    .set({ geoLocation: geo })
    .where(and(eq(users.id, userId), isNull(users.geoLocation)));
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

export async function setAnalyticsConsent(
  db: Db,
  userId: string,
  choice: 'granted' | 'denied',
): Promise<void> {
  await db.update(users).set({ analyticsConsent: choice }).where(eq(users.id, userId));
}

export async function setCcpaOptOut(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ ccpaOptOut: true }).where(eq(users.id, userId));
}

/**
 * Records the CCPA opt-out a Global Privacy Control signal asks for, when the stored location is one of the
 * listed US states (compared case-insensitively) and the flag is not set yet. One statement, so a browser
 * that sends the header on every request costs one indexed no-op update.
 */
export async function recordGpcOptOut(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ ccpaOptOut: true })
    .where(
      and(
        eq(users.id, userId),
        eq(users.ccpaOptOut, false),
        sql`lower(${users.geoLocation}->>'country') = 'us'`,
        inArray(sql`lower(${users.geoLocation}->>'region')`, [...CCPA_OPT_OUT_STATES]),
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Marks the biometric terms accepted; a repeated acceptance keeps the first time. */
export async function setBipaTermsAccepted(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(users)
    .set({
      acceptedBipaTerms: true,
      bipaTermsAcceptedAt: sql`coalesce(${users.bipaTermsAcceptedAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(users.id, userId));
}

/** Sets when the user agreed to one set of terms; answers every agreement kept. */
export async function setTermsAgreed(
  db: Db,
  userId: string,
  terms: TermsName,
  unix: number,
): Promise<Record<string, number> | undefined> {
  const [row] = await db
    .update(users)
    .set({
      termsAgreedTo: sql`${users.termsAgreedTo} || jsonb_build_object(${terms}::text, ${unix}::bigint)`,
    })
    .where(eq(users.id, userId))
    .returning({ termsAgreedTo: users.termsAgreedTo });
  return row?.termsAgreedTo;
}

export interface TrainingOptOutRow {
  trainingOptOut: boolean;
  trainingOptOutAt: Date | null;
}

export async function getTrainingOptOut(db: Db, workspaceId: string): Promise<TrainingOptOutRow | undefined> {
  const [row] = await db
    .select({ trainingOptOut: workspaces.trainingOptOut, trainingOptOutAt: workspaces.trainingOptOutAt })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row;
}

/** Sets the workspace's training opt-out; its time moves only when the value changes. */
export async function setTrainingOptOut(
  db: Db,
  workspaceId: string,
  value: boolean,
  at: Date,
): Promise<TrainingOptOutRow | undefined> {
  const [row] = await db
    .update(workspaces)
    .set({
      trainingOptOut: value,
      trainingOptOutAt: sql`case when ${workspaces.trainingOptOut} is distinct from ${value} then ${at.toISOString()}::timestamptz else ${workspaces.trainingOptOutAt} end`,
    })
    .where(eq(workspaces.id, workspaceId))
    .returning({ trainingOptOut: workspaces.trainingOptOut, trainingOptOutAt: workspaces.trainingOptOutAt });
  return row;
}

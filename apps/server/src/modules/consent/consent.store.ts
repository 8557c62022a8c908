import { CCPA_OPT_OUT_STATES, type TermsName } from '@parla/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { type GeoLocation, type UserConsentRow, userConsents, workspaceConsents } from './consent.tables';

/** A user's consents as stored, or undefined when they chose nothing and no location is known. */
export async function findUserConsent(db: Db, userId: string): Promise<UserConsentRow | undefined> {
  const [row] = await db.select().from(userConsents).where(eq(userConsents.userId, userId));
  return row;
}

/** Writes these consent fields of a user (the row is made on the first write). */
export async function saveUserConsent(
  db: Db,
  userId: string,
  fields: Partial<Omit<UserConsentRow, 'userId'>>,
): Promise<void> {
  await db
    .insert(userConsents)
    .values({ userId, ...fields })
    .onConflictDoUpdate({ target: userConsents.userId, set: fields });
}

/** Stores the location when none is known yet; answers the row as it stands after. */
export async function setGeoLocationIfUnknown(
  db: Db,
  userId: string,
  geo: GeoLocation,
): Promise<UserConsentRow | undefined> {
  await db
    .insert(userConsents)
    .values({ userId, geoLocation: geo })
    .onConflictDoUpdate({
      target: userConsents.userId,
      set: { geoLocation: geo },
      where: isNull(userConsents.geoLocation),
    });
  return findUserConsent(db, userId);
}

/**
 * Records the CCPA opt-out a Global Privacy Control signal asks for, when the stored location is one of the
 * listed US states (compared case-insensitively) and the flag is not set yet. One statement, so a browser
 * that sends the header on every request costs one indexed no-op update.
 */
export async function recordGpcOptOut(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .update(userConsents)
    .set({ ccpaOptOut: true })
    .where(
      and(
        eq(userConsents.userId, userId),
        eq(userConsents.ccpaOptOut, false),
        sql`lower(${userConsents.geoLocation}->>'country') = 'us'`,
        inArray(sql`lower(${userConsents.geoLocation}->>'region')`, [...CCPA_OPT_OUT_STATES]),
      ),
    )
    .returning({ userId: userConsents.userId });
  return rows.length > 0;
}

/** Marks the biometric terms accepted; a repeated acceptance keeps the first time. */
export async function setBipaTermsAccepted(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .insert(userConsents)
    .values({ userId, acceptedBipaTerms: true, bipaTermsAcceptedAt: at })
    .onConflictDoUpdate({
      target: userConsents.userId,
      set: {
        acceptedBipaTerms: true,
        bipaTermsAcceptedAt: sql`coalesce(${userConsents.bipaTermsAcceptedAt}, ${at.toISOString()}::timestamptz)`,
      },
    });
}

/** Sets when the user agreed to one set of terms; answers every agreement kept. */
export async function setTermsAgreed(
  db: Db,
  userId: string,
  terms: TermsName,
  unix: number,
): Promise<Record<string, number> | undefined> {
  const [row] = await db
    .insert(userConsents)
    .values({ userId, termsAgreedTo: { [terms]: unix } })
    .onConflictDoUpdate({
      target: userConsents.userId,
      set: {
        termsAgreedTo: sql`${userConsents.termsAgreedTo} || jsonb_build_object(${terms}::text, ${unix}::bigint)`,
      },
    })
    .returning({ termsAgreedTo: userConsents.termsAgreedTo });
  return row?.termsAgreedTo;
}

export interface TrainingOptOutRow {
  trainingOptOut: boolean;
  trainingOptOutAt: Date | null;
}

/** The workspace's training opt-out; none stored is not opted out. */
export async function getTrainingOptOut(db: Db, workspaceId: string): Promise<TrainingOptOutRow> {
  const [row] = await db
    .select({
      trainingOptOut: workspaceConsents.trainingOptOut,
      trainingOptOutAt: workspaceConsents.trainingOptOutAt,
    })
    .from(workspaceConsents)
    .where(eq(workspaceConsents.workspaceId, workspaceId));
  return row ?? { trainingOptOut: false, trainingOptOutAt: null };
}

/** Sets the workspace's training opt-out; its time moves only when the value changes. */
export async function setTrainingOptOut(
  db: Db,
  workspaceId: string,
  value: boolean,
  at: Date,
): Promise<TrainingOptOutRow | undefined> {
  const [row] = await db
    .insert(workspaceConsents)
    .values({ workspaceId, trainingOptOut: value, trainingOptOutAt: value ? at : null })
    .onConflictDoUpdate({
      target: workspaceConsents.workspaceId,
      set: {
        trainingOptOut: value,
        trainingOptOutAt: sql`case when ${workspaceConsents.trainingOptOut} is distinct from ${value} then ${at.toISOString()}::timestamptz else ${workspaceConsents.trainingOptOutAt} end`,
      },
    })
    .returning({
      trainingOptOut: workspaceConsents.trainingOptOut,
      trainingOptOutAt: workspaceConsents.trainingOptOutAt,
    });
  return row;
}

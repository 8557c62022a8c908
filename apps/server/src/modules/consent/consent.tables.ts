import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** accounts §3 User.geo_location. */
export interface GeoLocation {
  region?: string | null;
  country?: string | null;
  city?: string | null;
}

/** accounts §4 analytics consent as the user chose it; null means the region's default applies. */
export const ANALYTICS_CONSENT_CHOICES = ['granted', 'denied'] as const;

/**
 * What a user agreed to or refused (accounts §3 ccpa_opt_out, geo_location, accepted_bipa_terms,
 * terms_agreed_to; §4 analytics consent). No row: nothing chosen yet, no location known.
 */
export const userConsents = pgTable('user_consents', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  ccpaOptOut: boolean('ccpa_opt_out').notNull().default(false),
  geoLocation: jsonb('geo_location').$type<GeoLocation>(),
  analyticsConsent: text('analytics_consent', { enum: ANALYTICS_CONSENT_CHOICES }),
  acceptedBipaTerms: boolean('accepted_bipa_terms').notNull().default(false),
  /** When the biometric (BIPA) terms were accepted (accept-bipa-terms). */
  bipaTermsAcceptedAt: timestamp('bipa_terms_accepted_at', { withTimezone: true }),
  /** accounts §3 terms_agreed_to: unix seconds per set of terms (conversational_ai, voice_design, …). */
  termsAgreedTo: jsonb('terms_agreed_to').$type<Record<string, number>>().notNull().default({}),
});

export type UserConsentRow = typeof userConsents.$inferSelect;

/** accounts §3 Workspace.training_opt_out: the workspace's data is not used for training; admins change it. */
export const workspaceConsents = pgTable('workspace_consents', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  trainingOptOut: boolean('training_opt_out').notNull().default(false),
  trainingOptOutAt: timestamp('training_opt_out_at', { withTimezone: true }),
});

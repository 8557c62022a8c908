import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/** accounts §7 POST /v1/google-ads-visit: a visit from a paid ad (accounts §3 ad-visit params). */
export const adVisits = pgTable(
  'ad_visits',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email'),
    eventType: text('event_type').notNull(),
    gclid: text('gclid'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    utmTerm: text('utm_term'),
    utmContent: text('utm_content'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ad_visits_user_idx').on(t.userId)],
);

/**
 * A user's referrals (accounts §3 referral_link_code, §9): their own link's code once made, whose link
 * they signed up through, and where they came from at sign-up (pre-sign-up / post-registration-user-setup:
 * pid, xid). No row: none of these yet.
 */
export const userReferrals = pgTable('user_referrals', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  referralLinkCode: text('referral_link_code').unique(),
  /** The referral record's value the account signed up with (someone else's referral_link_code). */
  referredByCode: text('referred_by_code'),
  signupSource: jsonb('signup_source').$type<Record<string, string>>(),
});

import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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

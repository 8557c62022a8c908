/** Every table, for drizzle-kit and the typed client. Modules add their `*.tables.ts` here. */

export * from '../../modules/api-keys/api-keys.tables';
export * from '../../modules/auth/auth.tables';
export * from '../../modules/billing/billing.tables';
export * from '../../modules/credits/credits.tables';
export * from '../../modules/growth/growth.tables';
export * from '../../modules/history/history.tables';
export * from '../../modules/mail/mail.tables';
export * from '../../modules/notifications/notifications.tables';
export * from '../../modules/users/users.tables';
export * from '../../modules/voices/voices.tables';
export * from '../../modules/workspaces/workspaces.tables';
export * from '../jobs/jobs.tables';
export * from '../rate-limit/rate-limit.tables';

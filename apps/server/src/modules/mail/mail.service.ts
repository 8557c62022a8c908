import type { Db } from '../../platform/db/client';
import { insertOutboxEmail } from './mail.store';
import type { outboxEmails } from './mail.tables';

/** The outbox mailer's keeper (providers/mail): each mail stored in `outbox_emails`. */
export function outboxKeeper(db: Db): (email: typeof outboxEmails.$inferInsert) => Promise<void> {
  return (email) => insertOutboxEmail(db, email);
}

import type { Logger } from 'pino';
import { newId } from '../../platform/ids';
import type { Mailer, MailMessage } from './mailer';

/** A mail as the outbox keeps it. */
export interface OutboxMail {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  kind: string;
}

/** Where the outbox keeps its mails (the mail module's table; given by the app, so providers stay below modules). */
export type OutboxKeeper = (mail: OutboxMail) => Promise<void>;

/**
 * The zero-setup mailer: keeps each mail in the `outbox_emails` table and logs it. Outside production
 * the log line carries the text (with its links) so a self-hoster without SMTP can follow them; in
 * production only who and what, since mail bodies carry one-time codes.
 */
export function createOutboxMailer(options: {
  keep: OutboxKeeper;
  from: string;
  logger: Logger;
  logBodies: boolean;
}): Mailer {
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      const id = newId();
      await options.keep({
        id,
        to: message.to.toLowerCase(),
        from: options.from,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        kind: message.kind,
      });
      options.logger.info(
        {
          mail: { id, to: message.to, subject: message.subject, kind: message.kind },
          ...(options.logBodies ? { text: message.text } : {}),
        },
        'mail kept in the local outbox (no SMTP_URL)',
      );
      return { id };
    },
    async close() {},
  };
}

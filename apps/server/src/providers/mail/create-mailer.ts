import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import type { Mailer } from './mailer';
import { createOutboxMailer } from './outbox-mailer';
import { createSmtpMailer } from './smtp-mailer';

/** SMTP when SMTP_URL is set, else the local outbox. */
export function createMailer(config: Pick<Config, 'mail' | 'env'>, db: Db, logger: Logger): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from });
  return createOutboxMailer({ db, from: config.mail.from, logger, logBodies: config.env !== 'production' });
}

import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Mailer } from './mailer';
import { createOutboxMailer, type OutboxKeeper } from './outbox-mailer';
import { createSmtpMailer } from './smtp-mailer';

/** SMTP when SMTP_URL is set, else the local outbox (kept by `keep`). */
export function createMailer(
  config: Pick<Config, 'mail' | 'env'>,
  keep: OutboxKeeper,
  logger: Logger,
): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from });
  return createOutboxMailer({ keep, from: config.mail.from, logger, logBodies: config.env !== 'production' });
}

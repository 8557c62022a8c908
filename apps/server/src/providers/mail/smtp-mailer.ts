import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

/** Mail over a real SMTP server with nodemailer; the URL carries host, port, TLS and credentials. */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        headers: { 'X-Parla-Mail-Kind': message.kind },
      });
      return { id: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}

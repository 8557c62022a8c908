/** What the product sends (accounts doc §7 user calls; issue 3 "Email"). */
export type MailKind =
  | 'verification'
  | 'password_reset'
  | 'email_change'
  | 'sign_in_request'
  | 'opt_out'
  | 'notification'
  | 'workspace_invite';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: MailKind;
}

/** Sends mail: over SMTP when SMTP_URL is set, else into the local outbox. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<{ id: string }>;
  close(): Promise<void>;
}

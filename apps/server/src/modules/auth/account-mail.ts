import { type AccountActionMode, accountActionPath } from '@parla/contracts';
import type { MailMessage } from '../../providers/mail/mailer';

/** The link of the account-action landing page (accounts §2) for one mode and code. */
export function accountActionLink(
  publicUrl: string,
  mode: AccountActionMode,
  code: string,
  extra: Record<string, string | undefined> = {},
): string {
  const url = new URL(accountActionPath, `${publicUrl}/`);
  url.searchParams.set('mode', mode);
  url.searchParams.set('oobCode', code);
  url.searchParams.set('lang', 'en');
  for (const [key, value] of Object.entries(extra)) if (value) url.searchParams.set(key, value);
  return url.toString();
}

const signature = '— Parla';

function footer(optOutLink: string | undefined): string {
  return optOutLink ? `\n\nDon't want product updates from Parla? Opt out: ${optOutLink}` : '';
}

export function verificationMail(input: {
  to: string;
  link: string;
  optOutLink?: string | undefined;
}): MailMessage {
  return {
    kind: 'verification',
    to: input.to,
    subject: 'Verify your email for Parla',
    text: `Hello,\n\nFollow this link to verify your email address:\n\n${input.link}\n\nIf you didn't create a Parla account, you can ignore this email.\n\n${signature}${footer(input.optOutLink)}`,
  };
}

export function passwordResetMail(input: { to: string; link: string }): MailMessage {
  return {
    kind: 'password_reset',
    to: input.to,
    subject: 'Reset your password for Parla',
    text: `Hello,\n\nFollow this link to choose a new password for ${input.to}:\n\n${input.link}\n\nThe link works for one hour. If you didn't ask to reset your password, you can ignore this email.\n\n${signature}`,
  };
}

export function emailChangeMail(input: { to: string; code: string; link: string }): MailMessage {
  return {
    kind: 'email_change',
    to: input.to,
    subject: 'Confirm your new email for Parla',
    text: `Hello,\n\nSomeone asked to use this address for a Parla account. Follow this link to confirm the change:\n\n${input.link}\n\nOr enter this code: ${input.code}\n\nThe link works for one hour. If you didn't ask for this, you can ignore this email.\n\n${signature}`,
  };
}

export function emailChangedMail(input: { to: string; newEmail: string; revertLink: string }): MailMessage {
  return {
    kind: 'email_change',
    to: input.to,
    subject: 'Your Parla email was changed',
    text: `Hello,\n\nThe email of your Parla account was changed to ${input.newEmail}.\n\nIf you didn't do this, follow this link to change it back and sign out everywhere:\n\n${input.revertLink}\n\n${signature}`,
  };
}

export function sensitiveActionMail(input: { to: string; link: string }): MailMessage {
  return {
    kind: 'email_change',
    to: input.to,
    subject: 'Confirm it is you — Parla',
    text: `Hello,\n\nYou are about to make a sensitive change to your Parla account. Follow this link, then try the action again:\n\n${input.link}\n\nThe link works for 15 minutes. If it wasn't you, change your password.\n\n${signature}`,
  };
}

export function signInRequestMail(input: { to: string; link: string }): MailMessage {
  return {
    kind: 'sign_in_request',
    to: input.to,
    subject: 'Parla support asks for access to your account',
    text: `Hello,\n\nOur support team asks for temporary access to your account to help you. Follow this link to grant it:\n\n${input.link}\n\nIf you didn't contact support, ignore this email: nothing happens without your confirmation.\n\n${signature}`,
  };
}

export function productUpdatesMail(input: { to: string; optOutLink: string }): MailMessage {
  return {
    kind: 'opt_out',
    to: input.to,
    subject: "You'll get product updates from Parla",
    text: `Hello,\n\nYou chose to receive product updates from Parla. You can stop them at any time with this link:\n\n${input.optOutLink}\n\n${signature}`,
  };
}

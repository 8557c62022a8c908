import type { MailMessage } from '../../providers/mail/mailer';

/** The invitation mail: the link carries the one-use code (accounts §2 invite_code). */
export function workspaceInviteMail(input: {
  to: string;
  workspaceName: string;
  inviter: string;
  link: string;
}): MailMessage {
  return {
    kind: 'workspace_invite',
    to: input.to,
    subject: `${input.inviter} invited you to ${input.workspaceName} on Parla`,
    text: `Hello,\n\n${input.inviter} invited you to join the workspace "${input.workspaceName}" on Parla.\n\nFollow this link to accept or decline. If you have no Parla account yet, sign up with this address first:\n\n${input.link}\n\nThe invitation works for 7 days.\n\n— Parla`,
  };
}

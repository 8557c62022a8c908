import { EmailAddress, tierDisplayNames, type UserResponse } from '@parla/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { createBackupCode } from '../features/account/api/create-backup-code';
import { deleteAccount } from '../features/account/api/delete-account';
import { editUser } from '../features/account/api/edit-user';
import { editUserMetadata } from '../features/account/api/edit-user-metadata';
import { sendEmailChangeVerification } from '../features/account/api/send-email-change-verification';
import { updateEmail } from '../features/account/api/update-email';
import { removeTotp } from '../features/account/api/update-mfa-factors';
import { BackupCodePanel, TwoFactorDialog } from '../features/account/components/two-factor-dialog';
import {
  emailUpdateFailed,
  runSensitiveAction,
  verificationSentMessage,
} from '../features/account/sensitive-action';
import { sendPasswordResetEmail } from '../features/auth/api/send-password-reset-email';
import { sendVerificationEmail } from '../features/auth/api/send-verification-email';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { passwordResetRequestFailed, verificationEmailFailed } from '../features/auth/messages';
import { AnalyticsConsentSetting } from '../features/consent/components/analytics-consent-setting';
import { WorkspaceTrainingOptOut } from '../features/consent/components/workspace-training-opt-out';
import { useUser } from '../features/users/api/get-user';
import { useAuth } from '../lib/auth/auth-provider';
import { getToastMessage } from '../lib/http-error';
import { useToast } from '../lib/toasts/use-toast';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader } from '../ui/card';
import { FormMessage, TextField } from '../ui/field';
import { Skeleton } from '../ui/skeleton';

/** accounts §8 "Email updated". */
export const emailUpdatedMessage = 'Email updated! Please refresh this page to reauthenticate.';

function Section({
  title,
  description,
  children,
  action,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader className={children ? undefined : 'border-b-0'}>
        <div>
          <h2 className="text-base font-semibold">{title}</h2>
          {description && <p className="mt-1 text-sm text-fg-muted">{description}</p>}
        </div>
        {action}
      </CardHeader>
      {children && <CardContent>{children}</CardContent>}
    </Card>
  );
}

/**
 * `/app/settings`: profile, email, password, two-factor authentication, product updates, privacy (analytics
 * consent, the workspace's data-training opt-out), deletion.
 */
export default function SettingsPage() {
  return (
    <RequireSignIn>
      <SettingsContent />
    </RequireSignIn>
  );
}

function SettingsContent() {
  const { data: user, error, refetch } = useUser();
  if (error) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <FormMessage>{getToastMessage(error)}</FormMessage>
        <Button className="mt-4" variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!user) {
    return (
      <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-12 sm:px-6" aria-busy="true">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }
  return <Settings user={user} />;
}

function Settings({ user }: { user: UserResponse }) {
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const { signOut } = useAuth();
  const [search, setSearch] = useSearchParams();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users', 'me'] });

  /** Finishes an email change with the code mailed to the new address (its link, or typed in). */
  const confirmEmailChange = async (code: string): Promise<void> => {
    try {
      await updateEmail(code, false);
      toast({ title: emailUpdatedMessage, variant: 'success' });
      setAwaitingCode(false);
      void refresh();
    } catch (caught) {
      toast({ title: emailUpdateFailed(getToastMessage(caught)), variant: 'error' });
    }
  };

  // `?email_change_code=` from the mail sent to the new address.
  const emailChangeCode = search.get('email_change_code');
  const handledCode = useRef<string | null>(null);
  useEffect(() => {
    if (!emailChangeCode || handledCode.current === emailChangeCode) return;
    handledCode.current = emailChangeCode;
    void confirmEmailChange(emailChangeCode);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('email_change_code');
        return next;
      },
      { replace: true },
    );
  });

  const dialog = search.get('dialog');
  const setDialog = (name: string | null) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (name) next.set('dialog', name);
        else next.delete('dialog');
        return next;
      },
      { replace: true },
    );

  const [firstName, setFirstName] = useState(user.first_name ?? '');
  const [newEmail, setNewEmail] = useState('');
  const [emailNote, setEmailNote] = useState<{ tone: 'success' | 'danger'; text: string }>();
  const [awaitingCode, setAwaitingCode] = useState(false);
  const [changeCode, setChangeCode] = useState('');
  const [removeCode, setRemoveCode] = useState('');
  const [backupCode, setBackupCode] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState('');
  const [deleteNote, setDeleteNote] = useState<string>();
  const [busy, setBusy] = useState<string>();

  const act = async (name: string, action: () => Promise<void>) => {
    if (busy) return;
    setBusy(name);
    try {
      await action();
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(undefined);
    }
  };

  const totpOn = user.totp_mfa_factor?.enabled === true;

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight">Settings</h1>
          <p className="mt-1 text-fg-muted">
            {user.email} · {tierDisplayNames[user.subscription.tier]} plan
          </p>
        </div>
        <Button variant="secondary" asChild>
          <Link to="/app/developers/api-keys">API keys</Link>
        </Button>
      </header>

      {!user.email_verified && (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-warning/40 bg-warning-soft px-4 py-3 text-sm text-warning"
          role="status"
        >
          <span>Your email is not verified yet. Open the link we sent to {user.email}.</span>
          <Button
            size="sm"
            variant="secondary"
            onClick={() =>
              void sendVerificationEmail(user.email, '/app/settings').then(
                () => toast({ title: `We sent the link again to ${user.email}.`, variant: 'success' }),
                () => toast({ title: verificationEmailFailed, variant: 'error' }),
              )
            }
          >
            Send again
          </Button>
        </div>
      )}

      <Section title="Profile" description="The name Parla greets you with.">
        <form
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void act('name', async () => {
              await editUser({ first_name: firstName.trim() });
              await refresh();
              toast({ title: 'Your name was saved.', variant: 'success' });
            });
          }}
        >
          <TextField
            className="flex-1"
            label="First name"
            name="given-name"
            autoComplete="given-name"
            maxLength={100}
            required
            value={firstName}
            onChange={(event) => setFirstName(event.target.value)}
          />
          <Button type="submit" variant="secondary" aria-disabled={busy === 'name' || !firstName.trim()}>
            Save
          </Button>
        </form>
      </Section>

      <Section
        title="Email"
        description={
          <>
            Your sign-in email is <strong className="text-fg">{user.email}</strong>.
          </>
        }
      >
        <form
          className="flex flex-col gap-3"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            const parsed = EmailAddress.safeParse(newEmail);
            if (!parsed.success) {
              setEmailNote({ tone: 'danger', text: 'Enter a valid email address.' });
              return;
            }
            void act('email', async () => {
              try {
                const result = await runSensitiveAction(user.email, (code) =>
                  sendEmailChangeVerification(parsed.data, code),
                );
                setEmailNote(
                  result.status === 'done'
                    ? {
                        tone: 'success',
                        text: `We sent a confirmation link and code to ${parsed.data}. Open the link, or enter the code below, to finish the change.`,
                      }
                    : { tone: 'success', text: verificationSentMessage(result.email) },
                );
                setAwaitingCode(result.status === 'done');
              } catch (caught) {
                setEmailNote({ tone: 'danger', text: getToastMessage(caught) });
              }
            });
          }}
        >
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <TextField
              className="flex-1"
              label="New email"
              type="email"
              name="new-email"
              autoComplete="email"
              value={newEmail}
              onChange={(event) => {
                setNewEmail(event.target.value);
                setEmailNote(undefined);
              }}
            />
            <Button type="submit" variant="secondary" aria-disabled={busy === 'email'}>
              Change email
            </Button>
          </div>
          {emailNote && <FormMessage tone={emailNote.tone}>{emailNote.text}</FormMessage>}
        </form>
        {awaitingCode && (
          <form
            className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              const code = changeCode.trim();
              if (code) void act('email-code', () => confirmEmailChange(code));
            }}
          >
            <TextField
              className="flex-1"
              label="Confirmation code"
              name="email-change-code"
              autoComplete="one-time-code"
              spellCheck={false}
              value={changeCode}
              onChange={(event) => setChangeCode(event.target.value)}
            />
            <Button
              type="submit"
              variant="secondary"
              aria-disabled={busy === 'email-code' || !changeCode.trim()}
            >
              Confirm
            </Button>
          </form>
        )}
      </Section>

      <Section
        title="Password"
        description="We email you a link to choose a new password. Changing it signs you out everywhere, here too."
        action={
          <Button
            variant="secondary"
            aria-disabled={busy === 'password'}
            onClick={() =>
              void act('password', async () => {
                try {
                  await sendPasswordResetEmail(user.email, '/app/sign-in');
                  toast({ title: `We sent a link to ${user.email}.`, variant: 'success' });
                } catch {
                  toast({ title: passwordResetRequestFailed, variant: 'error' });
                }
              })
            }
          >
            Send reset link
          </Button>
        }
      />

      <Section
        title="Two-factor authentication"
        description="Ask for a code from an authenticator app when you sign in."
        action={
          <Badge tone={totpOn ? 'success' : 'neutral'} dot>
            {totpOn ? 'On' : 'Off'}
          </Badge>
        }
      >
        {!totpOn ? (
          <Button onClick={() => setDialog('add-2fa')}>Set up two-factor authentication</Button>
        ) : (
          <div className="flex flex-col gap-4">
            {backupCode ? (
              <BackupCodePanel code={backupCode} />
            ) : (
              <Button
                variant="secondary"
                className="self-start"
                aria-disabled={busy === 'backup'}
                onClick={() =>
                  void act('backup', async () => {
                    setBackupCode((await createBackupCode()).backup_code);
                    await refresh();
                  })
                }
              >
                Make a new backup code
              </Button>
            )}
            <form
              className="flex flex-col gap-3 sm:flex-row sm:items-end"
              onSubmit={(event: FormEvent) => {
                event.preventDefault();
                void act('remove-2fa', async () => {
                  await removeTotp(removeCode.trim());
                  setRemoveCode('');
                  setBackupCode(undefined);
                  await refresh();
                  toast({ title: 'Two-factor authentication is off.', variant: 'success' });
                });
              }}
            >
              <TextField
                className="flex-1"
                label="Code from your app, to turn it off"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={removeCode}
                onChange={(event) => setRemoveCode(event.target.value)}
              />
              <Button
                type="submit"
                variant="secondary"
                aria-disabled={busy === 'remove-2fa' || removeCode.trim().length !== 6}
              >
                Turn off
              </Button>
            </form>
          </div>
        )}
      </Section>

      <Section
        title="Workspace"
        description="The people you work with, their groups and the workspace's security settings."
      >
        <nav aria-label="Workspace settings" className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" asChild>
            <Link to="/app/workspace/members">Members</Link>
          </Button>
          <Button variant="secondary" size="sm" asChild>
            <Link to="/app/workspace/groups">Groups</Link>
          </Button>
          <Button variant="secondary" size="sm" asChild>
            <Link to="/app/workspace/security">Security</Link>
          </Button>
          <Button variant="secondary" size="sm" asChild>
            <Link to="/app/settings/workspace-invites">Workspace invitations</Link>
          </Button>
        </nav>
      </Section>

      <Section title="Product updates" description="News about Parla's features, by email.">
        <label className="flex items-center gap-3 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-accent"
            checked={user.agrees_to_product_updates}
            disabled={busy === 'updates'}
            onChange={(event) => {
              const value = event.target.checked;
              void act('updates', async () => {
                await editUserMetadata({ agrees_to_product_updates: value });
                await refresh();
              });
            }}
          />
          Email me product updates
        </label>
      </Section>

      <Section
        title="Privacy"
        description="Cookies on this device, and whether your workspace's content trains models."
      >
        <div className="flex flex-col gap-5">
          <AnalyticsConsentSetting />
          <WorkspaceTrainingOptOut />
        </div>
      </Section>

      <Section
        title="Delete account"
        description="Deletes your account, your workspace and everything in it. This cannot be undone."
      >
        <form
          className="flex flex-col gap-3"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            if (confirmDelete !== 'DELETE') return;
            void act('delete', async () => {
              const result = await runSensitiveAction(user.email, (code) => deleteAccount(code));
              if (result.status === 'verificationSent') {
                setDeleteNote(verificationSentMessage(result.email));
                return;
              }
              toast({ title: 'Your account was deleted.' });
              await signOut();
            });
          }}
        >
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <TextField
              className="flex-1"
              label='Type "DELETE" to confirm'
              name="confirm-delete"
              autoComplete="off"
              pattern="DELETE"
              value={confirmDelete}
              onChange={(event) => setConfirmDelete(event.target.value)}
            />
            <Button
              type="submit"
              variant="danger"
              aria-disabled={confirmDelete !== 'DELETE' || busy === 'delete'}
            >
              Delete account
            </Button>
          </div>
          {deleteNote && <FormMessage tone="success">{deleteNote}</FormMessage>}
        </form>
      </Section>

      <TwoFactorDialog
        open={dialog === 'add-2fa'}
        onClose={() => {
          setDialog(null);
          void refresh();
        }}
      />
    </div>
  );
}

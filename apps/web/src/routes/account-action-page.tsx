import {
  type AccountActionDialog,
  type EmailActionError,
  emailActionMessages,
  supportAccessMessages,
} from '@parla/contracts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  type AccountActionParams,
  continueTarget,
  isAccountActionMode,
  parseAccountActionParams,
  toEmailActionError,
  UnknownAccountActionError,
} from '../features/auth/account-action';
import { applyEmailVerification } from '../features/auth/api/apply-email-verification';
import { checkPasswordResetCode } from '../features/auth/api/check-password-reset-code';
import { confirmPasswordReset } from '../features/auth/api/confirm-password-reset';
import { optOutOfUpdates } from '../features/auth/api/opt-out-of-updates';
import { verifySignInRequest } from '../features/auth/api/verify-sign-in-request';
import { NewPasswordFields, newPasswordErrors } from '../features/auth/components/new-password-fields';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';

const signInPath = '/app/sign-in';

/**
 * The account-action landing page (accounts §2, §4): where the emailed links land. Each mode runs its call
 * and shows its dialog; closing a dialog goes on to `continueUrl` (with internalCode and newUser) or to the
 * page the spec names. An unknown mode raises an error, which the route's error page shows.
 */
export default function AccountActionPage() {
  const [search] = useSearchParams();
  const params = parseAccountActionParams(search);
  if (!isAccountActionMode(params.mode)) throw new UnknownAccountActionError(params.mode);
  return <AccountAction params={params} mode={params.mode} />;
}

function AccountAction({ params, mode }: { params: AccountActionParams; mode: string }) {
  const navigate = useNavigate();
  const { toast, toastError } = useToast();
  const [dialog, setDialog] = useState<AccountActionDialog>('none');
  const [failure, setFailure] = useState<EmailActionError>();
  const [email, setEmail] = useState<string>();
  const [working, setWorking] = useState(mode !== 'recoverEmail' && mode !== 'verifySignInRequest');
  const [confirmingSupport, setConfirmingSupport] = useState(mode === 'verifySignInRequest');
  const started = useRef(false);
  const code = params.code ?? '';

  useEffect(() => {
    // Codes are single-use: run the call once even when effects run twice (development mode).
    if (started.current) return;
    started.current = true;
    const fail = (error: unknown) => setFailure(toEmailActionError(error));
    const done = () => setWorking(false);
    if (mode === 'verifyEmail') {
      // accounts §4: the state is needsVerifyEmail whatever the result.
      applyEmailVerification(code, params.continueUrl ?? undefined, params.lang)
        .then((answer) => setEmail(answer.email), fail)
        .finally(() => {
          setDialog('needsVerifyEmail');
          done();
        });
    } else if (mode === 'resetPassword') {
      checkPasswordResetCode(code)
        .then(
          (answer) => {
            setEmail(answer.email);
            setDialog('changePassword');
          },
          (error: unknown) => {
            fail(error);
            setDialog('changePasswordFailed');
          },
        )
        .finally(done);
    } else if (mode === 'optOutOfUpdates') {
      optOutOfUpdates(code)
        .then(
          () => setDialog('optOutUpdatesSuccess'),
          (error: unknown) => {
            fail(error);
            setDialog('optOutUpdatesFailed');
          },
        )
        .finally(done);
    }
  }, [mode, code, params.continueUrl, params.lang]);

  /** accounts §4: closing clears the state and goes on to continueUrl, else where the dialog leads. */
  const close = (fallback: string) => {
    const wasOptOut = dialog === 'optOutUpdatesSuccess' || dialog === 'optOutUpdatesFailed';
    setDialog('none');
    setFailure(undefined);
    const target = wasOptOut ? '/' : (continueTarget(params, window.location.origin) ?? fallback);
    void navigate(target, { replace: true });
  };

  const failureText = failure ? emailActionMessages[failure] : undefined;

  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Your Parla account</h1>
      <p className="text-fg-muted" role="status">
        {working
          ? 'Checking your link…'
          : mode === 'recoverEmail'
            ? 'This link needs no further action.'
            : ''}
      </p>
      {mode === 'recoverEmail' && (
        <Button variant="secondary" onClick={() => void navigate('/', { replace: true })}>
          Go to Parla
        </Button>
      )}

      <Dialog
        open={dialog === 'needsVerifyEmail'}
        onOpenChange={(open) => !open && close(signInPath)}
        title="Email Verification"
        description={failureText ?? `Your email ${email ?? ''} has been verified. You can now sign in.`}
        footer={<Button onClick={() => close(signInPath)}>Continue to sign in</Button>}
      />

      <ChangePasswordDialog
        open={dialog === 'changePassword'}
        email={email}
        code={code}
        onDone={(result, error) => {
          if (result === 'succeeded') setDialog('changePasswordSucceeded');
          else {
            setFailure(toEmailActionError(error));
            setDialog('changePasswordFailed');
          }
        }}
        onCancel={() => close(signInPath)}
      />

      <Dialog
        open={dialog === 'changePasswordSucceeded'}
        onOpenChange={(open) => !open && close(signInPath)}
        title="Password has been changed"
        description="You can now sign in with your new password."
        footer={<Button onClick={() => close(signInPath)}>Continue to sign in</Button>}
      />

      <Dialog
        open={dialog === 'changePasswordFailed' || dialog === 'optOutUpdatesFailed'}
        onOpenChange={(open) => !open && close(dialog === 'optOutUpdatesFailed' ? '/' : signInPath)}
        title="An error occurred"
        description={failureText ?? emailActionMessages.unknownError}
        footer={
          <Button onClick={() => close(dialog === 'optOutUpdatesFailed' ? '/' : signInPath)}>Close</Button>
        }
      />

      <Dialog
        open={dialog === 'optOutUpdatesSuccess'}
        onOpenChange={(open) => !open && close('/')}
        title="Opted out of updates"
        description="You will no longer receive product update emails from Parla."
        footer={<Button onClick={() => close('/')}>Close</Button>}
      />

      <Dialog
        open={confirmingSupport}
        onOpenChange={(open) => {
          if (!open) {
            setConfirmingSupport(false);
            void navigate('/', { replace: true });
          }
        }}
        title={supportAccessMessages.title}
        description={supportAccessMessages.text}
        footer={
          <>
            <Button
              variant="secondary"
              onClick={() => {
                setConfirmingSupport(false);
                void navigate('/', { replace: true });
              }}
            >
              Cancel
            </Button>
            <Button
              aria-disabled={working}
              onClick={() => {
                if (working) return;
                setWorking(true);
                verifySignInRequest(code)
                  .then(() => {
                    toast({ title: supportAccessMessages.granted, variant: 'success' });
                    setConfirmingSupport(false);
                    void navigate('/', { replace: true });
                  }, toastError)
                  .finally(() => setWorking(false));
              }}
            >
              {supportAccessMessages.confirm}
            </Button>
          </>
        }
      />
    </div>
  );
}

function ChangePasswordDialog({
  open,
  email,
  code,
  onDone,
  onCancel,
}: {
  open: boolean;
  email: string | undefined;
  code: string;
  onDone: (result: 'succeeded' | 'failed', error?: unknown) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState({ password: '', repeat: '' });
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const errors = newPasswordErrors(value);
    if (busy || errors.password || errors.repeat) return;
    setBusy(true);
    confirmPasswordReset(code, value.password)
      .then(
        () => onDone('succeeded'),
        (error: unknown) => onDone('failed', error),
      )
      .finally(() => setBusy(false));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onCancel()}
      title="Please enter your new Password"
      description={email ? `For ${email}` : undefined}
    >
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <NewPasswordFields
          value={value}
          onChange={setValue}
          showErrors={submitted}
          labels={{ password: 'Your new password', repeat: 'Repeat new password' }}
        />
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={busy}>
            {busy ? 'Saving…' : 'Change password'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

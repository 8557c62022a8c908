import { EmailAddress } from '@parla/contracts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { postRegistrationUserSetup } from '../features/auth/api/post-registration-user-setup';
import { preSignUp } from '../features/auth/api/pre-sign-up';
import { sendVerificationEmail } from '../features/auth/api/send-verification-email';
import { signUp } from '../features/auth/api/sign-up';
import { AuthLayout } from '../features/auth/components/auth-layout';
import { NewPasswordFields, newPasswordErrors } from '../features/auth/components/new-password-fields';
import { verificationEmailFailed } from '../features/auth/messages';
import { afterSignInPath } from '../features/auth/post-login';
import { readReferralRecord, removeReferralRecord } from '../features/growth/referral-record';
import { useAfterSignInPath } from '../features/onboarding/use-after-sign-in-path';
import { readInviteCode } from '../features/workspace/invite-code';
import { useAuth } from '../lib/auth/auth-provider';
import { getToastMessage } from '../lib/http-error';
import { acceptSession } from '../lib/session-refresh';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { FormMessage, TextField } from '../ui/field';

/**
 * `/app/sign-up`: pre-sign-up check, the account (and its workspace), post-registration set-up, then
 * "check your inbox" for the verification mail.
 */
export default function SignUpPage() {
  const { status, signingOut } = useAuth();
  const { toast } = useToast();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [created, setCreated] = useState<string>();
  // accounts §2: a new account takes the onboarding survey first. The account created here has not taken
  // it: "Continue to Parla" leads there even when clicked before its user document arrives (issue 26
  // item 7: a quick click skipped the survey, and with it the checklist).
  const landing = useAfterSignInPath(search, created ? { is_onboarding_completed: false } : undefined);
  const [firstName, setFirstName] = useState('');
  const [email, setEmail] = useState('');
  const [passwords, setPasswords] = useState({ password: '', repeat: '' });
  const [updates, setUpdates] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [emailLeft, setEmailLeft] = useState(false);
  const [error, setError] = useState<string>();
  const [emailTaken, setEmailTaken] = useState(false);
  const [busy, setBusy] = useState(false);

  if (status === 'signedIn' && !signingOut && !created && !busy) {
    return <Navigate to={landing} replace />;
  }

  // Checked when the field is left (blur) and on submit, not at every keystroke.
  const emailError =
    (submitted || emailLeft) && !EmailAddress.safeParse(email).success
      ? email.trim() === ''
        ? 'Enter your email address.'
        : 'Enter a valid email address.'
      : undefined;
  // Where the verification mail's link goes on to: the page this sign-up was asked to lead to (an
  // invitation opened while signed out, most of all: issue 18); none for a plain sign-up (then sign-in).
  const continueUrl = search.get('redirect') || readInviteCode() ? afterSignInPath(search) : undefined;
  const inviteCode = readInviteCode() ?? undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy) return;
    const problems = newPasswordErrors(passwords);
    if (!EmailAddress.safeParse(email).success || problems.password || problems.repeat) return;
    setBusy(true);
    setError(undefined);
    setEmailTaken(false);
    try {
      const attribution = {
        ...(search.get('pid') ? { pid: search.get('pid') ?? '' } : {}),
        ...(search.get('xid') ? { xid: search.get('xid') ?? '' } : {}),
      };
      const check = await preSignUp({
        email: email.trim(),
        ...attribution,
        ...(inviteCode ? { invite_code: inviteCode } : {}),
      });
      if (!check.email_available) {
        setEmailTaken(true);
        return;
      }
      const session = await signUp({
        email: email.trim(),
        password: passwords.password,
        ...(firstName.trim() ? { first_name: firstName.trim() } : {}),
        agrees_to_product_updates: updates,
        ...(continueUrl ? { continue_url: continueUrl } : {}),
      });
      setCreated(email.trim());
      acceptSession(session);
      // Attribution is best effort: the account exists whatever happens here. A live referral record
      // goes with it (accounts §3, §9); it counts at sign-up only, so it is forgotten afterwards.
      const referral = readReferralRecord();
      await postRegistrationUserSetup({ ...attribution, ...(referral ? { referral } : {}) }).catch(
        () => undefined,
      );
      if (referral) removeReferralRecord();
    } catch (caught) {
      setError(getToastMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <AuthLayout
        title="Check your inbox"
        subtitle={
          <>
            We sent a verification link to <strong className="text-fg">{created}</strong>. Open it to verify
            your email.
          </>
        }
      >
        <div className="flex flex-col gap-3">
          <Button onClick={() => void navigate(landing, { replace: true })}>Continue to Parla</Button>
          <Button
            variant="secondary"
            onClick={() =>
              void sendVerificationEmail(created, continueUrl).then(
                () => toast({ title: `We sent the link again to ${created}.`, variant: 'success' }),
                () => toast({ title: verificationEmailFailed, variant: 'error' }),
              )
            }
          >
            Send the email again
          </Button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Create your Parla account"
      footer={
        <>
          Already have an account?{' '}
          <Link
            className="font-medium text-accent hover:underline"
            to={{ pathname: '/app/sign-in', search: search.toString() }}
          >
            Sign in
          </Link>
        </>
      }
    >
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <TextField
          label="First name (optional)"
          name="given-name"
          autoComplete="given-name"
          value={firstName}
          maxLength={100}
          onChange={(event) => setFirstName(event.target.value)}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          error={emailError}
          onBlur={() => setEmailLeft(true)}
          onChange={(event) => {
            setEmail(event.target.value);
            setEmailTaken(false);
          }}
        />
        <NewPasswordFields value={passwords} onChange={setPasswords} showErrors={submitted} />
        <label className="flex items-start gap-2 text-sm text-fg-muted">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-accent"
            checked={updates}
            onChange={(event) => setUpdates(event.target.checked)}
          />
          Email me product updates. You can opt out at any time.
        </label>
        {emailTaken && (
          <FormMessage>
            An account with this email already exists.{' '}
            <Link
              className="font-medium underline"
              to={{ pathname: '/app/sign-in', search: search.toString() }}
            >
              Sign in instead
            </Link>
          </FormMessage>
        )}
        {error && <FormMessage>{error}</FormMessage>}
        <Button type="submit" aria-disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </Button>
      </form>
    </AuthLayout>
  );
}

import { isMfaChallenge, type SessionResponse } from '@parla/contracts';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { signIn } from '../features/auth/api/sign-in';
import { signInWithBackupCode } from '../features/auth/api/sign-in-with-backup-code';
import { signInWithCode } from '../features/auth/api/sign-in-with-code';
import { AuthLayout } from '../features/auth/components/auth-layout';
import { useAfterSignInPath } from '../features/onboarding/use-after-sign-in-path';
import { readCachedUser } from '../features/users/cached-user';
import { useAuth } from '../lib/auth/auth-provider';
import { getToastMessage, isHttpError } from '../lib/http-error';
import { acceptSession } from '../lib/session-refresh';
import { Button } from '../ui/button';
import { FormMessage, TextField } from '../ui/field';

type Step = { name: 'password' } | { name: 'code'; mfaToken: string } | { name: 'backup'; mfaToken: string };

/** `/app/sign-in`: email and password, then the authenticator code for an account with a second factor. */
export default function SignInPage() {
  const { status, signingOut } = useAuth();
  const [search] = useSearchParams();
  // accounts §2: a new account takes the onboarding survey first.
  const landing = useAfterSignInPath(search);
  const [step, setStep] = useState<Step>({ name: 'password' });
  // accounts §3 cached user: after a session lapsed (no sign-out), the email is filled in.
  const [email, setEmail] = useState(() => readCachedUser()?.email ?? '');
  const [emailKnown] = useState(() => email !== '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  // Signed in (now, or already): on to the page asked for. Waiting for the state, rather than navigating
  // right after the call, lets the next page see the user as signed in.
  // A sign-out keeps the state signed in for its 1 s delay (accounts §4) while it brings the user here.
  if (status === 'signedIn' && !signingOut) return <Navigate to={landing} replace />;

  const finish = (session: SessionResponse) => acceptSession(session);
  const backToPassword = (message?: string) => {
    setCode('');
    setError(message);
    setStep({ name: 'password' });
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      // The second step's token lasts 5 minutes: past that, start over with the password.
      if (step.name !== 'password' && isHttpError(caught) && caught.errorType === 'unauthorized') {
        backToPassword(getToastMessage(caught));
      } else {
        setError(getToastMessage(caught));
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void run(async () => {
      if (step.name === 'password') {
        const answer = await signIn({ email, password });
        if (isMfaChallenge(answer)) setStep({ name: 'code', mfaToken: answer.mfa_token });
        else finish(answer);
      } else if (step.name === 'code') {
        finish(await signInWithCode({ mfa_token: step.mfaToken, code }));
      } else {
        const session = await signInWithBackupCode(step.mfaToken, code.trim());
        if (session) finish(session);
      }
    });
  };

  if (step.name !== 'password') {
    const backup = step.name === 'backup';
    return (
      <AuthLayout
        title="Two-factor authentication"
        subtitle={
          backup
            ? 'Enter your backup code. It turns two-factor authentication off, so set it up again after signing in.'
            : 'Enter the 6-digit code from your authenticator app.'
        }
      >
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <TextField
            key={step.name}
            label={backup ? 'Backup code' : 'Authentication code'}
            name="code"
            autoComplete="one-time-code"
            inputMode={backup ? 'text' : 'numeric'}
            autoFocus
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          {error && <FormMessage>{error}</FormMessage>}
          <Button type="submit" aria-disabled={busy}>
            {busy ? 'Checking…' : 'Sign in'}
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setCode('');
              setError(undefined);
              setStep(
                backup
                  ? { name: 'code', mfaToken: step.mfaToken }
                  : { name: 'backup', mfaToken: step.mfaToken },
              );
            }}
          >
            {backup ? 'Use the authenticator app instead' : 'Lost your device? Use a backup code'}
          </Button>
          <Button variant="ghost" onClick={() => backToPassword()}>
            Back
          </Button>
        </form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign in to Parla"
      footer={
        <>
          Don't have an account?{' '}
          <Link
            className="font-medium text-accent hover:underline"
            to={{ pathname: '/app/sign-up', search: search.toString() }}
          >
            Sign up
          </Link>
        </>
      }
    >
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          autoFocus={!emailKnown}
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          autoFocus={emailKnown}
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="-mt-2 text-right text-sm">
          <Link className="text-accent hover:underline" to="/app/sign-in/forgot-password">
            Forgot password?
          </Link>
        </div>
        {error && <FormMessage>{error}</FormMessage>}
        <Button type="submit" aria-disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthLayout>
  );
}

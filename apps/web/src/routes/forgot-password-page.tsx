import { EmailAddress } from '@parla/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { sendPasswordResetEmail } from '../features/auth/api/send-password-reset-email';
import { AuthLayout } from '../features/auth/components/auth-layout';
import { passwordResetRequestFailed } from '../features/auth/messages';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { FormMessage, TextField } from '../ui/field';

/** `/app/sign-in/forgot-password`: mails a reset link that opens the account-action page. */
export default function ForgotPasswordPage() {
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [emailError, setEmailError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!EmailAddress.safeParse(email).success) {
      setEmailError('Enter the email address of your account.');
      return;
    }
    setBusy(true);
    try {
      await sendPasswordResetEmail(email.trim(), '/app/sign-in');
      setSentTo(email.trim());
    } catch {
      toast({ title: passwordResetRequestFailed, variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="Enter the email of your account and we'll send you a link to choose a new password."
      footer={
        <Link className="font-medium text-accent hover:underline" to="/app/sign-in">
          Back to sign in
        </Link>
      }
    >
      {sentTo ? (
        <FormMessage tone="success">
          If an account exists for {sentTo}, we sent it a link to reset the password. It works for one hour.
        </FormMessage>
      ) : (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            autoFocus
            required
            value={email}
            error={emailError}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(undefined);
            }}
          />
          <Button type="submit" aria-disabled={busy}>
            {busy ? 'Sending…' : 'Send reset link'}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

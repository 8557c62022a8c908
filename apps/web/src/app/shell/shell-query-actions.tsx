import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { updateEmail } from '../../features/account/api/update-email';
import { verifySensitiveActionCode } from '../../features/account/api/verify-sensitive-action-code';
import { emailAccessVerifiedMessage, emailUpdateFailed } from '../../features/account/sensitive-action';
import { TrainingOptOutDialogController } from '../../features/consent/components/workspace-training-opt-out';
import { useAuth } from '../../lib/auth/auth-provider';
import { getToastMessage } from '../../lib/http-error';
import { removeStorage, storageKeys, writeStorage } from '../../lib/storage-keys';
import { useToast } from '../../lib/toasts/use-toast';

/**
 * The app shell's query parameters (accounts §2): `internalCode` with `newUser=false` runs the
 * sensitive-action verification once signed in, then goes to the root; `isReverting=true` runs the email
 * revert at once, signed in or not; `training_opt_out=true` sets a flag that opens the data-training dialog
 * once the workspace's data arrives (after sign-in). The parameters leave the address bar once handled.
 */
export function ShellQueryActions() {
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { status, signOut } = useAuth();
  const { toast, toastError } = useToast();
  const handled = useRef<string | null>(null);

  const internalCode = search.get('internalCode');
  const isReverting = search.get('isReverting') === 'true';
  const newUser = search.get('newUser');
  const onLandingPage = location.pathname === '/auth/action';
  const trainingOptOut = search.get('training_opt_out') === 'true';
  const [trainingOptOutRequested, setTrainingOptOutRequested] = useState(false);

  useEffect(() => {
    if (!trainingOptOut) return;
    setTrainingOptOutRequested(true);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('training_opt_out');
        return next;
      },
      { replace: true },
    );
  }, [trainingOptOut, setSearch]);

  useEffect(() => {
    if (!internalCode || onLandingPage || handled.current === internalCode) return;
    if (isReverting) {
      handled.current = internalCode;
      updateEmail(internalCode, true).then(
        (answer) => {
          toast({
            title: `Your email is ${answer.email} again.`,
            description: 'Every sign-in of the account has ended. Sign in again.',
            variant: 'success',
          });
          void signOut();
        },
        (error: unknown) => {
          toast({ title: emailUpdateFailed(getToastMessage(error)), variant: 'error' });
          void navigate('/', { replace: true });
        },
      );
      return;
    }
    if (newUser !== 'false' || status !== 'signedIn') return;
    handled.current = internalCode;
    verifySensitiveActionCode(internalCode).then(
      () => {
        writeStorage(storageKeys.sensitiveActionCode, internalCode);
        toast({ title: emailAccessVerifiedMessage, variant: 'success' });
        void navigate('/', { replace: true });
      },
      (error: unknown) => {
        removeStorage(storageKeys.sensitiveActionCode);
        toastError(error);
        void navigate('/', { replace: true });
      },
    );
  }, [internalCode, isReverting, newUser, status, onLandingPage, navigate, signOut, toast, toastError]);

  return (
    <TrainingOptOutDialogController
      open={trainingOptOutRequested && status === 'signedIn'}
      onDone={() => setTrainingOptOutRequested(false)}
    />
  );
}

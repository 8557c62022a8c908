import { bipaTerms } from '@parla/contracts';
import { useAuth } from '../../../lib/auth/auth-provider';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { SpinnerIcon } from '../../../ui/icons';
import { useAcceptBipaTerms } from '../api/accept-bipa-terms';

/**
 * accounts §4 biometric terms: a user in the Illinois region accepts the updated terms (voice data, privacy
 * policy, terms of service, effective May 31, 2024) before continuing. The dialog cannot be dismissed; the
 * only other way out is signing out. The server refuses voice calls until then (`bipa_terms_required`).
 */
export function BipaTermsDialog({ open }: { open: boolean }) {
  const accept = useAcceptBipaTerms();
  const { signOut, signingOut } = useAuth();
  const { toastError } = useToast();
  return (
    <Dialog
      open={open}
      // Escape and the overlay do nothing: continuing needs the acceptance.
      onOpenChange={() => undefined}
      title={bipaTerms.title}
      description={bipaTerms.text}
      footer={
        <>
          <Button variant="secondary" disabled={signingOut} onClick={() => void signOut()}>
            Sign out
          </Button>
          <Button
            disabled={accept.isPending}
            aria-busy={accept.isPending}
            onClick={() => accept.mutate(undefined, { onError: toastError })}
          >
            {accept.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
            {bipaTerms.accept}
          </Button>
        </>
      }
    >
      <ul className="list-disc pl-5 text-sm text-fg-muted">
        <li>Voice data terms</li>
        <li>Privacy policy</li>
        <li>Terms of service</li>
      </ul>
    </Dialog>
  );
}

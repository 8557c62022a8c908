import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { useUpdateConsent } from '../api/update-consent';

/** The banner's text (accounts §4 analytics consent). */
export const analyticsConsentCopy = {
  label: 'Cookie consent',
  text: 'Parla would like to use analytics and advertising cookies to learn how the app is used. You can change your choice later in Settings.',
  accept: 'Accept',
  decline: 'Decline',
} as const;

/**
 * Asks an undecided user (accounts §4: a region where analytics and ads are denied until asked) to accept or
 * decline; the choice is stored and the banner goes. Not modal: the page stays usable meanwhile.
 */
export function AnalyticsConsentBanner() {
  const update = useUpdateConsent();
  const { toastError } = useToast();
  const choose = (choice: 'granted' | 'denied') => {
    if (update.isPending) return;
    update.mutate({ analytics_consent: choice }, { onError: toastError });
  };
  return (
    <section
      aria-label={analyticsConsentCopy.label}
      className="fixed right-4 bottom-[calc(var(--parla-player-offset,0px)+1rem)] left-4 z-40 mx-auto flex max-w-3xl flex-col gap-3 rounded-xl border border-line bg-surface p-4 text-sm shadow-lg sm:flex-row sm:items-center"
    >
      <p className="flex-1 text-fg-muted">{analyticsConsentCopy.text}</p>
      <div className="flex gap-2">
        <Button variant="secondary" aria-disabled={update.isPending} onClick={() => choose('denied')}>
          {analyticsConsentCopy.decline}
        </Button>
        <Button aria-disabled={update.isPending} onClick={() => choose('granted')}>
          {analyticsConsentCopy.accept}
        </Button>
      </div>
    </section>
  );
}

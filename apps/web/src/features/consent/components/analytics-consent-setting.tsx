import { useToast } from '../../../lib/toasts/use-toast';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { useConsent } from '../api/get-consent';
import { useUpdateConsent } from '../api/update-consent';

/** The analytics consent as a switch on the settings page: what the banner asked, changeable any time. */
export function AnalyticsConsentSetting() {
  const { data } = useConsent();
  const update = useUpdateConsent();
  const { toastError } = useToast();
  if (!data) return <Skeleton className="h-10 w-full" />;
  const { state, analytics_storage } = data.analytics;
  return (
    <Switch
      label="Allow analytics and advertising cookies"
      description={
        state === 'not_applicable' || state === 'undecided'
          ? 'You have not chosen yet; this is the default where you are.'
          : undefined
      }
      checked={analytics_storage === 'granted'}
      disabled={update.isPending}
      onCheckedChange={(allowed) =>
        update.mutate({ analytics_consent: allowed ? 'granted' : 'denied' }, { onError: toastError })
      }
    />
  );
}

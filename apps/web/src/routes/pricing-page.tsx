import { Link } from 'react-router';
import { useBillingOverview } from '../features/billing/api/get-billing-overview';
import { useSubscription } from '../features/billing/api/get-subscription';
import { PlanPicker } from '../features/billing/components/plan-picker';
import { useAuth } from '../lib/auth/auth-provider';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/** accounts §4: visitors sign up first, then come back here. */
export const pricingSignUpHref = `/app/sign-up?redirect=${encodeURIComponent('/pricing')}`;

/** `/pricing` (accounts §2 marketing path): the plan offers, for visitors and for signed-in workspaces. */
export default function PricingPage() {
  const { status } = useAuth();
  const signedIn = status === 'signedIn';
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-10 px-4 py-12 sm:px-6 lg:py-16">
      <header className="mx-auto flex max-w-2xl flex-col items-center gap-3 text-center">
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Plans and pricing</h1>
        <p className="text-lg text-fg-muted">
          Start free, then pick the credits your voice work needs. Change or cancel your plan at any time.
        </p>
        {signedIn && (
          <Link className="text-sm font-medium text-accent hover:underline" to="/app/subscription">
            Manage your subscription
          </Link>
        )}
      </header>
      {status === 'unknown' ? <PlansSkeleton /> : signedIn ? <SignedInPlans /> : <VisitorPlans />}
    </div>
  );
}

function VisitorPlans() {
  return <PlanPicker subscription={null} overview={undefined} signUpHref={pricingSignUpHref} />;
}

function SignedInPlans() {
  const subscription = useSubscription();
  const overview = useBillingOverview();
  if (subscription.isPending || overview.isPending) return <PlansSkeleton />;
  if (subscription.isError) {
    return <LoadError error={subscription.error} onRetry={() => void subscription.refetch()} />;
  }
  // Without the overview the cards still work; only the scheduled downgrade and isolation are unknown.
  return (
    <PlanPicker subscription={subscription.data} overview={overview.data} signUpHref={pricingSignUpHref} />
  );
}

function PlansSkeleton() {
  return (
    <div className="flex flex-col gap-6" aria-busy="true">
      <p className="sr-only">Loading plans…</p>
      <Skeleton className="mx-auto h-9 w-64" />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
          <Skeleton key={key} className="h-96 w-full rounded-xl" />
        ))}
      </div>
    </div>
  );
}

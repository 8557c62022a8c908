import { useId } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useReferralLink } from '../features/growth/api/get-referral-link';
import { useReferrals } from '../features/growth/api/get-referrals';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader } from '../ui/card';
import { inputClasses } from '../ui/field';
import { CopyIcon } from '../ui/icons';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/** `/app/affiliates` (accounts §2): the user's referral link and the accounts it brought. */
export default function AffiliatesPage() {
  return (
    <RequireSignIn>
      <Affiliates />
    </RequireSignIn>
  );
}

function ReferralLinkCard() {
  const link = useReferralLink();
  const { toast } = useToast();
  const inputId = useId();

  const handleCopy = async (text: string) => {
    try {
      if (!navigator.clipboard) throw new Error('The clipboard is not available.');
      await navigator.clipboard.writeText(text);
      toast({ title: 'Link copied to clipboard', variant: 'success' });
    } catch {
      toast({ title: 'The link could not be copied. Select it and copy it yourself.', variant: 'error' });
    }
  };

  return (
    <Card>
      <CardHeader>
        <h2 className="font-semibold">Your referral link</h2>
      </CardHeader>
      <CardContent>
        {link.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : link.isError ? (
          <LoadError error={link.error} onRetry={() => void link.refetch()} />
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor={inputId} className="sr-only">
              Your referral link
            </label>
            <input
              id={inputId}
              readOnly
              value={link.data.referral_link}
              onFocus={(event) => event.currentTarget.select()}
              className={`${inputClasses} font-mono`}
            />
            <Button variant="secondary" onClick={() => void handleCopy(link.data.referral_link)}>
              <CopyIcon />
              Copy link
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function ReferralsCard() {
  const referrals = useReferrals();
  return (
    <Card>
      <CardHeader>
        <h2 className="font-semibold">Accounts referred</h2>
      </CardHeader>
      <CardContent>
        {referrals.isPending ? (
          <Skeleton className="h-10 w-24" />
        ) : referrals.isError ? (
          <LoadError error={referrals.error} onRetry={() => void referrals.refetch()} />
        ) : (
          <p>
            <span className="text-3xl font-semibold tabular-nums">
              {referrals.data.count.toLocaleString('en-US')}
            </span>{' '}
            <span className="text-fg-muted">
              {referrals.data.count === 1 ? 'account has' : 'accounts have'} signed up through your link
            </span>
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function Affiliates() {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header>
        <h1 className="text-3xl font-semibold tracking-tight">Affiliates</h1>
        <p className="mt-1 max-w-xl text-fg-muted">
          Share your link with people who might like Parla. This server records who signed up through it.
        </p>
      </header>
      <ReferralLinkCard />
      <ReferralsCard />
      <Card>
        <CardHeader>
          <h2 className="font-semibold">How it works here</h2>
        </CardHeader>
        <CardContent>
          <ul className="flex list-disc flex-col gap-2 pl-5 text-sm text-fg-muted">
            <li>
              When someone opens your link, their browser keeps your code in a cookie for 90 days. If they
              create an account on this Parla server within that time, the account records that you referred
              it.
            </li>
            <li>
              An account counts once, when it signs up. Nobody can refer themselves, and you see how many
              accounts you referred, not who they are.
            </li>
            <li>
              A visit from a paid ad takes precedence: the referral cookie is removed two seconds after such a
              visit, so that sign-up is not counted for you.
            </li>
            <li>
              Parla itself pays no commission, credits or payouts for referrals. If the people who run this
              server offer a reward, they decide how it works and will tell you.
            </li>
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}

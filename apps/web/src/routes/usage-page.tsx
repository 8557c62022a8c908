import { tierDisplayNames } from '@parla/contracts';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useSubscription } from '../features/billing/api/get-subscription';
import { CreditsMeter } from '../features/billing/components/credits-meter';
import { creditsSummary } from '../features/billing/subscription-summary';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { useCharacterStats } from '../features/usage/api/get-character-stats';
import { useConversationUsage } from '../features/usage/api/get-conversation-usage';
import { UsageChart, UsageTable } from '../features/usage/components/usage-chart';
import { buildUsageChart, otherSeriesKey, usageWindow } from '../features/usage/usage-chart-rules';
import { formatDate, fromUnixSeconds } from '../lib/format-date';
import { getToastMessage } from '../lib/http-error';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader } from '../ui/card';
import { FormMessage } from '../ui/field';
import { LoadError } from '../ui/load-error';
import { SegmentedControl } from '../ui/segmented-control';
import { Skeleton } from '../ui/skeleton';

type Range = '7' | '30' | '90';
type Breakdown = 'none' | 'model' | 'voice';

const rangeOptions = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
] as const;
const breakdownOptions = [
  { value: 'none', label: 'Total' },
  { value: 'model', label: 'By model' },
  { value: 'voice', label: 'By voice' },
] as const;

const numbers = new Intl.NumberFormat('en-US');

/**
 * `/app/developers/usage` (accounts §2; issue 26 item 7: `/app/usage` leads here): credits used per day, by
 * model or voice, against the plan's quota.
 */
export default function UsagePage() {
  return (
    <RequireSignIn>
      <Usage />
    </RequireSignIn>
  );
}

function Usage() {
  const [range, setRange] = useState<Range>('30');
  const [breakdown, setBreakdown] = useState<Breakdown>('none');
  // One "now" per range, so the query key holds still between renders.
  const timeWindow = useMemo(() => usageWindow(Number(range), Date.now()), [range]);
  const stats = useCharacterStats({ ...timeWindow, breakdown_type: breakdown, aggregation_interval: 'day' });
  const models = useModels();
  const voices = useVoices();
  const chart = useMemo(() => (stats.data ? buildUsageChart(stats.data) : null), [stats.data]);

  const labelOf = (key: string) => {
    if (key === otherSeriesKey) return 'Other';
    if (key === 'All') return 'Credits';
    if (breakdown === 'model') return models.data?.find((m) => m.model_id === key)?.name ?? key;
    if (breakdown === 'voice') return voices.data?.find((v) => v.voice_id === key)?.name ?? key;
    return key;
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 sm:px-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-semibold tracking-tight">Usage</h1>
        <p className="text-fg-muted">The credits your workspace spent, day by day.</p>
      </header>

      <QuotaCard />
      <ConversationMinutesCard />

      <Card aria-labelledby="usage-chart-title">
        <CardHeader className="flex-wrap items-center">
          <div>
            <h2 id="usage-chart-title" className="text-base font-semibold">
              Credits per day
            </h2>
            {chart && (
              <p className="mt-1 text-sm text-fg-muted">
                <span className="font-medium text-fg tabular-nums">{numbers.format(chart.total)}</span>{' '}
                credits in the last {range} days
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <SegmentedControl
              label="Breakdown"
              options={breakdownOptions}
              value={breakdown}
              onChange={setBreakdown}
            />
            <SegmentedControl label="Range" options={rangeOptions} value={range} onChange={setRange} />
          </div>
        </CardHeader>
        <CardContent aria-busy={stats.isFetching || undefined}>
          {stats.isPending ? (
            <Skeleton className="h-64 w-full" />
          ) : stats.isError ? (
            <LoadError error={stats.error} onRetry={() => void stats.refetch()} />
          ) : !chart || chart.total === 0 ? (
            <div className="flex flex-col items-center gap-2 py-12 text-center">
              <p className="font-medium">No credits used in the last {range} days</p>
              <p className="max-w-sm text-sm text-fg-muted">
                Generate speech and your usage shows up here the same day.
              </p>
              <Button asChild variant="secondary" className="mt-2">
                <Link to="/app/speech-synthesis/text-to-speech">Go to text to speech</Link>
              </Button>
            </div>
          ) : (
            <div className="flex flex-col gap-4">
              <UsageChart chart={chart} labelOf={labelOf} />
              <details className="group rounded-lg border border-line">
                <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-fg-muted hover:text-fg">
                  Show the numbers as a table
                </summary>
                <UsageTable chart={chart} labelOf={labelOf} />
              </details>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The plan's quota this period (accounts §9: used and remaining, -1 unlimited). */
function QuotaCard() {
  const subscription = useSubscription();
  if (subscription.isPending) return <Skeleton className="h-32 w-full rounded-xl" />;
  if (subscription.isError) return <FormMessage>{getToastMessage(subscription.error)}</FormMessage>;
  const data = subscription.data;
  const credits = creditsSummary(data.character_count, data.character_limit);
  return (
    <Card aria-labelledby="quota-title">
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="quota-title" className="text-base font-semibold">
            {tierDisplayNames[data.tier]} plan quota
          </h2>
          <Link className="text-sm font-medium text-accent hover:underline" to="/app/subscription">
            Manage subscription
          </Link>
        </div>
        <p className="text-sm">
          <span className="text-2xl font-semibold tabular-nums">{credits.used}</span>
          <span className="text-fg-muted"> / {credits.limit} credits used</span>
          <span className="text-fg-muted"> · {credits.remaining} remaining</span>
        </p>
        {credits.percentUsed !== null && <CreditsMeter percentUsed={credits.percentUsed} />}
        {data.next_character_count_reset_unix && (
          <p className="text-sm text-fg-muted">
            Resets on {formatDate(fromUnixSeconds(data.next_character_count_reset_unix))}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/** Conversation minutes with agents this period (accounts §9: each started minute counted). */
function ConversationMinutesCard() {
  const usage = useConversationUsage();
  if (usage.isPending) return <Skeleton className="h-24 w-full rounded-xl" />;
  if (usage.isError) return <FormMessage>{getToastMessage(usage.error)}</FormMessage>;
  const u = usage.data;
  const percent = u.minutes_limit > 0 ? Math.min(100, (u.minutes_used / u.minutes_limit) * 100) : null;
  return (
    <Card aria-labelledby="conversation-minutes-title">
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="conversation-minutes-title" className="text-base font-semibold">
            Conversation minutes
          </h2>
          <Link
            className="text-sm font-medium text-accent hover:underline"
            to="/app/conversational-ai/history"
          >
            Call history
          </Link>
        </div>
        <p className="text-sm">
          <span className="text-2xl font-semibold tabular-nums">{numbers.format(u.minutes_used)}</span>
          <span className="text-fg-muted"> / {numbers.format(u.minutes_limit)} minutes used</span>
          {u.extra_minutes > 0 && (
            <span className="text-fg-muted"> · {numbers.format(u.extra_minutes)} extra</span>
          )}
        </p>
        {percent !== null && <CreditsMeter percentUsed={percent} />}
        <p className="text-sm text-fg-muted">
          Each started minute of a conversation with an agent counts.{' '}
          {u.extra_minutes_allowed
            ? 'Past the plan’s minutes, conversations go on as extra minutes.'
            : 'Past the plan’s minutes, new conversations are refused until the period resets.'}{' '}
          {numbers.format(u.open_conversations)} of {numbers.format(u.concurrency_limit)} conversations open
          now.
        </p>
      </CardContent>
    </Card>
  );
}

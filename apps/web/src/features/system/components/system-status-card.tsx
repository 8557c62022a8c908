import type { HealthResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { getToastMessage } from '../../../lib/http-error';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardHeader } from '../../../ui/card';
import { AlertCircleIcon, RefreshIcon } from '../../../ui/icons';
import { Skeleton } from '../../../ui/skeleton';
import { useHealth } from '../api/get-health';
import { formatUptime } from '../format-uptime';

type HealthCheck = HealthResponse['checks']['database'] & {
  queue_length?: number;
  oldest_wait_ms?: number;
};

const checkRows: ReadonlyArray<{ key: keyof HealthResponse['checks']; label: string; hint: string }> = [
  { key: 'database', label: 'Database', hint: 'Stores accounts, history and the job queue' },
  { key: 'engines', label: 'Speech engines', hint: 'Synthesis and recognition workers' },
];

/**
 * The answering process's role in words, or nothing for the usual one (`all`: one process does everything;
 * issue 26 item 7: "role all" meant nothing to a reader).
 */
export function describeRole(role: HealthResponse['role']): string | undefined {
  if (role === 'api') return 'web and API process';
  if (role === 'worker') return 'background worker';
  return undefined;
}

/** Latency in whole milliseconds, "<1 ms" for the fast ones. */
function formatLatency(ms: number): string {
  return ms < 1 ? '<1 ms' : `${Math.round(ms)} ms`;
}

/** The engines' queue, when syntheses wait for an engine: "3 waiting · oldest 1.2 s". */
export function formatQueue(check: HealthCheck): string | undefined {
  if (!check.queue_length) return undefined;
  return `${check.queue_length} waiting · oldest ${((check.oldest_wait_ms ?? 0) / 1000).toFixed(1)} s`;
}

function CheckRow({ label, hint, check }: { label: string; hint: string; check: HealthCheck }) {
  // A failing check's message says what is wrong; a working one adds its queue, if any.
  const queue = check.ok ? formatQueue(check) : undefined;
  return (
    <li className="flex items-center gap-4 py-3">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium">{label}</p>
        <p className="truncate text-sm text-fg-muted">
          {check.message ?? (check.ok ? hint : 'Not responding')}
          {queue ? ` · ${queue}` : ''}
        </p>
      </div>
      <span className="text-sm text-fg-muted tabular-nums" title="Time the check took">
        {formatLatency(check.latency_ms)}
      </span>
      <Badge tone={check.ok ? 'success' : 'danger'} dot className="w-16 justify-center">
        {check.ok ? 'ok' : 'down'}
      </Badge>
    </li>
  );
}

/**
 * The model store in one row (issue 27 item 1): how many models are available and, for each one that is
 * not, why (missing, partial download, wrong size, checksum mismatch). Nothing when the server lists none.
 */
export function describeModels(
  models: HealthResponse['models'],
): { ok: boolean; summary: string; detail: string | undefined } | undefined {
  if (models.length === 0) return undefined;
  const unavailable = models.filter((m) => !m.available);
  return {
    ok: unavailable.length === 0,
    summary: `${models.length - unavailable.length} of ${models.length} available`,
    detail:
      unavailable.length > 0
        ? unavailable.map((m) => `${m.id}: ${m.reason ?? 'unavailable'}`).join(' · ')
        : undefined,
  };
}

function ModelsRow({ models }: { models: HealthResponse['models'] }) {
  const described = describeModels(models);
  if (!described) return null;
  const text = [described.summary, described.detail].filter(Boolean).join(' · ');
  return (
    <li className="flex items-center gap-4 py-3">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium">Models</p>
        <p className="truncate text-sm text-fg-muted" title={text}>
          {text}
        </p>
      </div>
      {/* An unavailable model is not an outage: the rest of the server works without it. */}
      <Badge tone={described.ok ? 'success' : 'warning'} dot className="w-16 justify-center">
        {described.ok ? 'ok' : 'partial'}
      </Badge>
    </li>
  );
}

function LoadingRows() {
  return (
    <ul className="divide-y divide-line" aria-hidden="true">
      {checkRows.map((row) => (
        <li key={row.key} className="flex items-center gap-4 py-3">
          <div className="flex-1 space-y-2">
            <Skeleton className="h-3.5 w-28" />
            <Skeleton className="h-3.5 w-52 max-w-full" />
          </div>
          <Skeleton className="h-5 w-16 rounded-full" />
        </li>
      ))}
    </ul>
  );
}

/** A live card of `GET /health`: the database and engine checks with ok/down badges and latency. */
export function SystemStatusCard() {
  const { data, error, isPending, isError, isFetching, refetch } = useHealth();
  const healthy = data?.status === 'ok';

  return (
    <Card aria-labelledby="system-status-title" aria-busy={isPending}>
      <CardHeader>
        <div className="min-w-0">
          <h2 id="system-status-title" className="text-base font-semibold">
            System status
          </h2>
          <p className="mt-0.5 text-sm text-fg-muted">
            {data
              ? [
                  `Version ${data.version}`,
                  describeRole(data.role),
                  `up ${formatUptime(data.uptime_seconds)}`,
                ]
                  .filter(Boolean)
                  .join(' · ')
              : 'Live from this server'}
          </p>
        </div>
        <div className="flex items-center gap-2">
          {/* The one polite live region: only the overall verdict, which changes rarely. The check rows
              refresh every 30 s with new latencies and would be read out each time. */}
          <div aria-live="polite" aria-atomic="true">
            {data && (
              <Badge tone={healthy ? 'success' : 'warning'} dot>
                {healthy ? 'Operational' : 'Degraded'}
              </Badge>
            )}
          </div>
          {/* aria-disabled, not disabled: a background refresh must not drop the keyboard focus or take the
              button out of the tab order; a click while fetching is ignored instead. */}
          <Button
            variant="ghost"
            size="icon"
            className="size-8 text-base"
            aria-label="Check again"
            title="Check again"
            aria-disabled={isFetching}
            onClick={() => {
              if (!isFetching) void refetch();
            }}
          >
            <RefreshIcon className={clsx(isFetching && 'motion-safe:animate-spin')} />
          </Button>
        </div>
      </CardHeader>
      <CardContent className="py-1">
        {isPending && <LoadingRows />}
        {/* The error texts are alerts of their own (announced once, when they appear); no live region
            around them, so nothing is read twice. */}
        {isError && !data && (
          <div role="alert" className="flex items-start gap-3 py-4">
            <AlertCircleIcon className="mt-0.5 shrink-0 text-lg text-danger" />
            <div className="grid gap-1">
              <p className="text-sm font-medium">Status unavailable</p>
              <p className="text-sm text-fg-muted">{getToastMessage(error)}</p>
            </div>
          </div>
        )}
        {isError && data && (
          <p role="alert" className="pt-3 text-sm text-danger">
            Could not refresh: {getToastMessage(error)}
          </p>
        )}
        {data && (
          <ul className="divide-y divide-line">
            {checkRows.map((row) => (
              <CheckRow key={row.key} label={row.label} hint={row.hint} check={data.checks[row.key]} />
            ))}
            <ModelsRow models={data.models} />
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

import type { ConvAiDailyAnalytics } from '@parla/contracts';
import { useId } from 'react';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useDailyAnalytics, useLiveCount } from '../api/convai-settings';

/** The days the overview shows. */
export const ANALYTICS_DAYS = 14;

const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** One chart of the dashboard settings, as a sentence and a bar of its share. */
function ChartFigure({ chart }: { chart: ConvAiDailyAnalytics['charts'][number] }) {
  const counted = chart.type === 'data_collection' ? chart.collected : chart.success;
  const share = chart.analysed > 0 ? Math.round((counted / chart.analysed) * 100) : 0;
  const sentence =
    chart.analysed === 0
      ? 'No analysed conversations yet.'
      : chart.type === 'data_collection'
        ? `Collected in ${chart.collected} of ${chart.analysed} analysed conversations.`
        : `${chart.success} succeeded, ${chart.failure} failed, ${chart.unknown} unknown of ${chart.analysed} analysed.`;
  return (
    <li className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium">{chart.name}</span>
        <span className="tabular-nums text-fg-muted">{chart.analysed > 0 ? `${share}%` : '—'}</span>
      </div>
      <div className="h-1.5 overflow-hidden rounded-full bg-line" aria-hidden="true">
        <div className="h-full rounded-full bg-accent" style={{ width: `${share}%` }} />
      </div>
      <p className="text-xs text-fg-muted">{sentence}</p>
    </li>
  );
}

/**
 * The settings page's overview: conversations in progress now (asked again every 15 s), conversations and
 * minutes per day over the last two weeks, and the figures of the dashboard's charts.
 */
export function ConvaiAnalytics() {
  const id = useId();
  const live = useLiveCount();
  const daily = useDailyAnalytics(ANALYTICS_DAYS);
  const days = daily.data?.days ?? [];
  const most = Math.max(1, ...days.map((d) => d.conversations));
  const totalConversations = days.reduce((n, d) => n + d.conversations, 0);
  const totalMinutes = days.reduce((n, d) => n + d.minutes, 0);
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <div className="flex max-w-2xl flex-col gap-1">
        <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
          Overview
        </h2>
        <p className="text-sm text-fg-muted">
          Conversations with the workspace’s agents over the last {ANALYTICS_DAYS} days (UTC days).
        </p>
      </div>
      <div className="grid grid-cols-3 gap-2 sm:gap-4">
        <div className="flex min-w-0 flex-col justify-between gap-1 rounded-xl border border-line bg-surface p-3 sm:p-4">
          <span className="text-xs text-fg-muted sm:text-sm">In progress now</span>
          {live.isError ? (
            <span className="text-sm text-danger">Could not load</span>
          ) : (
            <span className="flex items-center gap-2 text-2xl font-semibold tabular-nums" aria-live="polite">
              {live.isPending ? (
                <Skeleton className="h-7 w-10" />
              ) : (
                <>
                  {live.data.count > 0 && (
                    <span
                      aria-hidden="true"
                      className="size-2 rounded-full bg-success motion-safe:animate-pulse"
                    />
                  )}
                  <span data-testid="live-count">{live.data.count}</span>
                </>
              )}
            </span>
          )}
        </div>
        <div className="flex min-w-0 flex-col justify-between gap-1 rounded-xl border border-line bg-surface p-3 sm:p-4">
          <span className="text-xs text-fg-muted sm:text-sm">Conversations</span>
          <span className="text-2xl font-semibold tabular-nums">
            {daily.isSuccess ? totalConversations : '—'}
          </span>
        </div>
        <div className="flex min-w-0 flex-col justify-between gap-1 rounded-xl border border-line bg-surface p-3 sm:p-4">
          <span className="text-xs text-fg-muted sm:text-sm">Minutes charged</span>
          <span className="text-2xl font-semibold tabular-nums">{daily.isSuccess ? totalMinutes : '—'}</span>
        </div>
      </div>
      {daily.isPending && (
        <div
          role="status"
          aria-busy="true"
          aria-label="Loading the overview"
          className="rounded-xl border border-line p-4"
        >
          <Skeleton className="h-32 w-full" />
        </div>
      )}
      {daily.isError && <LoadError error={daily.error} onRetry={() => void daily.refetch()} />}
      {daily.isSuccess && totalConversations === 0 && (
        <div className="rounded-xl border border-dashed border-line px-6 py-8 text-center text-sm text-fg-muted">
          No conversations in the last {ANALYTICS_DAYS} days. Talk to an agent and it shows here.
        </div>
      )}
      {daily.isSuccess && totalConversations > 0 && (
        <div className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4 sm:p-5">
          <figure className="flex flex-col gap-2">
            <figcaption className="text-sm font-medium">Conversations per day</figcaption>
            <div className="flex h-32 items-end gap-1" aria-hidden="true">
              {days.map((d) => (
                <div
                  key={d.date}
                  title={`${dayLabel(d.date)}: ${d.conversations} conversations, ${d.minutes} minutes`}
                  className="flex-1 rounded-t bg-accent/80"
                  style={{
                    height: `${Math.max(d.conversations > 0 ? 4 : 1, (d.conversations / most) * 100)}%`,
                  }}
                />
              ))}
            </div>
            <div className="flex justify-between text-xs text-fg-muted" aria-hidden="true">
              <span>{dayLabel(days[0]?.date ?? '')}</span>
              <span>{dayLabel(days.at(-1)?.date ?? '')}</span>
            </div>
            {/* The same figures for screen readers, day by day. */}
            <table className="sr-only">
              <caption>Conversations and minutes per day</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Conversations</th>
                  <th scope="col">Minutes</th>
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.date}>
                    <th scope="row">{dayLabel(d.date)}</th>
                    <td>{d.conversations}</td>
                    <td>{d.minutes}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </figure>
          {daily.data.charts.length > 0 && (
            <ul aria-label="Dashboard charts" className="grid gap-4 sm:grid-cols-2">
              {daily.data.charts.map((chart) => (
                <ChartFigure key={`${chart.type}:${chart.id ?? chart.name}`} chart={chart} />
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

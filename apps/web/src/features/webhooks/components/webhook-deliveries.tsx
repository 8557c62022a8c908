import { formatDate } from '../../../lib/format-date';
import { Badge } from '../../../ui/badge';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useWebhookDeliveries } from '../api/list-webhook-deliveries';
import { deliveryOutcomeOf } from '../webhook-rules';

/** One webhook's delivery log: each attempt's event, outcome, HTTP status, time taken and when. */
export function WebhookDeliveries({ webhookId, name }: { webhookId: string; name: string }) {
  const log = useWebhookDeliveries(webhookId);
  if (log.isPending) {
    return (
      <div className="flex flex-col gap-2 p-4" aria-busy="true">
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-8 w-full" />
      </div>
    );
  }
  if (log.isError) return <LoadError error={log.error} onRetry={() => void log.refetch()} className="p-4" />;
  if (log.data.deliveries.length === 0) {
    return (
      <p className="p-4 text-sm text-fg-muted">
        Nothing sent yet. Events you subscribed to appear here as they are delivered; “Send test” tries it
        now.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Delivery log of {name}, newest first</caption>
        <thead className="border-b border-line text-fg-muted">
          <tr>
            <th scope="col" className="px-4 py-2 font-medium">
              Event
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Result
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              HTTP
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Attempt
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              Time
            </th>
            <th scope="col" className="px-4 py-2 font-medium">
              When
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {log.data.deliveries.map((delivery) => {
            const outcome = deliveryOutcomeOf(delivery);
            return (
              <tr key={`${delivery.delivery_id}-${delivery.attempt}`} className="align-top">
                <td className="px-4 py-2 font-mono text-xs">{delivery.event_type}</td>
                <td className="px-4 py-2">
                  <Badge tone={outcome.tone} dot>
                    {outcome.label}
                  </Badge>
                  {delivery.error && (
                    <p className="mt-1 max-w-xs text-xs break-words text-fg-muted">{delivery.error}</p>
                  )}
                </td>
                <td className="px-4 py-2 tabular-nums">{delivery.status_code ?? '—'}</td>
                <td className="px-4 py-2 tabular-nums">{delivery.attempt}</td>
                <td className="px-4 py-2 tabular-nums whitespace-nowrap">{delivery.duration_ms} ms</td>
                <td className="px-4 py-2 whitespace-nowrap text-fg-muted">
                  {formatDate(delivery.created_at_unix * 1000)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

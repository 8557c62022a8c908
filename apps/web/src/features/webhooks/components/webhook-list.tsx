import type { WorkspaceWebhookResponse } from '@parla/contracts';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useWebhooks } from '../api/list-webhooks';
import { WebhookCard } from './webhook-card';

export interface WebhookListProps {
  canManage: boolean;
  onCreate: () => void;
  onEdit: (webhook: WorkspaceWebhookResponse) => void;
  onDelete: (webhook: WorkspaceWebhookResponse) => void;
}

/** The workspace's webhooks: loading, a retry on failure, an invitation to add the first, or the cards. */
export function WebhookList({ canManage, onCreate, onEdit, onDelete }: WebhookListProps) {
  const webhooks = useWebhooks();
  if (webhooks.isPending) {
    return (
      <Card className="flex flex-col gap-3 p-5" aria-busy="true">
        <Skeleton className="h-6 w-1/3" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </Card>
    );
  }
  if (webhooks.isError) {
    return (
      <Card>
        <LoadError error={webhooks.error} onRetry={() => void webhooks.refetch()} className="p-5" />
      </Card>
    );
  }
  if (webhooks.data.webhooks.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-3 px-5 py-12 text-center">
        <p className="font-medium">No webhooks yet</p>
        <p className="max-w-sm text-sm text-fg-muted">
          A webhook tells your server when something happens in the workspace — a transcript is ready, a key
          was made — with a signed POST.
        </p>
        {canManage ? (
          <Button variant="secondary" onClick={onCreate}>
            Add your first webhook
          </Button>
        ) : (
          <p className="text-sm text-fg-muted">Ask a workspace admin to add one.</p>
        )}
      </Card>
    );
  }
  return (
    <ul className="flex flex-col gap-4" aria-label="Webhooks">
      {webhooks.data.webhooks.map((webhook) => (
        <WebhookCard
          key={webhook.webhook_id}
          webhook={webhook}
          canManage={canManage}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      ))}
    </ul>
  );
}

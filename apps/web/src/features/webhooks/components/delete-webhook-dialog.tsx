import type { WorkspaceWebhookResponse } from '@parla/contracts';
import { useToast } from '../../../lib/toasts/use-toast';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { useDeleteWebhook } from '../api/delete-webhook';

/** Asks before deleting `webhook` (open while there is one); closes once it is gone. */
export function DeleteWebhookDialog({
  webhook,
  onClose,
}: {
  webhook: WorkspaceWebhookResponse | undefined;
  onClose: () => void;
}) {
  const { toast, toastError } = useToast();
  const remove = useDeleteWebhook();
  return (
    <ConfirmDialog
      open={webhook !== undefined}
      title={`Delete “${webhook?.name ?? ''}”?`}
      description="Its endpoint gets no more events and its delivery log goes with it. This cannot be undone."
      confirmLabel="Delete webhook"
      pending={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!webhook || remove.isPending) return;
        remove.mutate(webhook.webhook_id, {
          onSuccess: () => {
            toast({ title: `“${webhook.name}” was deleted.`, variant: 'success' });
            onClose();
          },
          onError: toastError,
        });
      }}
    />
  );
}

import type { ApiKeyResponse } from '@parla/contracts';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { useDeleteApiKey } from '../api/delete-api-key';

/** Asks before deleting `apiKey` (open while there is one); closes once it is gone. */
export function DeleteApiKeyDialog({
  apiKey,
  onClose,
}: {
  apiKey: ApiKeyResponse | undefined;
  onClose: () => void;
}) {
  const { toast, toastError } = useToast();
  const remove = useDeleteApiKey();

  const confirm = () => {
    if (!apiKey || remove.isPending) return;
    remove.mutate(apiKey.key_id, {
      onSuccess: () => {
        toast({ title: `"${apiKey.name}" was deleted.`, variant: 'success' });
        onClose();
      },
      onError: toastError,
    });
  };

  return (
    <Dialog
      open={apiKey !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={`Delete "${apiKey?.name ?? ''}"?`}
      description="Calls with this key fail from now on. This cannot be undone."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" aria-disabled={remove.isPending} onClick={confirm}>
            Delete key
          </Button>
        </>
      }
    />
  );
}

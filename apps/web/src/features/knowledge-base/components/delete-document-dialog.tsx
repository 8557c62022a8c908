import { useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { FormMessage } from '../../../ui/field';
import { useDeleteDocument } from '../api/delete-document';
import { useDependentAgents } from '../api/list-dependent-agents';

/**
 * Asks before deleting a document. One that agents use is deleted with `force` once the dialog has said
 * so (they lose it); the server refuses a document in use without it, and its message is shown here.
 */
export function DeleteDocumentDialog({
  document,
  onClose,
  onDeleted,
}: {
  document: { id: string; name: string };
  onClose: () => void;
  onDeleted: (documentId: string) => void;
}) {
  const { toast } = useToast();
  const remove = useDeleteDocument();
  // Asked afresh when the dialog opens: the list's count may be older than an agent's last save.
  const agents = useDependentAgents(document.id);
  const agentsUsingIt = agents.data?.agents.length ?? 0;
  const [failure, setFailure] = useState<string>();
  const close = () => {
    setFailure(undefined);
    onClose();
  };
  return (
    <ConfirmDialog
      open
      title={`Delete ${document.name}?`}
      description={
        agentsUsingIt > 0
          ? `${agentsUsingIt === 1 ? 'An agent uses' : `${agentsUsingIt} agents use`} this document: ${agentsUsingIt === 1 ? 'it loses' : 'they lose'} it, and the document and its passages are deleted for good.`
          : 'The document and its passages are deleted for good.'
      }
      confirmLabel="Delete"
      pending={remove.isPending || agents.isPending}
      onCancel={close}
      onConfirm={() => {
        setFailure(undefined);
        remove.mutate(
          { documentId: document.id, force: agentsUsingIt > 0 },
          {
            onSuccess: () => {
              toast({ title: 'Document deleted', variant: 'success' });
              onDeleted(document.id);
              close();
            },
            onError: (error) => setFailure(getToastMessage(error)),
          },
        );
      }}
    >
      {failure && <FormMessage>{failure}</FormMessage>}
    </ConfirmDialog>
  );
}

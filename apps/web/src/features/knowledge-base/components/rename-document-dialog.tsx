import { useToast } from '../../../lib/toasts/use-toast';
import { RenameDialog } from '../../../ui/rename-dialog';
import { useRenameDocument } from '../api/update-document';

/** Renames a document; the name is 1 to 200 characters once trimmed (the contract's rule). */
export function RenameDocumentDialog({
  document,
  onClose,
}: {
  document: { id: string; name: string };
  onClose: () => void;
}) {
  const { toast } = useToast();
  const rename = useRenameDocument();
  return (
    <RenameDialog
      title="Rename document"
      currentName={document.name}
      emptyMessage="Give the document a name."
      pending={rename.isPending}
      onRename={async (name) => {
        await rename.mutateAsync({ documentId: document.id, name });
        toast({ title: 'Document renamed', variant: 'success' });
      }}
      onClose={onClose}
    />
  );
}

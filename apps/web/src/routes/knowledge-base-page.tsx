import type { KnowledgeBaseDocumentResponse } from '@parla/contracts';
import { useState } from 'react';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import {
  AddDocumentDialog,
  DeleteDocumentDialog,
  DocumentList,
  DocumentPanel,
  formatBytes,
  RenameDocumentDialog,
  SidePanel,
  useRagOverview,
} from '../features/knowledge-base';
import { Button } from '../ui/button';

type Named = { id: string; name: string };

/**
 * `/app/conversational-ai/knowledge-base` (history/voices §2; issue 28 items 3 and 7): the documents
 * agents answer from — add them from a file, a web page or text, read what was extracted and how it was
 * split into passages, rename and delete them.
 */
export default function KnowledgeBasePage() {
  return (
    <RequireSignIn>
      <KnowledgeBase />
    </RequireSignIn>
  );
}

function KnowledgeBase() {
  const [adding, setAdding] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Named | null>(null);
  const [deleting, setDeleting] = useState<Named | null>(null);
  const overview = useRagOverview();

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Knowledge base"
        description={
          <>
            Documents your agents answer from. Each is split into passages and indexed for full-text search;
            each turn, an agent retrieves the passages that best match what was said.
            {overview.data && (
              <span className="mt-1 block tabular-nums">
                {formatBytes(overview.data.total_used_bytes)} of {formatBytes(overview.data.total_max_bytes)}{' '}
                used.
              </span>
            )}
          </>
        }
        actions={<Button onClick={() => setAdding(true)}>Add document</Button>}
      />

      <DocumentList
        onOpen={(document) => setOpenId(document.id)}
        onDelete={setDeleting}
        onAdd={() => setAdding(true)}
      />

      {adding && <AddDocumentDialog open onClose={() => setAdding(false)} onAdded={setOpenId} />}

      <SidePanel open={openId !== null} onOpenChange={(open) => !open && setOpenId(null)} title="Document">
        {openId && (
          <DocumentPanel
            documentId={openId}
            onRename={(document: KnowledgeBaseDocumentResponse) => setRenaming(document)}
            onDelete={(document: KnowledgeBaseDocumentResponse) => setDeleting(document)}
          />
        )}
      </SidePanel>

      {renaming && <RenameDocumentDialog document={renaming} onClose={() => setRenaming(null)} />}
      {deleting && (
        <DeleteDocumentDialog
          document={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={(id) => {
            if (id === openId) setOpenId(null);
          }}
        />
      )}
    </div>
  );
}

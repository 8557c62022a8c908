import type { KnowledgeBaseDocumentResponse } from '@parla/contracts';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { collectPageItems } from '../../../lib/page-items';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { LoadError } from '../../../ui/load-error';
import { PagedList } from '../../../ui/paged-list';
import { SegmentedControl } from '../../../ui/segmented-control';
import { Skeleton } from '../../../ui/skeleton';
import { useDocument } from '../api/get-document';
import { useRagIndexes } from '../api/get-rag-indexes';
import { useChunks } from '../api/list-chunks';
import { useDependentAgents } from '../api/list-dependent-agents';
import { describeIndex, extractedText, formatBytes, kbTypeLabels } from '../kb-rules';

/** The page of an agent (the agents feature's editor), linked by URL. */
export function agentPath(agentId: string): string {
  return `/app/conversational-ai/agents/${encodeURIComponent(agentId)}`;
}

type Tab = 'content' | 'chunks';
const tabOptions = [
  { value: 'content', label: 'Content' },
  { value: 'chunks', label: 'Passages' },
] as const;

/**
 * One document in the side panel: where it came from, its size, the agents that use it and its index
 * state, then its extracted text or the passages (chunks) an agent retrieves from. Rename and delete are
 * the page's dialogs.
 */
export function DocumentPanel({
  documentId,
  onRename,
  onDelete,
}: {
  documentId: string;
  onRename: (document: KnowledgeBaseDocumentResponse) => void;
  onDelete: (document: KnowledgeBaseDocumentResponse) => void;
}) {
  const document = useDocument(documentId);
  const [tab, setTab] = useState<Tab>('content');

  if (document.isPending)
    return (
      <div
        role="status"
        aria-busy="true"
        aria-label="Loading the document"
        className="flex flex-col gap-3 p-5 pt-14"
      >
        <Skeleton className="h-6 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  if (document.isError)
    return <LoadError error={document.error} onRetry={() => void document.refetch()} className="p-5 pt-14" />;

  const doc = document.data;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-col gap-3 border-b border-line p-5 pr-14">
        <div className="flex flex-col gap-1">
          <h2 className="text-lg font-semibold tracking-tight [overflow-wrap:anywhere]">{doc.name}</h2>
          <p className="text-sm text-fg-muted [overflow-wrap:anywhere]">
            {kbTypeLabels[doc.type]}
            {doc.type === 'file' && ` · ${doc.filename}`}
            {doc.type === 'url' && (
              <>
                {' · '}
                <a href={doc.url} target="_blank" rel="noreferrer noopener" className="underline">
                  {doc.url}
                </a>
              </>
            )}
            {` · ${formatBytes(doc.metadata.size_bytes)}`}
            {` · added ${formatDate(fromUnixSeconds(doc.metadata.created_at_unix_secs))}`}
          </p>
        </div>
        <IndexStatus documentId={documentId} />
        <UsedBy documentId={documentId} />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => onRename(doc)}>
            Rename
          </Button>
          <Button variant="secondary" size="sm" onClick={() => onDelete(doc)}>
            Delete
          </Button>
        </div>
      </div>
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto p-5">
        <SegmentedControl label="Show" options={tabOptions} value={tab} onChange={setTab} />
        {tab === 'content' ? <DocumentContent document={doc} /> : <DocumentChunks documentId={documentId} />}
      </div>
    </div>
  );
}

function IndexStatus({ documentId }: { documentId: string }) {
  const indexes = useRagIndexes(documentId);
  if (indexes.isPending) return <Skeleton className="h-5 w-40" />;
  if (indexes.isError) return <LoadError error={indexes.error} onRetry={() => void indexes.refetch()} />;
  const index = indexes.data.indexes[0];
  const { label, tone } = describeIndex(index);
  return (
    <div className="flex flex-col gap-1">
      <div>
        <Badge dot tone={tone}>
          {label}
        </Badge>
      </div>
      {index && <p className="text-xs text-fg-muted">{index.message}</p>}
    </div>
  );
}

function UsedBy({ documentId }: { documentId: string }) {
  const agents = useDependentAgents(documentId);
  if (!agents.isSuccess) return null;
  const list = agents.data.agents;
  if (list.length === 0) return <p className="text-sm text-fg-muted">No agent uses this document yet.</p>;
  return (
    <p className="text-sm text-fg-muted">
      Used by{' '}
      {list.map((agent, index) => (
        <span key={agent.id}>
          {index > 0 && ', '}
          <Link to={agentPath(agent.id)} className="font-medium text-fg underline">
            {agent.name}
          </Link>
        </span>
      ))}
      {agents.data.has_more && ' and more'}
    </p>
  );
}

function DocumentContent({ document }: { document: KnowledgeBaseDocumentResponse }) {
  const text = useMemo(
    () => extractedText(document.extracted_inner_html, document.content_format),
    [document.extracted_inner_html, document.content_format],
  );
  if (!text) return <p className="text-sm text-fg-muted">No text was found in this document.</p>;
  return (
    <section aria-label="Extracted content">
      <p className="mb-2 text-xs text-fg-muted">The text the server extracted, as the agent reads it.</p>
      <div className="rounded-lg border border-line bg-subtle p-4 text-sm leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere]">
        {text}
      </div>
    </section>
  );
}

function DocumentChunks({ documentId }: { documentId: string }) {
  const pages = useChunks(documentId, true);
  const chunks = useMemo(
    () =>
      collectPageItems(
        pages.data?.pages,
        (page) => page.chunks,
        (chunk) => chunk.id,
      ),
    [pages.data],
  );
  return (
    <section aria-label="Passages" className="flex flex-col gap-3">
      <p className="text-xs text-fg-muted">
        The document split into passages; each turn, the agent retrieves the ones that best match what was
        said.
      </p>
      <PagedList
        pages={{ ...pages, isPlaceholderData: false }}
        empty={chunks.length === 0}
        loading={{ label: 'Loading passages', rows: 2, lineWidths: ['w-full', 'w-2/3'] }}
        emptyClassName="gap-2 py-8"
        emptyState={<p className="text-sm text-fg-muted">This document has no passages: it holds no text.</p>}
      >
        {chunks.length > 0 && (
          <ol className="flex flex-col gap-3">
            {chunks.map((chunk, index) => (
              <li key={chunk.id} className="rounded-lg border border-line p-3">
                <p className="mb-1 text-xs font-medium text-fg-muted">
                  {chunk.name || `Passage ${index + 1}`}
                </p>
                <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{chunk.content}</p>
              </li>
            ))}
          </ol>
        )}
      </PagedList>
    </section>
  );
}

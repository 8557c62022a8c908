import type { KbDocumentType, KnowledgeBaseDocumentSummary } from '@parla/contracts';
import { clsx } from 'clsx';
import { useId, useMemo, useState } from 'react';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { collectPageItems } from '../../../lib/page-items';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { TrashIcon } from '../../../ui/icons';
import { PagedList } from '../../../ui/paged-list';
import { SearchField } from '../../../ui/search-field';
import { SegmentedControl } from '../../../ui/segmented-control';
import { useDocuments } from '../api/list-documents';
import { formatBytes, kbTypeLabels } from '../kb-rules';

/** How long typing must pause before the search goes to the server. */
const SEARCH_DEBOUNCE_MS = 300;

type TypeFilter = 'all' | Exclude<KbDocumentType, 'folder'>;
const typeOptions = [
  { value: 'all', label: 'All' },
  { value: 'file', label: 'Files' },
  { value: 'url', label: 'Web pages' },
  { value: 'text', label: 'Text' },
] as const;

/** Where a document came from, in a few words: its file, its page's host, or "Pasted text". */
function sourceOf(document: KnowledgeBaseDocumentSummary): string {
  if (document.type === 'url') {
    try {
      return new URL(document.url).host;
    } catch {
      return document.url;
    }
  }
  return document.type === 'text' ? 'Pasted text' : 'Uploaded file';
}

/**
 * The knowledge base's documents, newest first, searched by name on the server and filtered by type; each
 * row opens the document's panel, renames or deletes it. "Load more" for older ones.
 */
export function DocumentList({
  onOpen,
  onDelete,
  onAdd,
}: {
  onOpen: (document: KnowledgeBaseDocumentSummary) => void;
  onDelete: (document: KnowledgeBaseDocumentSummary) => void;
  onAdd: () => void;
}) {
  const id = useId();
  const [searchInput, setSearchInput] = useState('');
  const [type, setType] = useState<TypeFilter>('all');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const pages = useDocuments({ search, type: type === 'all' ? null : type });
  const documents = useMemo(
    () =>
      collectPageItems(
        pages.data?.pages,
        (page) => page.documents,
        (document) => document.id,
      ),
    [pages.data],
  );
  const filtered = search !== '' || type !== 'all';

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <h2 id={`${id}-heading`} className="sr-only">
        Documents
      </h2>
      <search className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <SearchField
          id={`${id}-search`}
          label="Search documents"
          value={searchInput}
          onChange={setSearchInput}
          placeholder="Search by name"
          className="md:w-72"
        />
        <div className="overflow-x-auto">
          <SegmentedControl label="Document type" options={typeOptions} value={type} onChange={setType} />
        </div>
      </search>

      <PagedList
        pages={pages}
        empty={documents.length === 0}
        loading={{ label: 'Loading documents', rows: 3, lineWidths: ['w-1/2', 'w-1/3'] }}
        emptyClassName="gap-2 py-12"
        emptyState={
          filtered ? (
            <>
              <h3 className="text-base font-semibold">No documents match</h3>
              <p className="max-w-sm text-sm text-fg-muted">
                {search ? `No document’s name holds “${search}”` : 'No document of this type'}
                {search && type !== 'all' ? ' among this type.' : '.'}
              </p>
              <Button
                variant="secondary"
                onClick={() => {
                  setSearchInput('');
                  setType('all');
                }}
              >
                Show all documents
              </Button>
            </>
          ) : (
            <>
              <h3 className="text-base font-semibold">No documents yet</h3>
              <p className="max-w-md text-sm text-fg-muted">
                Add a file, a web page or some text: an agent you give it to answers from it — prices, opening
                hours, how to return an order.
              </p>
              <Button onClick={onAdd}>Add your first document</Button>
            </>
          )
        }
      >
        {documents.length > 0 && (
          <ul
            aria-label="Documents"
            aria-busy={pages.isPlaceholderData || undefined}
            className={clsx(
              'flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface transition-opacity',
              pages.isPlaceholderData && 'opacity-60',
            )}
          >
            {documents.map((document) => (
              <DocumentRow
                key={document.id}
                document={document}
                onOpen={() => onOpen(document)}
                onDelete={() => onDelete(document)}
              />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}

function DocumentRow({
  document,
  onOpen,
  onDelete,
}: {
  document: KnowledgeBaseDocumentSummary;
  onOpen: () => void;
  onDelete: () => void;
}) {
  const agents = document.dependent_agents.length;
  const details = [
    sourceOf(document),
    formatBytes(document.metadata.size_bytes),
    formatDate(fromUnixSeconds(document.metadata.created_at_unix_secs)),
    agents > 0 ? `used by ${agents} ${agents === 1 ? 'agent' : 'agents'}` : 'not used by an agent',
  ];
  return (
    <li className="flex items-start gap-3 px-4 py-4 sm:px-5">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
          <button
            type="button"
            onClick={onOpen}
            className="min-w-0 cursor-pointer text-left font-medium text-fg [overflow-wrap:anywhere] hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            {document.name}
          </button>
          <Badge>{kbTypeLabels[document.type]}</Badge>
        </div>
        <p className="text-xs text-fg-muted tabular-nums [overflow-wrap:anywhere]">{details.join(' · ')}</p>
      </div>
      <Button variant="ghost" size="icon" aria-label={`Delete ${document.name}`} onClick={onDelete}>
        <TrashIcon aria-hidden="true" />
      </Button>
    </li>
  );
}

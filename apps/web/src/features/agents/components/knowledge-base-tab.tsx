import {
  KNOWLEDGE_BASE_USAGE_MODES,
  type KnowledgeBaseDocumentSummary,
  type KnowledgeBaseLocator,
} from '@parla/contracts';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { listBuiltRoutes } from '../../../lib/app-paths';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Button } from '../../../ui/button';
import { EditorSection, SelectField } from '../../../ui/editor-fields';
import { LoadError } from '../../../ui/load-error';
import { SearchField } from '../../../ui/search-field';
import { Skeleton } from '../../../ui/skeleton';
import { errorAt, withPrompt } from '../agent-editor-rules';
import { KNOWLEDGE_BASE_PATH } from '../agent-paths';
import { useKnowledgeBaseDocuments } from '../api/list-knowledge-base';
import type { EditorTabProps } from './editor-tab-props';

type UsageMode = (typeof KNOWLEDGE_BASE_USAGE_MODES)[number];

const USAGE_LABELS: Record<UsageMode, string> = {
  auto: 'Search it each turn',
  prompt: 'Whole document in the prompt',
};

/** The locator an agent keeps of a document: searched each turn when the document allows it. */
export function locatorOf(document: KnowledgeBaseDocumentSummary): KnowledgeBaseLocator {
  const usage_mode: UsageMode = document.supported_usages.includes('auto')
    ? 'auto'
    : (document.supported_usages[0] ?? 'auto');
  return { type: document.type, name: document.name, id: document.id, usage_mode };
}

const TYPE_LABELS: Record<string, string> = { file: 'File', url: 'Web page', text: 'Text', folder: 'Folder' };

/** The Knowledge base tab: the documents the agent answers from, and how each is used. */
export function KnowledgeBaseTab({ draft, edit, errors }: EditorTabProps) {
  const id = useId();
  const attached = draft.conversation_config.agent.prompt.knowledge_base;
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), 300);
  const documents = useKnowledgeBaseDocuments(search);
  const kbBuilt = listBuiltRoutes().some((entry) => entry.path === KNOWLEDGE_BASE_PATH);
  const setAttached = (knowledge_base: KnowledgeBaseLocator[]) =>
    edit((d) => withPrompt(d, { knowledge_base }));
  const attachedIds = new Set(attached.map((doc) => doc.id));
  const error = errorAt(errors, 'conversation_config.agent.prompt.knowledge_base');

  return (
    <div className="flex flex-col gap-4">
      <EditorSection
        title="Documents of this agent"
        description="Each turn the agent looks up the passages of these documents that best match what the caller said, and answers from them."
      >
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        {attached.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-fg-muted">
            No documents yet: attach some below, and the agent answers from them.
          </p>
        ) : (
          <ul
            aria-label="Attached documents"
            className="flex flex-col divide-y divide-line rounded-lg border border-line"
          >
            {attached.map((doc, index) => (
              <li key={doc.id} className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-end">
                <div className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate text-sm font-medium">{doc.name}</span>
                  <span className="text-xs text-fg-muted">{TYPE_LABELS[doc.type] ?? doc.type}</span>
                </div>
                <SelectField
                  label={`How ${doc.name} is used`}
                  className="sm:w-64"
                  value={doc.usage_mode}
                  options={KNOWLEDGE_BASE_USAGE_MODES.map((mode) => ({
                    value: mode,
                    label: USAGE_LABELS[mode],
                  }))}
                  onChange={(event) => {
                    const usage_mode = event.target.value as UsageMode;
                    setAttached(attached.map((item, at) => (at === index ? { ...item, usage_mode } : item)));
                  }}
                />
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Detach ${doc.name}`}
                  onClick={() => setAttached(attached.filter((item) => item.id !== doc.id))}
                >
                  Detach
                </Button>
              </li>
            ))}
          </ul>
        )}
        <p className="text-xs text-fg-muted">
          “Search it each turn” suits long documents; “Whole document in the prompt” suits a short one the
          agent must always know (it makes every answer slower).
        </p>
      </EditorSection>

      <EditorSection
        title="Add from the knowledge base"
        actions={
          kbBuilt ? (
            <Link to={KNOWLEDGE_BASE_PATH} className="text-sm font-medium underline-offset-2 hover:underline">
              Manage the knowledge base
            </Link>
          ) : undefined
        }
      >
        <SearchField
          id={`${id}-search`}
          label="Search documents"
          value={searchInput}
          onChange={setSearchInput}
          placeholder="Search documents by name"
        />
        {documents.isPending && (
          <div role="status" aria-busy="true" aria-label="Loading documents" className="flex flex-col gap-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        )}
        {documents.isError && <LoadError error={documents.error} onRetry={() => void documents.refetch()} />}
        {documents.isSuccess && documents.data.documents.length === 0 && (
          <p className="text-sm text-fg-muted">
            {search
              ? `No document’s name holds “${search}”.`
              : 'The knowledge base is empty: add documents (files, web pages or text) to it first.'}
          </p>
        )}
        {documents.isSuccess && documents.data.documents.length > 0 && (
          <ul
            aria-label="Knowledge base documents"
            className="flex flex-col divide-y divide-line rounded-lg border border-line"
          >
            {documents.data.documents.map((doc) => {
              const isAttached = attachedIds.has(doc.id);
              return (
                <li key={doc.id} className="flex items-center gap-3 px-3 py-2.5">
                  <div className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate text-sm font-medium">{doc.name}</span>
                    <span className="text-xs text-fg-muted">{TYPE_LABELS[doc.type] ?? doc.type}</span>
                  </div>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={isAttached}
                    aria-label={isAttached ? `${doc.name} is attached` : `Attach ${doc.name}`}
                    onClick={() => setAttached([...attached, locatorOf(doc)])}
                  >
                    {isAttached ? 'Attached' : 'Attach'}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </EditorSection>
    </div>
  );
}

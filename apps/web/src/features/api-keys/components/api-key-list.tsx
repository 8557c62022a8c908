import type { ApiKeyResponse } from '@parla/contracts';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useApiKeys } from '../api/list-api-keys';
import { ApiKeysTable } from './api-keys-table';

export interface ApiKeyListProps {
  onCreate: () => void;
  onEdit: (key: ApiKeyResponse) => void;
  onDelete: (key: ApiKeyResponse) => void;
}

/** The caller's keys: loading, a retry on failure, an invitation to create the first one, or the table. */
export function ApiKeyList({ onCreate, onEdit, onDelete }: ApiKeyListProps) {
  const keys = useApiKeys();
  return (
    <Card>
      {keys.isPending ? (
        <div className="flex flex-col gap-3 p-5" aria-busy="true">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : keys.isError ? (
        <LoadError error={keys.error} onRetry={() => void keys.refetch()} className="p-5" />
      ) : keys.data.api_keys.length === 0 ? (
        <div className="flex flex-col items-center gap-3 px-5 py-12 text-center">
          <p className="font-medium">No API keys yet</p>
          <p className="max-w-sm text-sm text-fg-muted">
            Create a key to use Parla from your code or from an SDK.
          </p>
          <Button variant="secondary" onClick={onCreate}>
            Create your first key
          </Button>
        </div>
      ) : (
        <ApiKeysTable apiKeys={keys.data.api_keys} onEdit={onEdit} onDelete={onDelete} />
      )}
    </Card>
  );
}

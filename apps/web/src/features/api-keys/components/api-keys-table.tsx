import type { ApiKeyResponse } from '@parla/contracts';
import { formatDate } from '../../../lib/format-date';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { useToggleApiKey } from '../use-toggle-api-key';

export interface ApiKeysTableProps {
  apiKeys: ApiKeyResponse[];
  onEdit: (key: ApiKeyResponse) => void;
  onDelete: (key: ApiKeyResponse) => void;
}

/** One row per key: its name, preview, limit and dates, and its actions (turning off and on happens here). */
export function ApiKeysTable({ apiKeys, onEdit, onDelete }: ApiKeysTableProps) {
  const toggle = useToggleApiKey();
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-line text-fg-muted">
          <tr>
            <th scope="col" className="px-5 py-3 font-medium">
              Name
            </th>
            <th scope="col" className="px-5 py-3 font-medium">
              Key
            </th>
            <th scope="col" className="px-5 py-3 font-medium">
              Credit limit
            </th>
            <th scope="col" className="px-5 py-3 font-medium">
              Created
            </th>
            <th scope="col" className="px-5 py-3 font-medium">
              Last used
            </th>
            <th scope="col" className="px-5 py-3">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {apiKeys.map((key) => (
            <tr key={key.key_id}>
              <td className="px-5 py-3 font-medium">
                <span className="flex items-center gap-2">
                  {key.name}
                  {key.is_disabled && <Badge tone="warning">Off</Badge>}
                </span>
              </td>
              <td className="px-5 py-3 font-mono text-fg-muted">{key.hint}</td>
              <td className="px-5 py-3 tabular-nums">
                {key.character_limit === null
                  ? 'Workspace limit'
                  : key.character_limit.toLocaleString('en-US')}
              </td>
              <td className="px-5 py-3 text-fg-muted">{formatDate(key.created_at_unix * 1000)}</td>
              <td className="px-5 py-3 text-fg-muted">
                {key.last_used_at_unix ? formatDate(key.last_used_at_unix * 1000) : 'Never'}
              </td>
              <td className="px-5 py-3">
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => onEdit(key)}
                    aria-label={`Edit ${key.name}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`${key.is_disabled ? 'Turn on' : 'Turn off'} ${key.name}`}
                    onClick={() => toggle.mutate(key)}
                  >
                    {key.is_disabled ? 'Turn on' : 'Turn off'}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-danger"
                    aria-label={`Delete ${key.name}`}
                    onClick={() => onDelete(key)}
                  >
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

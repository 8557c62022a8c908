import type { ApiKeyResponse } from '@parla/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../app/toasts/toast-provider';
import { accountApi } from '../features/account/api';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { formatDate } from '../lib/format-date';
import { getToastMessage } from '../lib/http-error';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { FormMessage, TextField } from '../ui/field';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

const apiKeysKey = ['users', 'me', 'api-keys'] as const;

/** "" → null (no limit of its own); otherwise a whole number of credits. */
function parseLimit(text: string): number | null | 'invalid' {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 1_000_000_000 ? value : 'invalid';
}

/** The name and credit limit of a key form, checked; a string is the error to show. */
function readKeyForm(name: string, limit: string): { name: string; character_limit: number | null } | string {
  const characterLimit = parseLimit(limit);
  if (!name.trim()) return 'Give the key a name.';
  if (characterLimit === 'invalid') return 'The credit limit is a whole number from 1 up, or empty.';
  return { name: name.trim(), character_limit: characterLimit };
}

/** The fields of the create and edit forms. */
function KeyFields({
  name,
  limit,
  onName,
  onLimit,
  autoFocus = false,
}: {
  name: string;
  limit: string;
  onName: (value: string) => void;
  onLimit: (value: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <>
      <TextField
        label="Name"
        name="key-name"
        autoFocus={autoFocus}
        required
        maxLength={100}
        value={name}
        onChange={(event) => onName(event.target.value)}
      />
      <TextField
        label="Credit limit (optional)"
        name="character-limit"
        inputMode="numeric"
        description="Credits this key may spend; empty means the workspace's own limit."
        value={limit}
        onChange={(event) => onLimit(event.target.value)}
      />
    </>
  );
}

/** `/app/settings/api-keys`: the keys for the `xi-api-key` header; a new key is shown once. */
export default function ApiKeysPage() {
  return (
    <RequireSignIn>
      <ApiKeys />
    </RequireSignIn>
  );
}

function ApiKeys() {
  const queryClient = useQueryClient();
  const { toast, toastError } = useToast();
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: () => accountApi.listApiKeys() });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyResponse>();
  const [deleting, setDeleting] = useState<ApiKeyResponse>();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['users', 'me'] });

  const toggle = useMutation({
    mutationFn: (key: ApiKeyResponse) => accountApi.editApiKey(key.key_id, { is_disabled: !key.is_disabled }),
    onSuccess: (key) => {
      toast({
        title: key.is_disabled ? `"${key.name}" is off.` : `"${key.name}" is on again.`,
        variant: 'success',
      });
      void invalidate();
    },
    onError: toastError,
  });
  const remove = useMutation({
    mutationFn: (key: ApiKeyResponse) => accountApi.deleteApiKey(key.key_id),
    onSuccess: (_, key) => {
      toast({ title: `"${key.name}" was deleted.`, variant: 'success' });
      setDeleting(undefined);
      void invalidate();
    },
    onError: toastError,
  });

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm text-fg-muted">
            <Link className="hover:text-fg" to="/app/settings">
              Settings
            </Link>{' '}
            / API keys
          </p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight">API keys</h1>
          <p className="mt-1 max-w-xl text-fg-muted">
            Send a key in the <code className="font-mono text-fg">xi-api-key</code> header to call the API, or
            give it to an ElevenLabs SDK with this server as the base URL. Each key acts as you.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>Create API key</Button>
      </header>

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
            <Button variant="secondary" onClick={() => setCreating(true)}>
              Create your first key
            </Button>
          </div>
        ) : (
          <div className="overflow-x-auto">
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
                {keys.data.api_keys.map((key) => (
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
                          onClick={() => setEditing(key)}
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
                          onClick={() => setDeleting(key)}
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
        )}
      </Card>

      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => void invalidate()}
      />
      {editing && (
        <EditKeyDialog
          apiKey={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => void invalidate()}
        />
      )}
      <Dialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={`Delete "${deleting?.name ?? ''}"?`}
        description="Calls with this key fail from now on. This cannot be undone."
        footer={
          <>
            <Button variant="secondary" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              aria-disabled={remove.isPending}
              onClick={() => deleting && !remove.isPending && remove.mutate(deleting)}
            >
              Delete key
            </Button>
          </>
        }
      />
    </div>
  );
}

function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { toast } = useToast();
  const [name, setName] = useState('');
  const [limit, setLimit] = useState('');
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<string>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    setName('');
    setLimit('');
    setError(undefined);
    setCreated(undefined);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = readKeyForm(name, limit);
    if (typeof form === 'string') return setError(form);
    if (busy) return;
    setBusy(true);
    setError(undefined);
    accountApi
      .createApiKey(form)
      .then(
        (answer) => {
          setCreated(answer.xi_api_key);
          onCreated();
        },
        (caught: unknown) => setError(getToastMessage(caught)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title={created ? 'Your new API key' : 'Create API key'}
      description={created ? 'Copy it now: for your safety it is not shown again.' : undefined}
      footer={created ? <Button onClick={close}>Done</Button> : undefined}
    >
      {created ? (
        <div className="flex items-center gap-2">
          <code
            className="flex-1 overflow-x-auto rounded-lg border border-line bg-subtle px-3 py-2 font-mono text-sm"
            data-testid="new-api-key"
          >
            {created}
          </code>
          <Button
            variant="secondary"
            onClick={() =>
              void navigator.clipboard
                ?.writeText(created)
                .then(() => toast({ title: 'API key copied.', variant: 'success' }))
            }
          >
            Copy
          </Button>
        </div>
      ) : (
        <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
          <KeyFields name={name} limit={limit} onName={setName} onLimit={setLimit} autoFocus />
          {error && <FormMessage>{error}</FormMessage>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" aria-disabled={busy}>
              {busy ? 'Creating…' : 'Create key'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function EditKeyDialog({
  apiKey,
  onClose,
  onSaved,
}: {
  apiKey: ApiKeyResponse;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState(apiKey.name);
  const [limit, setLimit] = useState(apiKey.character_limit === null ? '' : String(apiKey.character_limit));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = readKeyForm(name, limit);
    if (typeof form === 'string') return setError(form);
    if (busy) return;
    setBusy(true);
    accountApi
      .editApiKey(apiKey.key_id, form)
      .then(
        () => {
          onSaved();
          onClose();
        },
        (caught: unknown) => setError(getToastMessage(caught)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title={`Edit "${apiKey.name}"`}>
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <KeyFields name={name} limit={limit} onName={setName} onLimit={setLimit} />
        {error && <FormMessage>{error}</FormMessage>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

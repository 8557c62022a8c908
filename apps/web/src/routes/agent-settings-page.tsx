import type { StoredSecret } from '@parla/contracts';
import { useId, useState } from 'react';
import { useDeleteSecret } from '../features/agents/api/delete-secret';
import { useSecrets } from '../features/agents/api/list-secrets';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { ConvaiAnalytics } from '../features/agents/components/convai-analytics';
import { ConvaiSettingsForm } from '../features/agents/components/convai-settings-form';
import { SecretFormDialog } from '../features/agents/components/secret-form-dialog';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { LoadError } from '../ui/load-error';
import { SkeletonRow } from '../ui/skeleton';

/** Who uses a secret, in a line: "Used by order_status and 2 more" or "Not used". */
function describeUse(secret: StoredSecret): string {
  const users = [...secret.used_by.tools, ...secret.used_by.agents].map((u) => u.name);
  if (users.length === 0) return 'Not used';
  return `Used by ${users[0]}${users.length > 1 ? ` and ${users.length - 1} more` : ''}`;
}

/**
 * `/app/conversational-ai/settings` (issue 28 items 4 and 7): an overview of the workspace's conversations
 * (live now, per day, the dashboard charts), its Conversational AI settings (initiation webhook, post-call
 * webhook, retention), and its secrets, which webhook tools and the initiation webhook send in their
 * headers. Secret values are write-only: added or replaced here, never shown.
 */
export default function AgentSettingsPage() {
  return (
    <RequireSignIn>
      <AgentSettings />
    </RequireSignIn>
  );
}

function AgentSettings() {
  const id = useId();
  const { toast, toastError } = useToast();
  const secrets = useSecrets();
  const [editing, setEditing] = useState<StoredSecret | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<StoredSecret | null>(null);
  const remove = useDeleteSecret();
  const list = secrets.data?.secrets ?? [];

  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.secret_id, {
      onSuccess: () => {
        toast({ title: 'Secret deleted', description: toDelete.name, variant: 'success' });
        setToDelete(null);
      },
      onError: (error) => {
        setToDelete(null);
        toastError(error);
      },
    });
  };

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader title="Agent settings" description="Settings shared by the workspace’s agents." />
      <ConvaiAnalytics />
      <ConvaiSettingsForm />
      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex max-w-2xl flex-col gap-1">
            <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
              Secrets
            </h2>
            <p className="text-sm text-fg-muted">
              API keys and tokens your webhook tools and the initiation webhook send. They are stored
              encrypted, sent only by the server, and never shown again.
            </p>
          </div>
          <Button onClick={() => setEditing('new')}>New secret</Button>
        </div>
        {secrets.isPending && (
          <ul
            aria-busy="true"
            aria-label="Loading secrets"
            className="flex flex-col rounded-xl border border-line"
          >
            <SkeletonRow lineWidths={['w-1/4', 'w-1/3']} />
            <SkeletonRow lineWidths={['w-1/4', 'w-1/3']} />
          </ul>
        )}
        {secrets.isError && <LoadError error={secrets.error} onRetry={() => void secrets.refetch()} />}
        {secrets.isSuccess && list.length === 0 && (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-6 py-12 text-center">
            <h3 className="text-base font-semibold">No secrets yet</h3>
            <p className="max-w-md text-sm text-fg-muted">
              Add the key your API expects, then choose it as a header’s value in a webhook tool.
            </p>
            <Button onClick={() => setEditing('new')}>Add your first secret</Button>
          </div>
        )}
        {list.length > 0 && (
          <ul
            aria-label="Secrets"
            className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
          >
            {list.map((secret) => (
              <li key={secret.secret_id} className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-5">
                <div className="flex min-w-0 flex-[1_1_12rem] flex-col gap-0.5">
                  <h3 className="truncate text-sm font-medium">{secret.name}</h3>
                  <p className="text-xs text-fg-muted">
                    <span aria-hidden="true" className="font-mono">
                      ••••••••
                    </span>{' '}
                    {describeUse(secret)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Replace ${secret.name}`}
                    onClick={() => setEditing(secret)}
                  >
                    Replace value
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete ${secret.name}`}
                    onClick={() => setToDelete(secret)}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <SecretFormDialog
        secret={editing}
        onClose={() => setEditing(null)}
        onSaved={(name) => {
          toast({ title: 'Secret saved', description: name, variant: 'success' });
          setEditing(null);
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name}?` : 'Delete secret?'}
        description="Tools that send it stop working until they are given another. A secret still in use is refused."
        confirmLabel="Delete secret"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}

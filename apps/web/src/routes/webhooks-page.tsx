import { hasAdminRights, type WorkspaceWebhookResponse } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { DeleteWebhookDialog, WebhookFormDialog, WebhookList } from '../features/webhooks';
import { getWorkspaceQueryOptions } from '../features/workspace';
import { Button } from '../ui/button';

/**
 * `/app/developers/webhooks`, and the same page at `/app/workspace/webhooks` and `/app/settings/webhooks`
 * (accounts §2 names all three): the workspace's webhooks (issue 19 item 5). Admins add, edit, switch off
 * and on, test and delete them and read each one's delivery log; members see the list.
 */
export default function WebhooksPage() {
  return (
    <RequireSignIn>
      <Webhooks />
    </RequireSignIn>
  );
}

/** The page holds which dialog is open; the list, the cards and the dialogs hold the rest. */
function Webhooks() {
  const workspace = useQuery(getWorkspaceQueryOptions());
  const canManage = hasAdminRights(workspace.data?.role);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<WorkspaceWebhookResponse>();
  const [deleting, setDeleting] = useState<WorkspaceWebhookResponse>();

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-fg-muted">Developers / Webhooks</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight">Webhooks</h1>
          <p className="mt-1 max-w-xl text-fg-muted">
            Your server hears about the workspace’s events — transcripts requested with{' '}
            <code className="font-mono text-fg">webhook=true</code>, new keys, failed payments — as signed
            JSON POSTs. Failed deliveries are retried and logged; a webhook that keeps failing is turned off.
          </p>
          {workspace.data && !canManage && (
            <p className="mt-2 text-sm text-fg-muted">Only workspace admins can add or change webhooks.</p>
          )}
        </div>
        {canManage && <Button onClick={() => setCreating(true)}>Add webhook</Button>}
      </header>

      <WebhookList
        canManage={canManage}
        onCreate={() => setCreating(true)}
        onEdit={setEditing}
        onDelete={setDeleting}
      />

      {creating && <WebhookFormDialog open onClose={() => setCreating(false)} />}
      {editing && <WebhookFormDialog open webhook={editing} onClose={() => setEditing(undefined)} />}
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}

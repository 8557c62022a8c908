import type { ApiKeyResponse } from '@parla/contracts';
import { useState } from 'react';
import { ApiKeyList, CreateApiKeyDialog, DeleteApiKeyDialog, EditApiKeyDialog } from '../features/api-keys';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { Button } from '../ui/button';

/**
 * `/app/developers/api-keys` (issue 26 item 7; `/app/settings/api-keys` leads here): the keys for the
 * `xi-api-key` header; a new key is shown once.
 */
export default function ApiKeysPage() {
  return (
    <RequireSignIn>
      <ApiKeys />
    </RequireSignIn>
  );
}

/** The page holds which dialog is open; the list, the dialogs and their forms hold the rest. */
function ApiKeys() {
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyResponse>();
  const [deleting, setDeleting] = useState<ApiKeyResponse>();

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm text-fg-muted">Developers / API keys</p>
          <h1 className="mt-1 text-3xl font-semibold tracking-tight">API keys</h1>
          <p className="mt-1 max-w-xl text-fg-muted">
            Send a key in the <code className="font-mono text-fg">xi-api-key</code> header to call the API, or
            give it to an ElevenLabs SDK with this server as the base URL. Each key acts as you.
          </p>
        </div>
        <Button onClick={() => setCreating(true)}>Create API key</Button>
      </header>

      <ApiKeyList onCreate={() => setCreating(true)} onEdit={setEditing} onDelete={setDeleting} />

      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      {editing && <EditApiKeyDialog apiKey={editing} onClose={() => setEditing(undefined)} />}
      <DeleteApiKeyDialog apiKey={deleting} onClose={() => setDeleting(undefined)} />
    </div>
  );
}

import type { McpServerResponse } from '@parla/contracts';
import { useId, useState } from 'react';
import { useDeleteMcpServer } from '../features/agents/api/delete-mcp-server';
import { useMcpServers } from '../features/agents/api/list-mcp-servers';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { McpServerCard } from '../features/agents/components/mcp-server-card';
import { McpServerFormDialog } from '../features/agents/components/mcp-server-form-dialog';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { LoadError } from '../ui/load-error';
import { SkeletonRow } from '../ui/skeleton';

/**
 * `/app/conversational-ai/integrations` (issue 28 "MCP servers"): the workspace's MCP servers, added with
 * their address, transport, token and approval policy; each one's tools, asked of it, approved here. An
 * agent picks its servers in its editor's Tools tab.
 */
export default function IntegrationsPage() {
  return (
    <RequireSignIn>
      <Integrations />
    </RequireSignIn>
  );
}

function Integrations() {
  const id = useId();
  const { toast, toastError } = useToast();
  const servers = useMcpServers();
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<McpServerResponse | null>(null);
  const remove = useDeleteMcpServer();
  const list = servers.data?.mcp_servers ?? [];

  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => {
        toast({ title: 'MCP server deleted', description: toDelete.config.name, variant: 'success' });
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
      <AgentsPageHeader
        title="Integrations"
        description="MCP servers whose tools your agents can call in a conversation."
      />
      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="flex max-w-2xl flex-col gap-1">
            <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
              MCP servers
            </h2>
            <p className="text-sm text-fg-muted">
              An agent is offered only the tools you approve (or all of a server’s, if you choose). A tool
              that changes after its approval is held back until you approve it again.
            </p>
          </div>
          <Button onClick={() => setAdding(true)}>Add MCP server</Button>
        </div>
        {servers.isPending && (
          <ul
            aria-busy="true"
            aria-label="Loading MCP servers"
            className="flex flex-col rounded-xl border border-line"
          >
            <SkeletonRow lineWidths={['w-1/4', 'w-1/2']} />
            <SkeletonRow lineWidths={['w-1/4', 'w-1/2']} />
          </ul>
        )}
        {servers.isError && <LoadError error={servers.error} onRetry={() => void servers.refetch()} />}
        {servers.isSuccess && list.length === 0 && (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-6 py-12 text-center">
            <h3 className="text-base font-semibold">No MCP servers yet</h3>
            <p className="max-w-md text-sm text-fg-muted">
              Add a server that speaks the Model Context Protocol over streamable HTTP or SSE, approve its
              tools, then give it to an agent in the agent’s Tools tab.
            </p>
            <Button onClick={() => setAdding(true)}>Add your first MCP server</Button>
          </div>
        )}
        {list.length > 0 && (
          <ul
            aria-label="MCP servers"
            className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
          >
            {list.map((server) => (
              <McpServerCard key={server.id} server={server} onDelete={setToDelete} />
            ))}
          </ul>
        )}
      </section>
      <McpServerFormDialog
        open={adding}
        onClose={() => setAdding(false)}
        onSaved={(name) => {
          toast({ title: 'MCP server added', description: name, variant: 'success' });
          setAdding(false);
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.config.name}?` : 'Delete MCP server?'}
        description="Agents that use it lose its tools."
        confirmLabel="Delete server"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}

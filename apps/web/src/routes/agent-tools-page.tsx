import type { ToolResponse } from '@parla/contracts';
import { useId, useState } from 'react';
import { useDeleteTool } from '../features/agents/api/delete-tool';
import { useSecrets } from '../features/agents/api/list-secrets';
import { flattenToolPages, useTools } from '../features/agents/api/list-tools';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { ToolFormDialog } from '../features/agents/components/tool-form-dialog';
import { describeTool } from '../features/agents/tool-form-rules';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { isHttpError } from '../lib/http-error';
import { useToast } from '../lib/toasts/use-toast';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { PagedList } from '../ui/paged-list';
import { SearchField } from '../ui/search-field';

/**
 * `/app/conversational-ai/tools` (issue 28 item 4): the workspace's webhook and client tools, which agents
 * attach in their editor's Tools tab; create, edit and delete them.
 */
export default function AgentToolsPage() {
  return (
    <RequireSignIn>
      <AgentTools />
    </RequireSignIn>
  );
}

function AgentTools() {
  const id = useId();
  const { toast, toastError } = useToast();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), 300);
  const list = useTools(search);
  const tools = flattenToolPages(list.data?.pages).filter((tool) => tool.tool_config.type !== 'system');
  const secrets = useSecrets();
  const [editing, setEditing] = useState<ToolResponse | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<ToolResponse | null>(null);
  // Agents use the tool: the server refused; asking again deletes it from them too.
  const [inUse, setInUse] = useState(false);
  const remove = useDeleteTool();

  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(
      { toolId: toDelete.id, force: inUse },
      {
        onSuccess: () => {
          toast({ title: 'Tool deleted', description: toDelete.tool_config.name, variant: 'success' });
          setToDelete(null);
          setInUse(false);
        },
        onError: (error) => {
          if (isHttpError(error) && error.status === 409 && !inUse) setInUse(true);
          else toastError(error);
        },
      },
    );
  };

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Tools"
        description="What agents can do besides talk: call your API (webhook tools) or run code in your page (client tools)."
        actions={<Button onClick={() => setEditing('new')}>New tool</Button>}
      />
      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
            Workspace tools
          </h2>
          <search className="w-full sm:w-72">
            <SearchField
              id={`${id}-search`}
              label="Search tools"
              value={searchInput}
              onChange={setSearchInput}
              placeholder="Search tools by name"
            />
          </search>
        </div>
        <PagedList
          pages={list}
          empty={tools.length === 0}
          loading={{ label: 'Loading tools', rows: 3, lineWidths: ['w-1/4', 'w-1/2'] }}
          emptyClassName="gap-3 py-12"
          emptyState={
            search !== '' ? (
              <>
                <h3 className="text-base font-semibold">No tools match</h3>
                <Button variant="secondary" onClick={() => setSearchInput('')}>
                  Clear search
                </Button>
              </>
            ) : (
              <>
                <h3 className="text-base font-semibold">No tools yet</h3>
                <p className="max-w-md text-sm text-fg-muted">
                  A webhook tool lets an agent look things up or act in your systems while it talks — an
                  order’s status, a booking.
                </p>
                <Button onClick={() => setEditing('new')}>Create your first tool</Button>
              </>
            )
          }
        >
          {tools.length > 0 && (
            <ul
              aria-label="Tools"
              className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
            >
              {tools.map((tool) => (
                <li key={tool.id} className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-5">
                  <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-0.5">
                    <h3 className="flex items-center gap-2 text-sm font-medium">
                      <span className="truncate">{tool.tool_config.name}</span>
                      <Badge>{tool.tool_config.type === 'webhook' ? 'Webhook' : 'Client'}</Badge>
                    </h3>
                    <p className="truncate font-mono text-xs text-fg-muted">
                      {describeTool(tool.tool_config)}
                    </p>
                    <p className="line-clamp-2 text-xs text-fg-muted">{tool.tool_config.description}</p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Edit ${tool.tool_config.name}`}
                      onClick={() => setEditing(tool)}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Delete ${tool.tool_config.name}`}
                      onClick={() => {
                        setInUse(false);
                        setToDelete(tool);
                      }}
                    >
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </PagedList>
      </section>
      <ToolFormDialog
        tool={editing}
        secrets={secrets.data?.secrets ?? []}
        onClose={() => setEditing(null)}
        onSaved={(tool) => {
          toast({ title: 'Tool saved', description: tool.tool_config.name, variant: 'success' });
          setEditing(null);
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.tool_config.name}?` : 'Delete tool?'}
        description={
          inUse
            ? 'Agents use this tool. Deleting it takes it away from them too.'
            : 'The tool is deleted for good.'
        }
        confirmLabel={inUse ? 'Delete it from the agents too' : 'Delete tool'}
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => {
          setToDelete(null);
          setInUse(false);
        }}
      />
    </div>
  );
}

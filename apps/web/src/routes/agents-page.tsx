import type { AgentSummary } from '@parla/contracts';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { agentEditorPath, NEW_AGENT_PATH } from '../features/agents/agent-paths';
import { useDeleteAgent } from '../features/agents/api/delete-agent';
import { useDuplicateAgent } from '../features/agents/api/duplicate-agent';
import { flattenAgentPages, useAgents } from '../features/agents/api/list-agents';
import { AgentRow } from '../features/agents/components/agent-row';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useToast } from '../lib/toasts/use-toast';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { Button, getButtonClasses } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { PagedList } from '../ui/paged-list';
import { SearchField } from '../ui/search-field';

/** Typing settles this long before the list is searched again. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * `/app/conversational-ai` and `/app/conversational-ai/agents` (issue 28 item 7; history/voices §2 "agents"):
 * the workspace's agents, searched and loaded a page at a time, each to open, copy or delete.
 */
export default function AgentsPage() {
  return (
    <RequireSignIn>
      <Agents />
    </RequireSignIn>
  );
}

function Agents() {
  const id = useId();
  const navigate = useNavigate();
  const { toast, toastError } = useToast();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const list = useAgents(search);
  const agents = flattenAgentPages(list.data?.pages);
  const [toDelete, setToDelete] = useState<AgentSummary | null>(null);
  const remove = useDeleteAgent();
  const duplicate = useDuplicateAgent();

  const handleDuplicate = (agent: AgentSummary) => {
    const name = `${agent.name || 'Untitled agent'} (copy)`;
    duplicate.mutate(
      { agentId: agent.agent_id, name },
      {
        onSuccess: () => toast({ title: 'Agent duplicated', description: name, variant: 'success' }),
        onError: (error) => toastError(error),
      },
    );
  };
  const handleDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.agent_id, {
      onSuccess: () => {
        toast({ title: 'Agent deleted', description: toDelete.name, variant: 'success' });
        setToDelete(null);
      },
      onError: (error) => toastError(error),
    });
  };

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Agents"
        description="Voice agents that listen and answer: give one a prompt, a voice, documents to answer from and tools to call, then put it on your site."
        actions={
          <Link to={NEW_AGENT_PATH} className={getButtonClasses('primary', 'md')}>
            New agent
          </Link>
        }
      />
      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
            Your agents
          </h2>
          <search className="w-full sm:w-72">
            <SearchField
              id={`${id}-search`}
              label="Search agents"
              value={searchInput}
              onChange={setSearchInput}
              placeholder="Search agents by name"
            />
          </search>
        </div>
        <PagedList
          pages={list}
          empty={agents.length === 0}
          loading={{ label: 'Loading agents', rows: 4, lineWidths: ['w-1/3', 'w-1/4'] }}
          emptyClassName="gap-3 py-12"
          emptyState={
            search !== '' ? (
              <>
                <h3 className="text-base font-semibold">No agents match</h3>
                <p className="max-w-md text-sm text-fg-muted">No agent’s name holds “{search}”.</p>
                <Button variant="secondary" onClick={() => setSearchInput('')}>
                  Clear search
                </Button>
              </>
            ) : (
              <>
                <h3 className="text-base font-semibold">No agents yet</h3>
                <p className="max-w-md text-sm text-fg-muted">
                  Start from a template — a support agent, a tutor, a receptionist — or from a blank page.
                </p>
                <Link to={NEW_AGENT_PATH} className={getButtonClasses('primary', 'md')}>
                  Create your first agent
                </Link>
              </>
            )
          }
        >
          {agents.length > 0 && (
            <ul
              aria-label="Agents"
              aria-busy={list.isPlaceholderData || undefined}
              className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface transition-opacity aria-busy:opacity-60"
            >
              {agents.map((agent) => (
                <AgentRow
                  key={agent.agent_id}
                  agent={agent}
                  onOpen={() => void navigate(agentEditorPath(agent.agent_id))}
                  onDuplicate={() => handleDuplicate(agent)}
                  onDelete={() => setToDelete(agent)}
                />
              ))}
            </ul>
          )}
        </PagedList>
      </section>
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name || 'this agent'}?` : 'Delete agent?'}
        description="The agent is deleted for good: its widget and links stop working."
        confirmLabel="Delete agent"
        pending={remove.isPending}
        onConfirm={handleDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}

import type { AgentTestSummary } from '@parla/contracts';
import { useId, useState } from 'react';
import { useDeleteAgentTest } from '../features/agent-testing/api/delete-agent-test';
import { flattenTestPages, useAgentTests } from '../features/agent-testing/api/list-agent-tests';
import { useRunAgentTests } from '../features/agent-testing/api/run-agent-tests';
import { useTestInvocations } from '../features/agent-testing/api/test-invocations';
import { AgentTestDialog } from '../features/agent-testing/components/agent-test-dialog';
import { TestInvocationCard } from '../features/agent-testing/components/test-invocation-card';
import { flattenAgentPages, useAgents } from '../features/agents/api/list-agents';
import { flattenToolPages, useTools } from '../features/agents/api/list-tools';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useToast } from '../lib/toasts/use-toast';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SelectField } from '../ui/editor-fields';
import { LoadError } from '../ui/load-error';
import { PagedList } from '../ui/paged-list';
import { SearchField } from '../ui/search-field';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/conversational-ai/agent-testing` (issue 28, agent testing): the workspace's tests — a conversation
 * and what the agent's next answer must do — created and edited here, run against an agent, with each
 * run's verdict and the reason for it.
 */
export default function AgentTestingPage() {
  return (
    <RequireSignIn>
      <AgentTesting />
    </RequireSignIn>
  );
}

function AgentTesting() {
  const id = useId();
  const { toast, toastError } = useToast();
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim(), 300);
  const list = useAgentTests(search);
  const tests = flattenTestPages(list.data?.pages);
  const agents = flattenAgentPages(useAgents('').data?.pages);
  const tools = flattenToolPages(useTools().data?.pages);
  const invocations = useTestInvocations();
  const [editing, setEditing] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<AgentTestSummary | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [agentId, setAgentId] = useState('');
  const remove = useDeleteAgentTest();
  const run = useRunAgentTests();

  const chosen = tests.filter((t) => selected.has(t.id));
  const agentChoice = agentId || agents[0]?.agent_id || '';
  const toggle = (testId: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(testId);
      else next.delete(testId);
      return next;
    });
  const runSelected = () => {
    if (chosen.length === 0 || !agentChoice) return;
    run.mutate(
      { agentId: agentChoice, testIds: chosen.map((t) => t.id) },
      {
        onSuccess: () =>
          toast({
            title: chosen.length === 1 ? 'Test started' : `${chosen.length} tests started`,
            description: 'Their results appear under Runs.',
            variant: 'success',
          }),
        onError: toastError,
      },
    );
  };
  const agentName = (agentIdOf: string) =>
    agents.find((a) => a.agent_id === agentIdOf)?.name ?? 'A deleted agent';

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Agent testing"
        description="Check how an agent answers before it talks to anyone: a conversation so far, and what its next answer must say or do."
        actions={<Button onClick={() => setEditing('new')}>New test</Button>}
      />
      <section aria-labelledby={`${id}-tests`} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id={`${id}-tests`} className="text-lg font-semibold tracking-tight">
            Tests
          </h2>
          <search className="w-full sm:w-72">
            <SearchField
              id={`${id}-search`}
              label="Search tests"
              value={searchInput}
              onChange={setSearchInput}
              placeholder="Search tests by name"
            />
          </search>
        </div>
        <PagedList
          pages={list}
          empty={tests.length === 0}
          loading={{ label: 'Loading tests', rows: 3, lineWidths: ['w-1/4', 'w-1/2'] }}
          emptyClassName="gap-3 py-12"
          emptyState={
            search !== '' ? (
              <>
                <h3 className="text-base font-semibold">No tests match</h3>
                <Button variant="secondary" onClick={() => setSearchInput('')}>
                  Clear search
                </Button>
              </>
            ) : (
              <>
                <h3 className="text-base font-semibold">No tests yet</h3>
                <p className="max-w-md text-sm text-fg-muted">
                  A test replays a conversation to an agent and checks its answer: that it meets a condition
                  you write, or that it calls the right tool with the right values.
                </p>
                <Button onClick={() => setEditing('new')}>Create your first test</Button>
              </>
            )
          }
        >
          {tests.length > 0 && (
            <ul
              aria-label="Tests"
              className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
            >
              {tests.map((test) => (
                <li key={test.id} className="flex flex-wrap items-center gap-3 px-4 py-3 sm:px-5">
                  <input
                    type="checkbox"
                    className="size-4 accent-accent"
                    aria-label={`Select ${test.name}`}
                    checked={selected.has(test.id)}
                    onChange={(event) => toggle(test.id, event.target.checked)}
                  />
                  <div className="flex min-w-0 flex-[1_1_12rem] flex-col gap-0.5">
                    <h3 className="truncate text-sm font-medium">{test.name}</h3>
                    <p className="text-xs text-fg-muted">
                      Edited{' '}
                      {new Date(test.last_updated_at_unix_secs * 1000).toLocaleDateString(undefined, {
                        dateStyle: 'medium',
                      })}
                    </p>
                  </div>
                  <Badge>{test.type === 'tool' ? 'Tool call' : 'Answer'}</Badge>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Edit ${test.name}`}
                      onClick={() => setEditing(test.id)}
                    >
                      Edit
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Delete ${test.name}`}
                      onClick={() => setToDelete(test)}
                    >
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </PagedList>
        {tests.length > 0 && (
          <div className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 sm:flex-row sm:items-end">
            {agents.length === 0 ? (
              <p className="flex-1 text-sm text-fg-muted">Create an agent first: tests run against one.</p>
            ) : (
              <SelectField
                label="Agent to test"
                className="flex-1"
                value={agentChoice}
                onChange={(event) => setAgentId(event.target.value)}
                options={agents.map((a) => ({ value: a.agent_id, label: a.name }))}
              />
            )}
            <Button
              onClick={runSelected}
              aria-disabled={chosen.length === 0 || !agentChoice || run.isPending || undefined}
              aria-busy={run.isPending}
            >
              {chosen.length === 0
                ? 'Select tests to run'
                : `Run ${chosen.length === 1 ? '1 test' : `${chosen.length} tests`}`}
            </Button>
          </div>
        )}
      </section>
      <section aria-labelledby={`${id}-runs`} className="flex flex-col gap-4">
        <h2 id={`${id}-runs`} className="text-lg font-semibold tracking-tight">
          Runs
        </h2>
        {invocations.isPending ? (
          <div role="status" aria-label="Loading runs" className="flex flex-col gap-2">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : invocations.isError ? (
          <LoadError error={invocations.error} onRetry={() => void invocations.refetch()} />
        ) : invocations.data.results.length === 0 ? (
          <p className="rounded-xl border border-dashed border-line px-4 py-8 text-center text-sm text-fg-muted">
            No runs yet. Select tests above and run them against an agent: each gets a verdict and the reason
            for it.
          </p>
        ) : (
          <ul
            aria-label="Runs"
            className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
          >
            {invocations.data.results.map((invocation) => (
              <TestInvocationCard
                key={invocation.id}
                invocation={invocation}
                agentName={agentName(invocation.agent_id)}
              />
            ))}
          </ul>
        )}
      </section>
      <AgentTestDialog
        test={editing}
        tools={tools}
        onClose={() => setEditing(null)}
        onSaved={(name) => {
          toast({ title: 'Test saved', description: name, variant: 'success' });
          setEditing(null);
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={toDelete ? `Delete ${toDelete.name}?` : 'Delete test?'}
        description="The test is deleted for good; its past runs stay under Runs."
        confirmLabel="Delete test"
        pending={remove.isPending}
        onConfirm={() => {
          if (!toDelete) return;
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              toast({ title: 'Test deleted', description: toDelete.name, variant: 'success' });
              toggle(toDelete.id, false);
              setToDelete(null);
            },
            onError: toastError,
          });
        }}
        onCancel={() => setToDelete(null)}
      />
    </div>
  );
}

import { Link, useSearchParams } from 'react-router';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { TalkPanel, useAgentsForPicker } from '../features/conversations';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/conversational-ai/talk-to` and `/app/conversational-ai/playground` (history/voices §2; issue 28
 * item 7): speak with one of the workspace's agents in the browser; `?agent_id=` picks it.
 */
export default function TalkToAgentPage() {
  return (
    <RequireSignIn>
      <TalkToAgent />
    </RequireSignIn>
  );
}

function TalkToAgent() {
  const [params, setParams] = useSearchParams();
  const agents = useAgentsForPicker();
  const agentId = params.get('agent_id') ?? '';
  const chooseAgent = (next: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next) updated.set('agent_id', next);
        else updated.delete('agent_id');
        return updated;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Talk to an agent"
        description="Hold a spoken conversation with one of your agents, here in the browser, as a caller would. It uses the microphone and counts against the workspace’s conversation minutes; it is kept in the call history."
      />
      {agents.isPending && (
        <div role="status" aria-busy="true" aria-label="Loading agents" className="flex flex-col gap-3">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-80 w-full" />
        </div>
      )}
      {agents.isError && <LoadError error={agents.error} onRetry={() => void agents.refetch()} />}
      {agents.isSuccess && agents.data.length === 0 && !agentId ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-line px-6 py-12 text-center">
          <h2 className="text-base font-semibold">No agents yet</h2>
          <p className="max-w-sm text-sm text-fg-muted">
            Create an agent first: give it a first message, a voice and a knowledge base, then talk to it
            here.
          </p>
          <Link to="/app/conversational-ai" className="text-sm font-medium underline">
            Go to agents
          </Link>
        </div>
      ) : (
        agents.isSuccess && <TalkPanel agents={agents.data} agentId={agentId} onAgentChange={chooseAgent} />
      )}
    </div>
  );
}

import { useSearchParams } from 'react-router';
import { AgentsPageHeader } from '../features/agents/components/agents-nav';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { ConversationList, useAgentsForPicker } from '../features/conversations';

/**
 * `/app/conversational-ai/history` (history/voices §2 "history"; issue 28 items 5 and 7): the workspace's
 * conversations with its agents, filtered by agent (`?agent_id=` preselects one) and by day.
 */
export default function ConversationHistoryPage() {
  return (
    <RequireSignIn>
      <ConversationHistory />
    </RequireSignIn>
  );
}

function ConversationHistory() {
  const [params] = useSearchParams();
  const agents = useAgentsForPicker();
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 lg:py-10">
      <AgentsPageHeader
        title="Call history"
        description="Every conversation with your agents, newest first: open one for its transcript, tool calls, recording and how the agent answered."
      />
      <ConversationList agents={agents.data ?? []} initialAgentId={params.get('agent_id') ?? ''} />
    </div>
  );
}

import { Link, useParams } from 'react-router';
import { AGENTS_PATH } from '../features/agents/agent-paths';
import { useAgent } from '../features/agents/api/get-agent';
import { AgentEditor } from '../features/agents/components/agent-editor';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { isHttpError } from '../lib/http-error';
import { getButtonClasses } from '../ui/button';
import { LoadError } from '../ui/load-error';
import { Skeleton } from '../ui/skeleton';

/**
 * `/app/conversational-ai/agents/:agentId` (issue 28 item 7): the agent editor, with the workspace's voices
 * and the speech models its Voice tab chooses from.
 */
export default function AgentEditorPage() {
  return (
    <RequireSignIn>
      <AgentEditorScreen />
    </RequireSignIn>
  );
}

function AgentEditorScreen() {
  const { agentId = '' } = useParams();
  const agent = useAgent(agentId);
  const voices = useVoices();
  const models = useModels();
  const pending = agent.isPending || voices.isPending || models.isPending;
  const failed = agent.error ?? voices.error ?? models.error;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 pb-10 sm:px-6">
      <nav aria-label="Breadcrumb" className="pt-6 text-sm">
        <Link to={AGENTS_PATH} className="text-fg-muted underline-offset-2 hover:text-fg hover:underline">
          ← Agents
        </Link>
      </nav>
      {pending && !failed && (
        <div role="status" aria-busy="true" aria-label="Loading the agent" className="flex flex-col gap-4">
          <Skeleton className="h-8 w-1/3" />
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-64" />
        </div>
      )}
      {failed && isHttpError(failed) && failed.status === 404 && agent.isError ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-line px-6 py-12 text-center">
          <h1 className="text-base font-semibold">Agent not found</h1>
          <p className="max-w-md text-sm text-fg-muted">
            It was deleted, or it belongs to another workspace.
          </p>
          <Link to={AGENTS_PATH} className={getButtonClasses('secondary', 'md')}>
            Back to agents
          </Link>
        </div>
      ) : (
        failed && (
          <LoadError
            error={failed}
            onRetry={() => {
              if (agent.isError) void agent.refetch();
              if (voices.isError) void voices.refetch();
              if (models.isError) void models.refetch();
            }}
          />
        )
      )}
      {agent.data && voices.data && models.data && (
        <AgentEditor
          agent={agent.data}
          voices={voices.data}
          models={models.data}
          origin={window.location.origin}
        />
      )}
    </div>
  );
}

import { Link } from 'react-router';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { errorAt, SYSTEM_TOOL_CHOICES, systemToolOf, withPrompt } from '../agent-editor-rules';
import { AGENT_TOOLS_PATH } from '../agent-paths';
import { flattenToolPages, useTools } from '../api/list-tools';
import { describeTool } from '../tool-form-rules';
import { EditorSection } from './editor-fields';
import type { EditorTabProps } from './editor-tab-props';

/** The Tools tab: which of the workspace's tools the agent may call, and the built-in system tools. */
export function ToolsTab({ draft, edit, errors }: EditorTabProps) {
  const prompt = draft.conversation_config.agent.prompt;
  const tools = useTools();
  const workspaceTools = flattenToolPages(tools.data?.pages).filter(
    (tool) => tool.tool_config.type !== 'system',
  );
  const chosen = new Set(prompt.tool_ids);
  const toolError = errorAt(errors, 'conversation_config.agent.prompt.tool_ids');
  const builtInError = errorAt(errors, 'conversation_config.agent.prompt.built_in_tools');

  const toggleTool = (toolId: string, on: boolean) =>
    edit((d) => {
      const ids = d.conversation_config.agent.prompt.tool_ids.filter((id) => id !== toolId);
      return withPrompt(d, { tool_ids: on ? [...ids, toolId] : ids });
    });

  return (
    <div className="flex flex-col gap-4">
      <EditorSection
        title="Workspace tools"
        description="Webhooks the server calls and actions your page runs, which the agent may use when the conversation calls for them."
        actions={
          <Link to={AGENT_TOOLS_PATH} className="text-sm font-medium underline-offset-2 hover:underline">
            Manage tools
          </Link>
        }
      >
        {toolError && (
          <p role="alert" className="text-sm text-danger">
            {toolError}
          </p>
        )}
        {tools.isPending && (
          <div role="status" aria-busy="true" aria-label="Loading tools" className="flex flex-col gap-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        )}
        {tools.isError && !tools.data && (
          <LoadError error={tools.error} onRetry={() => void tools.refetch()} />
        )}
        {tools.isSuccess && workspaceTools.length === 0 && (
          <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-fg-muted">
            The workspace has no tools yet.{' '}
            <Link to={AGENT_TOOLS_PATH} className="font-medium text-fg underline-offset-2 hover:underline">
              Create a tool
            </Link>
            , then attach it here.
          </p>
        )}
        {workspaceTools.length > 0 && (
          <ul
            aria-label="Workspace tools"
            className="flex flex-col divide-y divide-line rounded-lg border border-line"
          >
            {workspaceTools.map((tool) => (
              <li key={tool.id} className="px-3 py-2.5">
                <label className="flex cursor-pointer items-start gap-3">
                  <input
                    type="checkbox"
                    className="mt-1 size-4 accent-accent"
                    checked={chosen.has(tool.id)}
                    onChange={(event) => toggleTool(tool.id, event.target.checked)}
                  />
                  <span className="flex min-w-0 flex-col">
                    <span className="text-sm font-medium">{tool.tool_config.name}</span>
                    <span className="truncate text-xs text-fg-muted">{describeTool(tool.tool_config)}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </EditorSection>
      <EditorSection
        title="System tools"
        description="Built into every conversation; switch on those the agent may use."
      >
        {builtInError && (
          <p role="alert" className="text-sm text-danger">
            {builtInError}
          </p>
        )}
        {SYSTEM_TOOL_CHOICES.map((choice) => (
          <Switch
            key={choice.id}
            label={choice.label}
            description={choice.description}
            checked={prompt.built_in_tools[choice.id] !== null}
            onCheckedChange={(on) =>
              edit((d) =>
                withPrompt(d, {
                  built_in_tools: {
                    ...d.conversation_config.agent.prompt.built_in_tools,
                    [choice.id]: on ? systemToolOf(choice.id) : null,
                  },
                }),
              )
            }
          />
        ))}
      </EditorSection>
    </div>
  );
}

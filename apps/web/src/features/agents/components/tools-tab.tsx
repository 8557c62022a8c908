import { Link } from 'react-router';
import { Button } from '../../../ui/button';
import { EditorSection, SelectField, TextAreaField } from '../../../ui/editor-fields';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import {
  errorAt,
  newTransfer,
  SYSTEM_TOOL_CHOICES,
  systemToolOf,
  transfersOf,
  withPrompt,
  withTransfers,
} from '../agent-editor-rules';
import { AGENT_TOOLS_PATH, INTEGRATIONS_PATH } from '../agent-paths';
import { flattenAgentPages, useAgents } from '../api/list-agents';
import { useMcpServers } from '../api/list-mcp-servers';
import { flattenToolPages, useTools } from '../api/list-tools';
import { describeTool } from '../tool-form-rules';
import type { EditorTabProps } from './editor-tab-props';

export interface ToolsTabProps extends EditorTabProps {
  /** The agent being edited (it cannot transfer to itself). */
  agentId: string;
}

/** The Tools tab: which of the workspace's tools the agent may call, and the built-in system tools. */
export function ToolsTab({ draft, edit, errors, agentId }: ToolsTabProps) {
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
      <McpServersSection draft={draft} edit={edit} errors={errors} />
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
        {prompt.built_in_tools.transfer_to_agent && (
          <TransfersEditor draft={draft} edit={edit} errors={errors} agentId={agentId} />
        )}
      </EditorSection>
    </div>
  );
}

/** Which agents the conversation may be handed to, and when (`transfer_to_agent`'s transfers). */
function TransfersEditor({ draft, edit, errors, agentId }: ToolsTabProps) {
  const agents = useAgents('');
  const others = flattenAgentPages(agents.data?.pages).filter((agent) => agent.agent_id !== agentId);
  const transfers = transfersOf(draft);
  const base = 'conversation_config.agent.prompt.built_in_tools.transfer_to_agent';
  const options = (current: string) => [
    ...(others.some((a) => a.agent_id === current) || current === ''
      ? []
      : [{ value: current, label: current }]),
    ...others.map((a) => ({ value: a.agent_id, label: a.name || 'Untitled agent' })),
  ];
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-line p-3">
      <legend className="px-1 text-sm font-medium">Transfers</legend>
      {agents.isError && <LoadError error={agents.error} onRetry={() => void agents.refetch()} />}
      {agents.isSuccess && others.length === 0 && (
        <p className="text-sm text-fg-muted">There is no other agent to transfer to yet.</p>
      )}
      {transfers.map((transfer, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows edited in place; the same agent may appear twice while chosen.
        <div key={index} className="flex flex-col gap-2 border-b border-line pb-3 last:border-b-0">
          <SelectField
            label={`Transfer ${index + 1} to`}
            value={transfer.agent_id}
            options={options(transfer.agent_id)}
            onChange={(event) => {
              const agent_id = event.target.value;
              edit((d) =>
                withTransfers(
                  d,
                  transfersOf(d).map((t, at) => (at === index ? { ...t, agent_id } : t)),
                ),
              );
            }}
            error={errorAt(errors, `${base}.params.transfers.${index}.agent_id`)}
          />
          <TextAreaField
            label={`Transfer ${index + 1} when`}
            rows={2}
            value={transfer.condition}
            placeholder="The caller asks about billing."
            onChange={(event) => {
              const condition = event.target.value;
              edit((d) =>
                withTransfers(
                  d,
                  transfersOf(d).map((t, at) => (at === index ? { ...t, condition } : t)),
                ),
              );
            }}
            error={errorAt(errors, `${base}.params.transfers.${index}.condition`)}
          />
          <div>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove transfer ${index + 1}`}
              onClick={() =>
                edit((d) =>
                  withTransfers(
                    d,
                    transfersOf(d).filter((_, at) => at !== index),
                  ),
                )
              }
            >
              Remove
            </Button>
          </div>
        </div>
      ))}
      <div>
        <Button
          variant="secondary"
          size="sm"
          disabled={others.length === 0 || transfers.length >= 20}
          onClick={() => {
            const first = others[0];
            if (first) edit((d) => withTransfers(d, [...transfersOf(d), newTransfer(first.agent_id)]));
          }}
        >
          Add transfer
        </Button>
      </div>
    </fieldset>
  );
}

/** Which of the workspace's MCP servers the agent may use (their approved tools: `mcp_server_ids`). */
function McpServersSection({ draft, edit, errors }: EditorTabProps) {
  const servers = useMcpServers();
  const chosen = new Set(draft.conversation_config.agent.prompt.mcp_server_ids);
  const list = servers.data?.mcp_servers ?? [];
  const error = errorAt(errors, 'conversation_config.agent.prompt.mcp_server_ids');
  const toggle = (serverId: string, on: boolean) =>
    edit((d) => {
      const ids = d.conversation_config.agent.prompt.mcp_server_ids.filter((id) => id !== serverId);
      return withPrompt(d, { mcp_server_ids: on ? [...ids, serverId] : ids });
    });
  return (
    <EditorSection
      title="MCP servers"
      description="The agent is offered the tools of these servers that you approved."
      actions={
        <Link to={INTEGRATIONS_PATH} className="text-sm font-medium underline-offset-2 hover:underline">
          Manage MCP servers
        </Link>
      }
    >
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {servers.isPending && (
        <div role="status" aria-busy="true" aria-label="Loading MCP servers" className="flex flex-col gap-2">
          <Skeleton className="h-10" />
        </div>
      )}
      {servers.isError && !servers.data && (
        <LoadError error={servers.error} onRetry={() => void servers.refetch()} />
      )}
      {servers.isSuccess && list.length === 0 && (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-fg-muted">
          The workspace has no MCP servers yet.{' '}
          <Link to={INTEGRATIONS_PATH} className="font-medium text-fg underline-offset-2 hover:underline">
            Add one
          </Link>
          , approve its tools, then choose it here.
        </p>
      )}
      {list.length > 0 && (
        <ul
          aria-label="MCP servers"
          className="flex flex-col divide-y divide-line rounded-lg border border-line"
        >
          {list.map((server) => (
            <li key={server.id} className="px-3 py-2.5">
              <label className="flex cursor-pointer items-start gap-3">
                <input
                  type="checkbox"
                  className="mt-1 size-4 accent-accent"
                  checked={chosen.has(server.id)}
                  onChange={(event) => toggle(server.id, event.target.checked)}
                />
                <span className="flex min-w-0 flex-col">
                  <span className="text-sm font-medium">{server.config.name}</span>
                  <span className="truncate text-xs text-fg-muted">{server.config.url}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </EditorSection>
  );
}

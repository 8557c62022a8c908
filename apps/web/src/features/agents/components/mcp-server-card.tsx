import type { McpApprovalPolicy, McpServerResponse, McpTool } from '@parla/contracts';
import { useId, useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/editor-fields';
import { LoadError } from '../../../ui/load-error';
import { Skeleton } from '../../../ui/skeleton';
import { useMcpServerTools } from '../api/list-mcp-server-tools';
import { useMcpToolApproval } from '../api/mcp-tool-approval';
import { useUpdateMcpApprovalPolicy } from '../api/update-mcp-approval-policy';
import { APPROVAL_POLICY_CHOICES } from './mcp-server-form-dialog';

export interface McpServerCardProps {
  server: McpServerResponse;
  onDelete: (server: McpServerResponse) => void;
}

/** One MCP server: where it is, its approval policy, and (asked of it on demand) its tools to approve. */
export function McpServerCard({ server, onDelete }: McpServerCardProps) {
  const id = useId();
  const { toastError } = useToast();
  const [showTools, setShowTools] = useState(false);
  const policy = useUpdateMcpApprovalPolicy();
  const c = server.config;
  const agents = server.dependent_agents.length;
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-start gap-3">
        <div className="flex min-w-0 flex-[1_1_14rem] flex-col gap-0.5">
          <h3 className="truncate text-sm font-semibold">{c.name}</h3>
          <p className="truncate font-mono text-xs text-fg-muted">{c.url}</p>
          <p className="text-xs text-fg-muted">
            {c.transport === 'SSE' ? 'SSE' : 'Streamable HTTP'}
            {c.secret_token ? ' · bearer token from a secret' : ''} ·{' '}
            {agents === 0 ? 'no agent uses it' : `used by ${agents === 1 ? '1 agent' : `${agents} agents`}`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={showTools}
            aria-controls={`${id}-tools`}
            onClick={() => setShowTools((v) => !v)}
          >
            {showTools ? 'Hide tools' : 'Tools'}
          </Button>
          <Button variant="ghost" size="sm" aria-label={`Delete ${c.name}`} onClick={() => onDelete(server)}>
            Delete
          </Button>
        </div>
      </div>
      <SelectField
        label="Tools agents may call"
        className="max-w-sm"
        value={c.approval_policy}
        disabled={policy.isPending}
        options={APPROVAL_POLICY_CHOICES}
        onChange={(event) =>
          policy.mutate(
            { serverId: server.id, policy: event.target.value as McpApprovalPolicy },
            { onError: toastError },
          )
        }
      />
      {showTools && (
        <div id={`${id}-tools`}>
          <McpToolList server={server} />
        </div>
      )}
    </li>
  );
}

function McpToolList({ server }: { server: McpServerResponse }) {
  const tools = useMcpServerTools(server.id, true);
  const approval = useMcpToolApproval();
  const { toastError } = useToast();
  const autoAll = server.config.approval_policy === 'auto_approve_all';
  if (tools.isPending)
    return (
      <div
        role="status"
        aria-busy="true"
        aria-label="Asking the server for its tools"
        className="flex flex-col gap-2"
      >
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    );
  if (tools.isError) return <LoadError error={tools.error} onRetry={() => void tools.refetch()} />;
  const data = tools.data;
  if (!data.success)
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2.5 text-sm"
      >
        <span className="min-w-0 flex-1 text-danger">{data.error_message}</span>
        <Button variant="secondary" size="sm" onClick={() => void tools.refetch()}>
          Try again
        </Button>
      </div>
    );
  if (data.tools.length === 0) return <p className="text-sm text-fg-muted">The server offers no tools.</p>;
  const stateOf = (tool: McpTool) =>
    data.tool_approval_statuses.find((s) => s.tool_id === `mcp:${server.id}:${tool.name}`)?.state ??
    'not_approved';
  return (
    <ul
      aria-label={`Tools of ${server.config.name}`}
      className="flex flex-col divide-y divide-line rounded-lg border border-line"
    >
      {data.tools.map((tool) => {
        const state = stateOf(tool);
        const offered = autoAll || state === 'up_to_date';
        return (
          <li key={tool.name} className="flex flex-wrap items-center gap-3 px-3 py-2.5">
            <div className="flex min-w-0 flex-[1_1_12rem] flex-col gap-0.5">
              <span className="font-mono text-sm">{tool.name}</span>
              {tool.description && <span className="text-xs text-fg-muted">{tool.description}</span>}
            </div>
            <Badge dot tone={offered ? 'success' : state === 'needs_review' ? 'warning' : 'neutral'}>
              {offered
                ? 'Offered to agents'
                : state === 'needs_review'
                  ? 'Changed since approved'
                  : 'Not approved'}
            </Badge>
            {!autoAll && (
              <Button
                variant={state === 'up_to_date' ? 'ghost' : 'secondary'}
                size="sm"
                disabled={approval.isPending}
                aria-label={`${state === 'up_to_date' ? 'Withdraw approval of' : 'Approve'} ${tool.name}`}
                onClick={() =>
                  approval.mutate(
                    { serverId: server.id, tool, approve: state !== 'up_to_date' },
                    { onError: toastError },
                  )
                }
              >
                {state === 'up_to_date' ? 'Withdraw' : 'Approve'}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

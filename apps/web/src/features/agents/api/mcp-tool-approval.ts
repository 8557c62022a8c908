import { addMcpToolApprovalRoute, deleteMcpToolApprovalRoute, type McpTool } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateMcpServers } from './agents-query-keys';

/**
 * `POST …/tool-approvals` (the tool as the server describes it now, so a later change needs approving
 * again) or `DELETE …/tool-approvals/{tool_name}`.
 */
export function useMcpToolApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, tool, approve }: { serverId: string; tool: McpTool; approve: boolean }) =>
      approve
        ? apiRequest(addMcpToolApprovalRoute, {
            params: { mcp_server_id: serverId },
            body: {
              tool_name: tool.name,
              tool_description: tool.description ?? '',
              input_schema: tool.inputSchema,
              approval_policy: 'auto_approved',
            },
          })
        : apiRequest(deleteMcpToolApprovalRoute, {
            params: { mcp_server_id: serverId, tool_name: tool.name },
          }),
    onSuccess: () => {
      void invalidateMcpServers(queryClient);
    },
  });
}

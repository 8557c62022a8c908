import { type McpApprovalPolicy, updateMcpApprovalPolicyRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateMcpServers } from './agents-query-keys';

/** `PATCH /v1/convai/mcp-servers/{id}/approval-policy`. */
export function useUpdateMcpApprovalPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, policy }: { serverId: string; policy: McpApprovalPolicy }) =>
      apiRequest(updateMcpApprovalPolicyRoute, {
        params: { mcp_server_id: serverId },
        body: { approval_policy: policy },
      }),
    onSuccess: () => {
      void invalidateMcpServers(queryClient);
    },
  });
}

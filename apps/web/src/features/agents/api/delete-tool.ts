import { deleteToolRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateAgents, invalidateTools } from './agents-query-keys';

export interface DeleteToolInput {
  toolId: string;
  /** Delete it even though agents use it (they lose it). */
  force?: boolean;
}

/** `DELETE /v1/convai/tools/{id}`: refused while agents use it, unless forced. */
export function deleteTool({ toolId, force }: DeleteToolInput) {
  return apiRequest(deleteToolRoute, {
    params: { tool_id: toolId },
    query: force ? { force: 'true' } : {},
  });
}

export function useDeleteTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTool,
    onSuccess: () => {
      void invalidateTools(queryClient);
      void invalidateAgents(queryClient);
    },
  });
}

import { type ToolRequest, updateToolRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invalidateTools } from './agents-query-keys';

export interface UpdateToolInput {
  toolId: string;
  /** The whole tool: the update replaces its configuration. */
  body: z.input<typeof ToolRequest>;
}

/** `PATCH /v1/convai/tools/{id}`: the saved tool. */
export function updateTool({ toolId, body }: UpdateToolInput) {
  return apiRequest(updateToolRoute, { params: { tool_id: toolId }, body });
}

export function useUpdateTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTool,
    onSuccess: () => {
      void invalidateTools(queryClient);
    },
  });
}

import { createToolRoute, type ToolRequest } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invalidateTools } from './agents-query-keys';

/** `POST /v1/convai/tools`: the saved tool. */
export function createTool(body: z.input<typeof ToolRequest>) {
  return apiRequest(createToolRoute, { body });
}

export function useCreateTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTool,
    onSuccess: () => {
      void invalidateTools(queryClient);
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDub } from './dubbing-query-keys';
import { type RenderType, renderDubbingRoute } from './types';

export interface RenderDubInput {
  language: string;
  renderType: RenderType;
}

/** `POST /v1/dubbing/resource/{id}/render/{language}`: starts a render; its status is in the resource's `renders`. */
export function renderDub(dubbingId: string, { language, renderType }: RenderDubInput) {
  return apiRequest(renderDubbingRoute, {
    params: { dubbing_id: dubbingId, language },
    body: { render_type: renderType },
  });
}

export function useRenderDub(dubbingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RenderDubInput) => renderDub(dubbingId, input),
    onSettled: () => invalidateDub(queryClient, dubbingId),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDub } from './dubbing-query-keys';
import type { SegmentsInLanguages } from './translate-segments';
import { dubSegmentsRoute } from './types';

/** `POST /v1/dubbing/resource/{id}/dub`: speak segments again in some languages. */
export function dubSegments(dubbingId: string, body: SegmentsInLanguages) {
  return apiRequest(dubSegmentsRoute, { params: { dubbing_id: dubbingId }, body });
}

export function useDubSegments(dubbingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SegmentsInLanguages) => dubSegments(dubbingId, body),
    onSettled: () => invalidateDub(queryClient, dubbingId),
  });
}

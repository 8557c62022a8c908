import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDub } from './dubbing-query-keys';
import { updateSegmentRoute } from './types';

export interface UpdateSegmentInput {
  segmentId: string;
  /** The source language or a target. */
  language: string;
  text: string;
}

/** `PATCH /v1/dubbing/resource/{id}/segment/{segment_id}/{language}`: a segment's text in one language. */
export function updateSegment(dubbingId: string, { segmentId, language, text }: UpdateSegmentInput) {
  return apiRequest(updateSegmentRoute, {
    params: { dubbing_id: dubbingId, segment_id: segmentId, language },
    body: { text },
  });
}

/** Saves a segment's text; the resource loads again (its new version, the dubbed clip marked stale). */
export function useUpdateSegment(dubbingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateSegmentInput) => updateSegment(dubbingId, input),
    onSettled: () => invalidateDub(queryClient, dubbingId),
  });
}

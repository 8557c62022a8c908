import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDub } from './dubbing-query-keys';
import { translateSegmentsRoute } from './types';

export interface SegmentsInLanguages {
  segments: string[];
  languages: string[];
}

/** `POST /v1/dubbing/resource/{id}/translate`: translate segments again into some languages. */
export function translateSegments(dubbingId: string, body: SegmentsInLanguages) {
  return apiRequest(translateSegmentsRoute, { params: { dubbing_id: dubbingId }, body });
}

export function useTranslateSegments(dubbingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SegmentsInLanguages) => translateSegments(dubbingId, body),
    onSettled: () => invalidateDub(queryClient, dubbingId),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateDub } from './dubbing-query-keys';
import { addDubbingLanguageRoute } from './types';

/** `POST /v1/dubbing/resource/{id}/language`: a new target language, translated and spoken by the next dub call. */
export function addDubbingLanguage(dubbingId: string, language: string) {
  return apiRequest(addDubbingLanguageRoute, { params: { dubbing_id: dubbingId }, body: { language } });
}

export function useAddDubbingLanguage(dubbingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: string) => addDubbingLanguage(dubbingId, language),
    onSettled: () => invalidateDub(queryClient, dubbingId),
  });
}

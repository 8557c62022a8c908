import { createPvcRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidateVoices } from './voice-query-keys';

export interface CreatePvcInput {
  name: string;
  /** ISO 639-1. */
  language: string;
  description: string;
}

/** `POST /v1/voices/pvc`: an empty professional clone, to which samples are added next. */
export function createPvc({ name, language, description }: CreatePvcInput) {
  return apiRequest(createPvcRoute, {
    body: { name: name.trim(), language, description: description.trim() || null },
  });
}

/** Creates a professional clone; the voice lists and the plan's slot counters load again. */
export function useCreatePvc() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPvc, onSuccess: () => invalidateVoices(queryClient) });
}

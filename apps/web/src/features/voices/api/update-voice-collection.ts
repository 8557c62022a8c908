import { updateCollectionRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

export interface UpdateVoiceCollectionInput {
  collectionId: string;
  name?: string;
  /** The collection's voices, all of them: the list replaces the one stored. */
  voiceIds?: string[];
}

/** `PATCH /v1/voices/collections/{id}`: rename a collection, or set its voices. */
export function updateVoiceCollection({ collectionId, name, voiceIds }: UpdateVoiceCollectionInput) {
  return apiRequest(updateCollectionRoute, {
    params: { collection_id: collectionId },
    body: { name: name?.trim(), voice_ids: voiceIds },
  });
}

/** Updates a collection; the collections and the voice lists filtered by one load again. */
export function useUpdateVoiceCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVoiceCollection,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: voiceQueryKeys.collections }),
        queryClient.invalidateQueries({ queryKey: voiceQueryKeys.searches }),
      ]),
  });
}

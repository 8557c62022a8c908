import { deleteCollectionRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { voiceQueryKeys } from './voice-query-keys';

/** `DELETE /v1/voices/collections/{id}`: the collection goes, its voices stay. */
export function deleteVoiceCollection(collectionId: string) {
  return apiRequest(deleteCollectionRoute, { params: { collection_id: collectionId } });
}

export function useDeleteVoiceCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVoiceCollection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: voiceQueryKeys.collections }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { dubbingQueryKeys } from './dubbing-query-keys';
import { deleteDubbingRoute } from './types';

/** `DELETE /v1/dubbing/{id}`: the dub and its files go. */
export async function deleteDub(dubbingId: string): Promise<void> {
  await apiRequest(deleteDubbingRoute, { params: { dubbing_id: dubbingId } });
}

export function useDeleteDub() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDub,
    onSuccess: (_answer, dubbingId) => {
      queryClient.removeQueries({ queryKey: dubbingQueryKeys.dub(dubbingId) });
      queryClient.removeQueries({ queryKey: dubbingQueryKeys.resource(dubbingId) });
      void queryClient.invalidateQueries({ queryKey: dubbingQueryKeys.lists });
    },
  });
}

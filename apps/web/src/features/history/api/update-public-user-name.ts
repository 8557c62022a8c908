import { type ShareLinkResponse, updatePublicUserNameRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/update-public-user-name` (history/voices §7): the name shown on the user's share pages. */
export function updatePublicUserName(publicUserName: string) {
  return apiRequest(updatePublicUserNameRoute, { body: { public_user_name: publicUserName } });
}

/** Saves the public name; the share links already loaded show the new one. */
export function useUpdatePublicUserName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePublicUserName,
    onSuccess: (answer) => {
      queryClient.setQueriesData<ShareLinkResponse>({ queryKey: ['history', 'share-link'] }, (data) =>
        data ? { ...data, public_user_name: answer.public_user_name } : data,
      );
    },
  });
}

import { deletePhoneNumberRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidatePhoneNumbers } from './telephony-query-keys';

/** `DELETE /v1/convai/phone-numbers/{id}`: the number and its sealed token. */
export function deletePhoneNumber(phoneNumberId: string) {
  return apiRequest(deletePhoneNumberRoute, { params: { phone_number_id: phoneNumberId } });
}

export function useDeletePhoneNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePhoneNumber,
    onSuccess: () => {
      void invalidatePhoneNumbers(queryClient);
    },
  });
}

import { updatePhoneNumberRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidatePhoneNumbers } from './telephony-query-keys';

/** `PATCH /v1/convai/phone-numbers/{id}`: the agent that answers the number (null: none). */
export function assignAgent(input: { phoneNumberId: string; agentId: string | null }) {
  return apiRequest(updatePhoneNumberRoute, {
    params: { phone_number_id: input.phoneNumberId },
    body: { agent_id: input.agentId },
  });
}

export function useAssignAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignAgent,
    onSuccess: () => {
      void invalidatePhoneNumbers(queryClient);
    },
  });
}

import { createPhoneNumberRoute } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invalidatePhoneNumbers } from './telephony-query-keys';

export interface ImportTwilioNumberInput {
  phoneNumber: string;
  label: string;
  sid: string;
  token: string;
}

/** `POST /v1/convai/phone-numbers`: imports a Twilio number; its auth token is sealed, never shown again. */
export function importTwilioNumber(input: ImportTwilioNumberInput) {
  return apiRequest(createPhoneNumberRoute, {
    body: {
      provider: 'twilio',
      phone_number: input.phoneNumber,
      label: input.label,
      sid: input.sid,
      token: input.token,
    },
  });
}

export function useImportTwilioNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importTwilioNumber,
    onSuccess: () => {
      void invalidatePhoneNumbers(queryClient);
    },
  });
}

import { listPhoneNumbersRoute } from '@parla/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { telephonyQueryKeys } from './telephony-query-keys';

/** `GET /v1/convai/phone-numbers`: the workspace's numbers, newest first (a workspace keeps few). */
export function usePhoneNumbers() {
  return useQuery({
    queryKey: telephonyQueryKeys.phoneNumbers,
    queryFn: ({ signal }) => apiRequest(listPhoneNumbersRoute, { query: {}, signal }),
  });
}

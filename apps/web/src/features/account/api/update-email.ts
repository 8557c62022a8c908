import { updateEmailRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `PUT /v1/user/email` (accounts §4, §7): finishes an email change, or reverts one (`isReverting`). */
export function updateEmail(code: string, isReverting: boolean) {
  return apiRequest(updateEmailRoute, {
    query: { verification_code: code, is_reverting: isReverting ? 'true' : 'false' },
  });
}

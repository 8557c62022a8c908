import { editUserRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/edit` (accounts §7): the caller's first name or locale. */
export function editUser(body: { first_name?: string; locale?: string }) {
  return apiRequest(editUserRoute, { body });
}

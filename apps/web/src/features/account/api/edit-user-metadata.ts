import { editUserMetadataRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/edit-user-metadata` (accounts §7): whether the caller gets the product updates. */
export function editUserMetadata(body: { agrees_to_product_updates?: boolean }) {
  return apiRequest(editUserMetadataRoute, { body });
}

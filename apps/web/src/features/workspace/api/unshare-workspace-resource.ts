import { unshareWorkspaceResourceRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';
import type { ShareTarget } from './share-workspace-resource';
import type { ShareableResourceType } from './workspace-query-keys';

/** `POST /v1/workspace/resources/{resource_id}/unshare` (history/voices §7 "Workspace"). */
export function unshareWorkspaceResource(type: ShareableResourceType, id: string, target: ShareTarget) {
  return apiRequest(unshareWorkspaceResourceRoute, {
    params: { resource_id: id },
    body: { resource_type: type, ...target },
  });
}

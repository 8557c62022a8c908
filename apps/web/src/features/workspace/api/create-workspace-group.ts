import { createWorkspaceGroupRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/groups` (accounts §6, §7). */
export function createWorkspaceGroup(name: string) {
  return apiRequest(createWorkspaceGroupRoute, { body: { name } });
}

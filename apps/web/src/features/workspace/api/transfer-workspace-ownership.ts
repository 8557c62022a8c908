import { transferWorkspaceOwnershipRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/transfer-ownership` (accounts §6, §7): hands the workspace to another member. */
export function transferWorkspaceOwnership(email: string) {
  return apiRequest(transferWorkspaceOwnershipRoute, { body: { email } });
}

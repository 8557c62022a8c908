import { updateWorkspaceSettingsRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/workspace/settings` (accounts §6, §7): the workspace's name or session timeout (admins). */
export function updateWorkspaceSettings(body: { name?: string; session_inactivity_timeout?: number | null }) {
  return apiRequest(updateWorkspaceSettingsRoute, { body });
}

import { createBackupCodeRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/user/backup-code` (accounts §7): a new backup code, shown once. */
export function createBackupCode() {
  return apiRequest(createBackupCodeRoute);
}

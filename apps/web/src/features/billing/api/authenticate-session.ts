import { authenticateSessionRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';
import type { SessionOutcome } from './submit-card';

/** `POST /v1/billing/sessions/:session_id/authenticate`: the simulated bank step, approved or failed. */
export function authenticateSession(sessionId: string, approve: boolean): Promise<SessionOutcome> {
  return apiRequest(authenticateSessionRoute, { params: { session_id: sessionId }, body: { approve } });
}

import { completeConnectSessionRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';
import type { SessionOutcome } from './submit-card';

/** `POST /v1/billing/sessions/:session_id/connect`: finishes the payouts onboarding of the built-in provider. */
export function completeConnectSession(sessionId: string): Promise<SessionOutcome> {
  return apiRequest(completeConnectSessionRoute, { params: { session_id: sessionId }, body: {} });
}

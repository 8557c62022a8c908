import { createPortalCardSessionRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /v1/billing/sessions/:session_id/payment-method-session`: the portal's change-card page, credentialed
 * by the portal session itself, so it works without a sign-in in this browser.
 */
export function createPortalCardSession(sessionId: string): Promise<{ url: string }> {
  return apiRequest(createPortalCardSessionRoute, { params: { session_id: sessionId }, body: {} });
}

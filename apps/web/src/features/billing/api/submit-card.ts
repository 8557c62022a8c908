import { type CardDetails, submitCardRoute } from '@parla/contracts';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** What a hosted step answers: paid or saved (with where to go), or a second step (authentication) first. */
export type SessionOutcome = z.output<(typeof submitCardRoute)['response']>;

/** `POST /v1/billing/sessions/:session_id/card`: pays (checkout) or saves (payment method) with a card. */
export function submitCard(sessionId: string, card: CardDetails): Promise<SessionOutcome> {
  return apiRequest(submitCardRoute, { params: { session_id: sessionId }, body: card });
}

import { createCheckoutSessionRoute } from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type CreateCheckoutSessionInput = z.input<NonNullable<(typeof createCheckoutSessionRoute)['body']>>;

/** `POST /v1/billing/create-checkout-session` (accounts §7): answers the hosted checkout page's URL. */
export function createCheckoutSession(body: CreateCheckoutSessionInput): Promise<{ url: string }> {
  return apiRequest(createCheckoutSessionRoute, { body });
}

/** Nothing to invalidate: the page is left for the checkout. */
export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}

import { type PromoValidation, validatePromocodeRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/billing/validate-promocode` (accounts §7): whether a promo code is valid, and its terms. */
export function validatePromocode(promocode: string): Promise<PromoValidation> {
  return apiRequest(validatePromocodeRoute, { body: { promocode } });
}

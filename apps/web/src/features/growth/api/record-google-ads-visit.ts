import { type GoogleAdsVisitRequest, googleAdsVisitRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/**
 * accounts §7 `POST /v1/google-ads-visit`: reports a paid-ads visit. "A non-200 is only logged": a failure
 * goes to the console, never to the person; this never rejects.
 */
export async function recordGoogleAdsVisit(visit: GoogleAdsVisitRequest): Promise<void> {
  try {
    await apiRequest(googleAdsVisitRoute, { body: visit });
  } catch (error) {
    console.warn('The paid-ads visit was not recorded.', error);
  }
}

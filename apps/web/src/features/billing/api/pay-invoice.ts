import { payInvoiceRoute } from '@parla/contracts';
import { apiRequest } from '../../../lib/api-client';

/** `POST /v1/billing/sessions/:session_id/invoices/:invoice_id/pay`: pays an open invoice with the card on file. */
export function payInvoice(sessionId: string, invoiceId: string): Promise<{ status: 'ok' }> {
  return apiRequest(payInvoiceRoute, { params: { session_id: sessionId, invoice_id: invoiceId } });
}

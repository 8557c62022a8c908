import type Stripe from 'stripe';
import { AppError } from '../../platform/errors';
import type { BillingWebhooks, ProviderBillingEvent, ProviderEventSubject } from './billing-provider';
import { cardOf, declined, idOf, invoiceFacts, subscriptionNow, unavailable } from './stripe-objects';

/**
 * Stripe's webhook behind the billing port's inbound side (issue 26 item 4): the signature is checked here,
 * and Stripe's events are read into the port's provider-neutral ones, so the billing module applies
 * events without knowing Stripe's objects. What an event needs from Stripe (the subscription a checkout
 * made, the card a setup checkout saved) is fetched when the module reads the event, which it does only
 * for an event it has not applied yet.
 */
export function createStripeWebhooks(stripe: Stripe, webhookSecret: string | undefined): BillingWebhooks {
  return {
    signatureHeader: 'stripe-signature',
    notReady: webhookSecret
      ? null
      : 'STRIPE_WEBHOOK_SECRET is not set: Stripe events are refused, so no checkout completes',
    async receive(rawBody, signature) {
      if (!webhookSecret) {
        throw new AppError('service_unavailable', 'Stripe webhooks are not configured on this server.');
      }
      if (typeof signature !== 'string' || signature.length === 0) {
        throw new AppError('bad_request', 'The Stripe-Signature header is missing.');
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      } catch (error) {
        throw new AppError('bad_request', 'The webhook signature does not match this server’s secret.', {
          cause: error,
        });
      }
      return { eventId: event.id, eventType: event.type, read: () => readStripeEvent(stripe, event) };
    },
    async readSubscription(subscriptionId) {
      try {
        return subscriptionNow(
          await stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] }),
        );
      } catch (error) {
        throw unavailable(error);
      }
    },
    async cancelSubscriptionNow(subscriptionId) {
      try {
        await stripe.subscriptions.cancel(subscriptionId);
      } catch (error) {
        throw unavailable(error);
      }
    },
    async useCardForSubscription(subscriptionId, providerCardId) {
      try {
        await stripe.subscriptions.update(subscriptionId, { default_payment_method: providerCardId });
      } catch (error) {
        throw unavailable(error);
      }
    },
    payInvoice: (providerInvoiceId) => payStripeInvoice(stripe, providerInvoiceId),
  };
}

/** Pays an open Stripe invoice with the card Stripe charges; a decline is a result, not an error. */
export async function payStripeInvoice(
  stripe: Stripe,
  providerInvoiceId: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const paid = await stripe.invoices.pay(providerInvoiceId);
    return paid.status === 'paid' ? { ok: true } : { ok: false, message: 'The invoice is still unpaid.' };
  } catch (error) {
    return declined(error);
  }
}

/**
 * Who an object is about: the workspace we named (a checkout's `client_reference_id`, else our
 * `workspace_id` metadata) and the Stripe customer, by which the billing module finds it otherwise.
 */
function subjectOf(
  metadata: Stripe.Metadata | null | undefined,
  customer: string | { id: string } | null,
  clientReferenceId?: string | null,
): ProviderEventSubject {
  return {
    workspaceId: clientReferenceId ?? (metadata?.workspace_id || null),
    customerId: idOf(customer),
  };
}

type EventIdentity = Pick<ProviderBillingEvent, 'eventId' | 'eventType'>;

/** A Stripe event in the port's words, with what it needs fetched (and, for a saved card, Stripe's side done). */
async function readStripeEvent(stripe: Stripe, event: Stripe.Event): Promise<ProviderBillingEvent> {
  const identity = { eventId: event.id, eventType: event.type };
  const ignored: ProviderBillingEvent = { ...identity, kind: 'ignored' };
  try {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const checkout = event.data.object;
        if (checkout.mode === 'subscription')
          return (await subscriptionCheckout(stripe, identity, checkout)) ?? ignored;
        if (checkout.mode === 'setup') return (await setupCheckout(stripe, identity, checkout)) ?? ignored;
        return ignored;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed':
      case 'invoice.voided':
      case 'invoice.marked_uncollectible': {
        const invoice = event.data.object;
        const facts = invoiceFacts(invoice);
        if (!facts) return ignored;
        return {
          ...identity,
          kind:
            event.type === 'invoice.paid'
              ? 'invoice_paid'
              : event.type === 'invoice.payment_failed'
                ? 'invoice_payment_failed'
                : 'invoice_written_off',
          subject: subjectOf(invoice.parent?.subscription_details?.metadata, invoice.customer),
          invoice: facts,
        };
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        return {
          ...identity,
          kind:
            event.type === 'customer.subscription.updated' ? 'subscription_updated' : 'subscription_deleted',
          subject: subjectOf(subscription.metadata, subscription.customer),
          subscriptionId: subscription.id,
        };
      }
      default:
        return ignored;
    }
  } catch (error) {
    throw unavailable(error);
  }
}

/** A paid subscription checkout, with the subscription it made; null while it is not paid yet. */
async function subscriptionCheckout(
  stripe: Stripe,
  identity: EventIdentity,
  checkout: Stripe.Checkout.Session,
): Promise<ProviderBillingEvent | null> {
  const subscriptionId = idOf(checkout.subscription);
  const customerId = idOf(checkout.customer);
  // Paid later (a bank debit): checkout.session.async_payment_succeeded brings it back.
  if (!subscriptionId || !customerId || checkout.payment_status === 'unpaid') return null;
  const subscription = await stripe.subscriptions.retrieve(subscriptionId, {
    expand: ['default_payment_method'],
  });
  const metadata = checkout.metadata ?? {};
  return {
    ...identity,
    kind: 'subscription_checkout_paid',
    subject: subjectOf(metadata, customerId, checkout.client_reference_id),
    customerId,
    checkout: {
      id: checkout.id,
      sessionId: metadata.parla_session_id || null,
      tier: metadata.tier ?? null,
      billingPeriod: metadata.billing_period ?? null,
      currency: metadata.currency ?? null,
      subtotalCents: checkout.amount_subtotal,
      totalCents: checkout.amount_total,
    },
    subscription: subscriptionNow(subscription),
  };
}

/**
 * A card saved in a setup checkout: it becomes the Stripe customer's default card here (the billing
 * module makes it its subscription's too); null when the checkout saved none.
 */
async function setupCheckout(
  stripe: Stripe,
  identity: EventIdentity,
  checkout: Stripe.Checkout.Session,
): Promise<ProviderBillingEvent | null> {
  const setupIntentId = idOf(checkout.setup_intent);
  const customerId = idOf(checkout.customer);
  if (!setupIntentId || !customerId) return null;
  const intent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] });
  const methodId = idOf(intent.payment_method);
  if (!methodId) return null;
  await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: methodId } });
  return {
    ...identity,
    kind: 'card_saved',
    subject: subjectOf(checkout.metadata, customerId, checkout.client_reference_id),
    providerCardId: methodId,
    card: cardOf(intent.payment_method),
    sessionId: checkout.metadata?.parla_session_id || null,
  };
}

import http from 'node:http';

/** One API call the fake received: the form body flattened (`metadata[tier]`, `line_items[0][price]`). */
export interface StripeCall {
  method: string;
  path: string;
  params: Record<string, string>;
}

type Json = Record<string, unknown>;

interface FakeSubscription {
  id: string;
  customer: string;
  price: string;
  start: number;
  end: number;
  status: string;
  cancelAtPeriodEnd: boolean;
  schedule: string | null;
  paymentMethod: string | null;
  metadata: Record<string, string>;
}

const CARD = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };

/**
 * A local HTTP server answering the few Stripe API calls the Stripe provider makes, with objects shaped
 * like Stripe's. It records every call, keeps what was created (products, prices, coupons, customers,
 * subscriptions added by the test, schedules) and can refuse the next subscription update like a
 * declined card. It holds no billing rule: the test asserts what the server sent.
 */
export async function startFakeStripe() {
  const calls: StripeCall[] = [];
  const products = new Map<string, Json>();
  const prices = new Map<string, Json>();
  const coupons = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const subscriptions = new Map<string, FakeSubscription>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_${++counter}`;
  const options = { declineNextSubscriptionUpdate: false };

  const subscriptionJson = (sub: FakeSubscription, expand: string[]): Json => ({
    id: sub.id,
    object: 'subscription',
    customer: sub.customer,
    status: sub.status,
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    schedule: sub.schedule,
    metadata: sub.metadata,
    default_payment_method:
      sub.paymentMethod && expand.includes('default_payment_method')
        ? { id: sub.paymentMethod, object: 'payment_method', type: 'card', card: CARD }
        : sub.paymentMethod,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${sub.id}`,
          object: 'subscription_item',
          price: prices.get(sub.price) ?? { id: sub.price, object: 'price' },
          quantity: 1,
          current_period_start: sub.start,
          current_period_end: sub.end,
        },
      ],
    },
    latest_invoice: expand.includes('latest_invoice')
      ? { id: nextId('in_upgrade'), object: 'invoice', subtotal: 1234, amount_due: 1234, status: 'paid' }
      : null,
  });

  const missing = (what: string, id: string) => ({
    status: 404,
    body: {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` },
    },
  });

  function answer(
    method: string,
    path: string,
    params: Record<string, string>,
  ): { status: number; body: Json } {
    const expand = Object.entries(params)
      .filter(([key]) => key.startsWith('expand['))
      .map(([, value]) => value);
    const ok = (body: Json) => ({ status: 200, body });
    const route = (verb: string | null, pattern: RegExp) =>
      verb === null || verb === method ? path.match(pattern) : null;
    let m: RegExpMatchArray | null;

    m = route('GET', /^\/v1\/products\/([^/]+)$/);
    if (m) {
      const product = products.get(m[1] ?? '');
      return product ? ok(product) : missing('product', m[1] ?? '');
    }
    if (method === 'POST' && path === '/v1/products') {
      const product = { id: params.id ?? nextId('prod'), object: 'product', name: params.name };
      products.set(String(product.id), product);
      return ok(product);
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys = Object.entries(params)
        .filter(([key]) => key.startsWith('lookup_keys['))
        .map(([, value]) => value);
      const data = [...prices.values()].filter((p) => keys.includes(String(p.lookup_key)));
      return ok({ object: 'list', data, has_more: false, url: '/v1/prices' });
    }
    if (method === 'POST' && path === '/v1/prices') {
      const price = {
        id: nextId('price'),
        object: 'price',
        product: params.product,
        currency: params.currency,
        unit_amount: Number(params.unit_amount),
        lookup_key: params.lookup_key,
        recurring: { interval: params['recurring[interval]'] },
        active: true,
      };
      prices.set(price.id, price);
      return ok(price);
    }
    m = route('GET', /^\/v1\/coupons\/([^/]+)$/);
    if (m) {
      const coupon = coupons.get(m[1] ?? '');
      return coupon ? ok(coupon) : missing('coupon', m[1] ?? '');
    }
    if (method === 'POST' && path === '/v1/coupons') {
      const coupon = { ...params, object: 'coupon' };
      coupons.set(String(params.id), coupon);
      return ok(coupon);
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: nextId('cus'),
        object: 'customer',
        email: params.email ?? null,
        invoice_settings: { default_payment_method: null },
      };
      customers.set(customer.id, customer);
      return ok(customer);
    }
    m = route(null, /^\/v1\/customers\/([^/]+)$/);
    if (m) {
      const customer = customers.get(m[1] ?? '');
      if (!customer) return missing('customer', m[1] ?? '');
      if (method === 'POST' && params['invoice_settings[default_payment_method]']) {
        customer.invoice_settings = {
          default_payment_method: params['invoice_settings[default_payment_method]'],
        };
      }
      return ok(customer);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = nextId('cs_test');
      return ok({
        id,
        object: 'checkout.session',
        mode: params.mode,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      });
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = nextId('bps');
      return ok({ id, object: 'billing_portal.session', url: `https://billing.stripe.test/p/session/${id}` });
    }
    m = route(null, /^\/v1\/subscriptions\/([^/]+)$/);
    if (m) {
      const sub = subscriptions.get(m[1] ?? '');
      if (!sub) return missing('subscription', m[1] ?? '');
      if (method === 'POST') {
        if (options.declineNextSubscriptionUpdate) {
          options.declineNextSubscriptionUpdate = false;
          return {
            status: 402,
            body: {
              error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
            },
          };
        }
        if (params.cancel_at_period_end) sub.cancelAtPeriodEnd = params.cancel_at_period_end === 'true';
        if (params['items[0][price]']) sub.price = params['items[0][price]'];
        if (params.default_payment_method) sub.paymentMethod = params.default_payment_method;
      }
      if (method === 'DELETE') return ok({ ...subscriptionJson(sub, expand), status: 'canceled' });
      return ok(subscriptionJson(sub, expand));
    }
    if (method === 'POST' && path === '/v1/subscription_schedules') {
      const sub = subscriptions.get(params.from_subscription ?? '');
      if (!sub) return missing('subscription', params.from_subscription ?? '');
      sub.schedule = nextId('sub_sched');
      return ok({ id: sub.schedule, object: 'subscription_schedule', subscription: sub.id, phases: [] });
    }
    m = route('POST', /^\/v1\/subscription_schedules\/([^/]+)\/release$/);
    if (m) {
      for (const sub of subscriptions.values()) if (sub.schedule === m[1]) sub.schedule = null;
      return ok({ id: m[1], object: 'subscription_schedule', status: 'released' });
    }
    m = route('POST', /^\/v1\/subscription_schedules\/([^/]+)$/);
    if (m) {
      return ok({ id: m[1], object: 'subscription_schedule', status: 'active', metadata: {} });
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      return ok({ id: nextId('seti'), object: 'setup_intent', status: 'succeeded' });
    }
    m = route('GET', /^\/v1\/setup_intents\/([^/]+)$/);
    if (m) {
      return ok({
        id: m[1],
        object: 'setup_intent',
        status: 'succeeded',
        payment_method: {
          id: 'pm_new',
          object: 'payment_method',
          type: 'card',
          card: { ...CARD, last4: '5556' },
        },
      });
    }
    m = route('POST', /^\/v1\/invoices\/([^/]+)\/pay$/);
    if (m) {
      return ok({ id: m[1], object: 'invoice', status: 'paid' });
    }
    if (method === 'POST' && path === '/v1/accounts') {
      return ok({ id: nextId('acct'), object: 'account', details_submitted: false });
    }
    m = route('GET', /^\/v1\/accounts\/([^/]+)$/);
    if (m) {
      return ok({ id: m[1], object: 'account', details_submitted: false });
    }
    if (method === 'POST' && path === '/v1/account_links') {
      return ok({ object: 'account_link', url: `https://connect.stripe.test/setup/e/${params.account}` });
    }
    return {
      status: 404,
      body: {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` },
      },
    };
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake-stripe');
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8')))
        params[key] = value;
      const method = request.method ?? 'GET';
      calls.push({ method, path: url.pathname, params });
      const { status, body } = answer(method, url.pathname, params);
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    options,
    /** The calls to `method path` (a path string, or a pattern), in order. */
    callsTo(method: string, path: string | RegExp): StripeCall[] {
      return calls.filter(
        (c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)),
      );
    },
    /** The price the fake holds under a lookup key. */
    priceByLookupKey(lookupKey: string): Json | undefined {
      return [...prices.values()].find((p) => p.lookup_key === lookupKey);
    },
    coupon(id: string): Json | undefined {
      return coupons.get(id);
    },
    /** A subscription as Stripe would hold it after a completed checkout. */
    addSubscription(input: {
      customer: string;
      price: string;
      start: Date;
      end: Date;
      metadata?: Record<string, string>;
    }) {
      const sub: FakeSubscription = {
        id: nextId('sub'),
        customer: input.customer,
        price: input.price,
        start: Math.floor(input.start.getTime() / 1000),
        end: Math.floor(input.end.getTime() / 1000),
        status: 'active',
        cancelAtPeriodEnd: false,
        schedule: null,
        paymentMethod: 'pm_card_visa',
        metadata: input.metadata ?? {},
      };
      subscriptions.set(sub.id, sub);
      return sub;
    },
    subscription(id: string): FakeSubscription | undefined {
      return subscriptions.get(id);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The Stripe client keeps its connections alive.
        server.closeAllConnections();
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

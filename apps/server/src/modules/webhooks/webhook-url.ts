import { invalid } from '../../platform/errors';
import { AddressNotAllowedError, resolvePublicAddresses } from '../../platform/network-address';

/** Headers a delivery sets itself, which a webhook's own headers may not replace. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'connection',
  'transfer-encoding',
  'elevenlabs-signature',
]);

/**
 * Why a webhook URL at a private address is refused, and how it is allowed, in words a workspace admin
 * can pass on to whoever runs the server (issue 26 item 7): at saving and at delivery alike.
 */
export function privateAddressMessage(address: string): string {
  return (
    `The webhook URL points at a private, loopback or reserved address (${address}). This server calls ` +
    'only public internet addresses unless whoever runs it allows private ones: if your receiver is on ' +
    "your own network, ask the server's operator to set WEBHOOK_ALLOW_PRIVATE_URLS=true."
  );
}

/**
 * Checks a webhook's address when it is saved (issue 19 item 5): https, or http outside production; no
 * user name or password in it; a host that resolves, and only to public addresses unless the operator
 * allows private ones (WEBHOOK_ALLOW_PRIVATE_URLS). Deliveries check the address again when they connect.
 * Answers the normalised URL; throws a 422 on `field`.
 */
export async function checkWebhookUrl(
  value: string,
  options: { production: boolean; allowPrivate: boolean; field: string[] },
): Promise<string> {
  const problem = (message: string) => {
    const error = invalid('webhook_url', message);
    error.errors?.splice(0, 1, { loc: ['body', ...options.field], msg: message, type: 'value_error' });
    return error;
  };
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw problem('The webhook URL is not a valid address (e.g. https://example.com/hooks/parla).');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !options.production)) {
    throw problem(
      options.production
        ? 'The webhook URL must start with https://.'
        : 'The webhook URL must start with https:// or http://.',
    );
  }
  if (url.username || url.password)
    throw problem('The webhook URL cannot hold a user name or password; use request headers.');
  if (url.hash) url.hash = '';
  try {
    await resolvePublicAddresses(url.hostname, options.allowPrivate);
  } catch (error) {
    if (error instanceof AddressNotAllowedError) {
      throw problem(privateAddressMessage(error.address));
    }
    throw problem(`The host ${url.hostname} could not be found.`);
  }
  return url.toString();
}

/** Refuses headers a delivery sets itself (the names are checked by the contract). */
export function checkRequestHeaders(
  headers: Record<string, string>,
  field: string[],
): Record<string, string> {
  for (const name of Object.keys(headers)) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      const message = `The header ${name} is set by the server and cannot be replaced.`;
      const error = invalid('request_headers', message);
      error.errors?.splice(0, 1, { loc: ['body', ...field, name], msg: message, type: 'value_error' });
      throw error;
    }
  }
  return headers;
}

import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_SIGNATURE_HEADER } from '@parla/contracts';
import {
  AddressNotAllowedError,
  checkedLookup,
  resolvePublicAddresses,
} from '../../platform/network-address';
import { privateAddressMessage } from './webhook-url';

/*
 * One POST of a signed event to a webhook's address (issue 19 item 5). The signature is the public API's
 * (`@elevenlabs/elevenlabs-js` wrapper/webhooks.js constructEvent): `t=<unix seconds>,v0=<hex
 * HMAC-SHA256(secret, t + "." + body)>`. The address is resolved and checked here, at delivery, and the
 * connection goes to the checked address, so a name that resolved to a public address when the webhook
 * was saved cannot be pointed at a private one later.
 */

/** The `ElevenLabs-Signature` header of `body` signed at `unixSeconds`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v0=${digest}`;
}

/** How an attempt ended, for the log and the retry rule. */
export interface AttemptResult {
  /** 2xx. */
  ok: boolean;
  /** Worth another try: 5xx, 429, a network error or the time limit (never a 4xx or a refused address). */
  retryable: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** What of a receiver's answer is read (the status is what counts; the rest is a hint in the log). */
const MAX_RESPONSE_BYTES = 4096;
const USER_AGENT = 'Parla-Webhooks/1.0';

/** A short, readable piece of what the receiver answered. */
function snippetOf(bytes: Buffer): string {
  const text = bytes.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** POSTs `body` to `url`, signed with `secret`, within `timeoutMs`; never throws. */
export async function postSignedEvent(input: {
  url: string;
  body: string;
  secret: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  now: () => Date;
}): Promise<AttemptResult> {
  const started = Date.now();
  const took = () => Date.now() - started;
  let target: URL;
  try {
    target = new URL(input.url);
    // An IP literal never goes through the lookup: check it here.
    await resolvePublicAddresses(target.hostname, input.allowPrivate).catch((error: unknown) => {
      if (error instanceof AddressNotAllowedError) throw error;
      // A name that does not resolve now fails below like any network error (and is retried).
    });
  } catch (error) {
    return {
      ok: false,
      retryable: false,
      statusCode: null,
      error:
        error instanceof AddressNotAllowedError
          ? privateAddressMessage(error.address)
          : (error as Error).message,
      durationMs: took(),
    };
  }
  const timestamp = Math.floor(input.now().getTime() / 1000);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: took() });
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: checkedLookup(input.allowPrivate),
        headers: {
          ...input.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(input.body),
          'user-agent': USER_AGENT,
          [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(input.secret, input.body, timestamp),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          response.destroy();
          const ok = status >= 200 && status < 300;
          const snippet = snippetOf(Buffer.concat(chunks));
          finish({
            ok,
            retryable: status >= 500 || status === 429,
            statusCode: status,
            error: ok
              ? null
              : status >= 300 && status < 400
                ? `The receiver answered ${status} (redirects are not followed).`
                : `The receiver answered ${status}${snippet ? `: ${snippet}` : '.'}`,
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({
        ok: false,
        retryable: true,
        statusCode: null,
        error: `No answer within ${Math.round(input.timeoutMs / 100) / 10} s.`,
      });
    }, input.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error instanceof AddressNotAllowedError;
      finish({
        ok: false,
        retryable: !refused,
        statusCode: null,
        error: refused
          ? privateAddressMessage(error.address)
          : `Could not reach the receiver (${error.code ?? error.message}).`,
      });
    });
    request.end(input.body);
  });
}

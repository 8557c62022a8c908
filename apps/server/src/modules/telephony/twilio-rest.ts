import { AppError } from '../../platform/errors';

/*
 * The one Twilio REST call Parla makes (issue 28, phone numbers): create a call
 * (`POST /2010-04-01/Accounts/{AccountSid}/Calls.json`, form-encoded, HTTP basic auth with the account SID
 * and auth token) whose TwiML connects the call's audio to Parla's media-stream socket. TWILIO_API_URL
 * points it at Twilio (https://api.twilio.com) or at a local stand-in in tests.
 */

/** How long Twilio may take to answer the call request. */
const TWILIO_TIMEOUT_MS = 15_000;

export interface TwilioCallRequest {
  apiUrl: string;
  accountSid: string;
  authToken: string;
  to: string;
  from: string;
  twiml: string;
  /** Seconds the callee's phone rings before Twilio gives up (Twilio's `Timeout`). */
  ringingTimeoutSecs?: number | undefined;
  /** Twilio records the call on its side (`Record`). */
  record?: boolean | undefined;
}

/** Places the call; resolves with its SID, or throws the API's error saying what Twilio answered. */
export async function createTwilioCall(request: TwilioCallRequest): Promise<{ callSid: string }> {
  const form = new URLSearchParams({ To: request.to, From: request.from, Twiml: request.twiml });
  if (request.ringingTimeoutSecs !== undefined) form.set('Timeout', String(request.ringingTimeoutSecs));
  if (request.record) form.set('Record', 'true');
  const url = `${request.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(request.accountSid)}/Calls.json`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${request.accountSid}:${request.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TWILIO_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new AppError(
      'service_unavailable',
      `Twilio could not be reached (${cause.slice(0, 120)}); the call was not placed.`,
    );
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: said below with the status.
  }
  if (!response.ok) {
    const said = typeof body.message === 'string' ? body.message.slice(0, 300) : `HTTP ${response.status}`;
    // 401: the number's SID or token is wrong; 400: Twilio refused the numbers (unverified, not owned…).
    if (response.status === 401 || response.status === 403)
      throw new AppError(
        'bad_request',
        `Twilio refused the phone number's account SID and auth token: ${said}. Import the number again with the right ones.`,
      );
    if (response.status >= 400 && response.status < 500)
      throw new AppError('bad_request', `Twilio refused the call: ${said}`);
    throw new AppError('service_unavailable', `Twilio failed to place the call: ${said}`);
  }
  if (typeof body.sid !== 'string' || !body.sid)
    throw new AppError('service_unavailable', 'Twilio answered the call request without a call SID.');
  return { callSid: body.sid };
}

function xmlAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * TwiML that connects the call's audio both ways to the media-stream socket at `streamUrl`. Twilio drops a
 * stream URL's query string, so the call's token travels as a `<Parameter>` (the `start` event's
 * `customParameters`).
 */
export function connectStreamTwiml(streamUrl: string, token: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<Response><Connect><Stream url="${xmlAttribute(streamUrl)}">` +
    `<Parameter name="call_token" value="${xmlAttribute(token)}"/>` +
    '</Stream></Connect></Response>'
  );
}

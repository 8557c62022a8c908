import { buildPath, clientErrorMessages, type RouteDescriptor } from '@parla/contracts';
import type { z } from 'zod';
import { getAccessToken } from './access-token';
import {
  getStatusText,
  HttpError,
  networkErrorType,
  readErrorType,
  readServerMessage,
  unknownErrorType,
} from './http-error';
import { refreshAccessToken } from './session-refresh';

/** The input type of one of a descriptor's optional schemas; `never` when the route declares none. */
type SlotInput<Slot> = [Exclude<Slot, undefined>] extends [never] ? never : z.input<Extract<Slot, z.ZodType>>;

/** Everything a call may carry besides the route; each part is typed by the route's own schema. */
export interface ApiRequestOptions<Route extends RouteDescriptor> {
  params?: SlotInput<Route['params']>;
  query?: SlotInput<Route['query']>;
  body?: SlotInput<Route['body']> | FormData;
  /** Extra request headers (e.g. the sensitive-action code). */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal;
}

/** What a route answers with on success: the parsed output of its response schema. */
export type ApiResponse<Route extends RouteDescriptor> = z.output<Route['response']>;

type QueryValue = string | number | boolean | null | undefined;

function isQueryValue(value: unknown): value is QueryValue {
  return value == null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Serialises a query object: lists repeat their key, null and undefined are left out. */
export function buildQueryString(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const search = new URLSearchParams();
  for (const [key, raw] of Object.entries(query)) {
    const values: unknown[] = Array.isArray(raw) ? raw : [raw];
    for (const value of values) {
      if (!isQueryValue(value)) throw new TypeError(`Query parameter "${key}" is not a plain value`);
      if (value != null) search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Reads a response body: undefined when empty, the JSON value, or `failed` when it is not JSON. */
async function readBody(
  response: Response,
): Promise<{ ok: true; value: unknown } | { ok: false; text: string }> {
  const text = await response.text();
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, text };
  }
}

/** The network failed, or the body could not be read to its end: "Network error" (accounts §8). */
function networkError(error: unknown, payload: unknown): HttpError {
  return new HttpError(
    { status: 0, message: clientErrorMessages.network, errorType: networkErrorType, payload },
    { cause: error },
  );
}

/**
 * Sends one API request and answers its successful Response with the body unread. Sends the in-memory
 * bearer token and same-origin cookies; a 401 on a token that just expired is refreshed and retried once.
 * An error response becomes HttpError per accounts §8: the server message, or status 0 and type
 * `unknown` for a body that cannot be parsed; "Network error" when no response arrives. An abort
 * rethrows the abort.
 */
async function sendRequest<Route extends RouteDescriptor>(
  route: Route,
  options: ApiRequestOptions<Route>,
  accept: string,
  /** Set on the one retry after a token refresh. */
  retried = false,
): Promise<Response> {
  const { params, query, body, signal } = options;
  const url =
    buildPath(route.path, (params ?? {}) as Record<string, string | number>) + buildQueryString(query);

  const headers = new Headers({ ...options.headers, accept });
  const token = getAccessToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let requestBody: BodyInit | undefined;
  if (body instanceof FormData) {
    requestBody = body;
  } else if (body !== undefined) {
    headers.set('content-type', 'application/json');
    requestBody = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method,
      headers,
      body: requestBody,
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw networkError(error, body);
  }
  if (response.ok) return response;

  let parsed: Awaited<ReturnType<typeof readBody>>;
  try {
    parsed = await readBody(response);
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw networkError(error, body);
  }
  if (!parsed.ok) {
    // accounts §8: a body that fails to parse gives status 0 and type unknown.
    throw new HttpError({
      status: 0,
      message: clientErrorMessages.generic,
      errorType: unknownErrorType,
      payload: body,
      data: parsed.text,
    });
  }

  if (
    response.status === 401 &&
    token &&
    !retried &&
    !route.path.startsWith('/v1/auth/') &&
    readErrorType(parsed.value) === 'unauthorized'
  ) {
    // The access token ran out between refreshes (5 minutes, accounts §4): refresh once and try again.
    // Only for `unauthorized`: a 401 about something else (a wrong second-factor code) is the answer.
    const next = await refreshAccessToken().catch(() => null);
    if (next) return sendRequest(route, options, accept, true);
  }

  if (response.status === 401 && token && readErrorType(parsed.value) === 'workspace_access_revoked') {
    // Removed from (or locked in) the workspace: the next token names the one the user works in now. The
    // request is not replayed there — it was meant for the other workspace — and what was cached goes.
    await refreshAccessToken().catch(() => null);
    window.dispatchEvent(new Event(WORKSPACE_LEFT_EVENT));
  }

  const otherSchema = route.otherResponses?.[response.status];
  const other = otherSchema?.safeParse(parsed.value);
  throw new HttpError({
    status: response.status,
    message: readServerMessage(parsed.value) ?? getStatusText(response.status, response.statusText),
    errorType: readErrorType(parsed.value),
    payload: body,
    data: other?.success ? other.data : parsed.value,
  });
}

/** Fired on `window` when the server says the user no longer has access to the workspace they worked in. */
export const WORKSPACE_LEFT_EVENT = 'parla:workspace-left';

/**
 * Calls a route whose answer is not JSON (audio, a stream) and returns the successful Response with its
 * body unread, for the caller to read or hand on; errors are handled as in apiRequest.
 */
export function apiFetch<Route extends RouteDescriptor>(
  route: Route,
  options: ApiRequestOptions<Route> = {},
  accept = '*/*',
): Promise<Response> {
  return sendRequest(route, options, accept);
}

/**
 * Calls one API route and returns its response parsed by the route's schema (ARCHITECTURE principle 5).
 * Authentication, the one refresh and the error rules are sendRequest's; a 2xx body that is not JSON or
 * does not match the contract is status 0 and type `unknown` (accounts §8).
 */
export async function apiRequest<Route extends RouteDescriptor>(
  route: Route,
  options: ApiRequestOptions<Route> = {},
): Promise<ApiResponse<Route>> {
  const response = await sendRequest(route, options, 'application/json');
  let parsed: Awaited<ReturnType<typeof readBody>>;
  try {
    parsed = await readBody(response);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    throw networkError(error, options.body);
  }
  if (!parsed.ok) {
    throw new HttpError({
      status: 0,
      message: clientErrorMessages.generic,
      errorType: unknownErrorType,
      payload: options.body,
      data: parsed.text,
    });
  }
  const result = route.response.safeParse(parsed.value);
  if (!result.success) {
    // A 2xx body that breaks the contract is as unreadable as one that is not JSON.
    throw new HttpError(
      {
        status: 0,
        message: clientErrorMessages.generic,
        errorType: unknownErrorType,
        payload: options.body,
        data: parsed.value,
      },
      { cause: result.error },
    );
  }
  return result.data as ApiResponse<Route>;
}

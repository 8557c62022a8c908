import { clientErrorMessages } from '@parla/contracts';

/** `errorType` of a body that could not be read (accounts §8). */
export const unknownErrorType = 'unknown';
/** `errorType` of a request that never got an answer (offline, DNS, refused connection). */
export const networkErrorType = 'network_error';
/** `errorType` of an error response whose body names no `detail.status` code. */
export const httpErrorType = 'http_error';

export interface HttpErrorInit {
  status: number;
  message: string;
  errorType: string;
  payload?: unknown;
  data?: unknown;
}

/**
 * The one error the API client throws (accounts §8): `status` is the HTTP status (0 when the body could
 * not be parsed or the network failed), `errorType` the server's `detail.status` code, `payload` the
 * request body that was sent and `data` the response body as received.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly errorType: string;
  readonly payload: unknown;
  readonly data: unknown;

  constructor(init: HttpErrorInit, options?: { cause?: unknown }) {
    super(init.message, options);
    this.status = init.status;
    this.errorType = init.errorType;
    this.payload = init.payload;
    this.data = init.data;
  }
}

/** Narrows an unknown thrown value to an HttpError. */
export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * The message of an error body: `detail.message`, then `detail.msg`, then `detail.status` (accounts §8).
 * Also reads the two other shapes the public API uses: `detail` as a string, and `detail` as a list of
 * validation issues (the first issue's `msg`).
 */
export function readServerMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const detail = body.detail;
  const direct = nonEmptyString(detail);
  if (direct) return direct;
  const first = Array.isArray(detail) ? detail[0] : detail;
  if (!isRecord(first)) return undefined;
  return nonEmptyString(first.message) ?? nonEmptyString(first.msg) ?? nonEmptyString(first.status);
}

/**
 * The message of a refused request about one field of its body (a 422's `detail.errors[].loc` ending with
 * `field`, e.g. `["body", "settings", "webhook_url"]` or `["body", "webhook_url"]` for `webhook_url`), to
 * show under that field; undefined when the error is about something else.
 */
export function readFieldError(error: unknown, field: string): string | undefined {
  if (!isHttpError(error) || !isRecord(error.data) || !isRecord(error.data.detail)) return undefined;
  const issues = error.data.detail.errors;
  if (!Array.isArray(issues)) return undefined;
  for (const issue of issues) {
    if (!isRecord(issue) || !Array.isArray(issue.loc)) continue;
    if (issue.loc[0] === 'body' && issue.loc.at(-1) === field) return nonEmptyString(issue.msg);
  }
  return undefined;
}

/** The machine-readable code of an error body (`detail.status`), the thing the web switches on (STYLE 6). */
export function readErrorType(body: unknown): string {
  if (isRecord(body) && isRecord(body.detail)) return nonEmptyString(body.detail.status) ?? httpErrorType;
  return httpErrorType;
}

/** Reason phrases for when the response carries none (HTTP/2 never does). */
const reasonPhrases: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The status text of a response, falling back to the standard reason phrase, then to `HTTP <status>`. */
export function getStatusText(status: number, statusText: string): string {
  return nonEmptyString(statusText) ?? reasonPhrases[status] ?? `HTTP ${status}`;
}

/**
 * The toast text for any error (accounts §8): the server's message when the status is below 500 and a
 * message exists, otherwise the generic sentence. A network failure (status 0) shows "Network error".
 */
export function getToastMessage(error: unknown): string {
  if (isHttpError(error) && error.status < 500 && nonEmptyString(error.message)) return error.message;
  return clientErrorMessages.generic;
}

import { buildPath, clientErrorMessages, type RouteDescriptor } from '@parla/contracts';
import { getAccessToken } from './access-token';
import type { ApiResponse } from './api-client';
import {
  getStatusText,
  HttpError,
  networkErrorType,
  readErrorType,
  readServerMessage,
  unknownErrorType,
} from './http-error';
import { refreshAccessToken } from './session-refresh';

export interface ApiUploadOptions {
  params?: Record<string, string>;
  body: FormData;
  /** Called as the body goes out: bytes sent and the total (0 when the browser does not know it). */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

interface RawAnswer {
  status: number;
  statusText: string;
  text: string;
}

/** One XMLHttpRequest (fetch cannot report the progress of a request body). */
function send(
  method: string,
  url: string,
  body: FormData,
  onProgress: ((sent: number, total: number) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    const token = getAccessToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) =>
      onProgress?.(event.loaded, event.lengthComputable ? event.total : 0),
    );
    xhr.addEventListener('load', () =>
      resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText }),
    );
    const fail = () =>
      reject(
        new HttpError({
          status: 0,
          message: clientErrorMessages.network,
          errorType: networkErrorType,
        }),
      );
    xhr.addEventListener('error', fail);
    xhr.addEventListener('timeout', fail);
    xhr.addEventListener('abort', () =>
      reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError')),
    );
    if (signal?.aborted) {
      xhr.abort();
      return;
    }
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Sends a multipart form to a route and reports the upload's progress, with the rules of apiRequest
 * (lib/api-client): the bearer token, one refresh and retry on an expired token, the server's message as
 * an HttpError (accounts §8), and the answer parsed by the route's response schema.
 */
export async function apiUpload<Route extends RouteDescriptor>(
  route: Route,
  options: ApiUploadOptions,
  retried = false,
): Promise<ApiResponse<Route>> {
  const url = buildPath(route.path, options.params ?? {});
  const answer = await send(route.method, url, options.body, options.onProgress, options.signal);
  const parsed = parse(answer.text);
  if (!parsed.ok)
    throw new HttpError({
      status: 0,
      message: clientErrorMessages.generic,
      errorType: unknownErrorType,
      data: answer.text,
    });
  if (answer.status >= 200 && answer.status < 300) {
    const result = route.response.safeParse(parsed.value);
    if (!result.success)
      throw new HttpError(
        { status: 0, message: clientErrorMessages.generic, errorType: unknownErrorType, data: parsed.value },
        { cause: result.error },
      );
    return result.data as ApiResponse<Route>;
  }
  if (answer.status === 401 && !retried && readErrorType(parsed.value) === 'unauthorized') {
    // The access token ran out during a long upload: refresh once and send again.
    const next = await refreshAccessToken().catch(() => null);
    if (next) return apiUpload(route, options, true);
  }
  throw new HttpError({
    status: answer.status,
    message: readServerMessage(parsed.value) ?? getStatusText(answer.status, answer.statusText),
    errorType: readErrorType(parsed.value),
    data: parsed.value,
  });
}

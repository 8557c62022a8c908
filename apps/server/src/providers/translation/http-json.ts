/**
 * One JSON POST to an operator-configured server (TRANSLATION_* URLs: never a user's URL), bounded in
 * time and cancellable, with the server's own words on an error status.
 */
import { upstreamMessage } from '../llm/openai-llm';

export class HttpJsonError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'HttpJsonError';
  }
}

export async function postJson(
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; timeoutMs: number; signal?: AbortSignal; what: string },
): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    throw failure(error, options, url);
  }
  if (!response.ok) {
    const message = await upstreamMessage(response);
    throw new HttpJsonError(
      `${options.what} at ${url} answered ${response.status}: ${message}`,
      response.status,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw failure(error, options, url);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpJsonError(
      `${options.what} at ${url} answered something that is not JSON.`,
      response.status,
    );
  }
}

/** A GET of JSON, same rules. */
export async function getJson(
  url: string,
  options: { headers?: Record<string, string>; timeoutMs: number; what: string },
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw failure(error, options, url);
  }
  if (!response.ok) {
    const message = await upstreamMessage(response);
    throw new HttpJsonError(
      `${options.what} at ${url} answered ${response.status}: ${message}`,
      response.status,
    );
  }
  try {
    return (await response.json()) as unknown;
  } catch {
    throw new HttpJsonError(
      `${options.what} at ${url} answered something that is not JSON.`,
      response.status,
    );
  }
}

function failure(
  error: unknown,
  options: { timeoutMs: number; signal?: AbortSignal; what: string },
  url: string,
): HttpJsonError {
  if (options.signal?.aborted) return new HttpJsonError('cancelled', undefined, true);
  if (error instanceof Error && error.name === 'TimeoutError')
    return new HttpJsonError(
      `${options.what} at ${url} did not answer within ${options.timeoutMs / 1000} s.`,
      undefined,
    );
  const why =
    error instanceof Error
      ? error.cause instanceof Error
        ? error.cause.message
        : error.message
      : String(error);
  return new HttpJsonError(`${options.what} at ${url} could not be reached: ${why}.`, undefined);
}

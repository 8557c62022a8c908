import { clientErrorMessages, defineRoute, type HealthResponse, healthRoute } from '@parla/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { setAccessToken } from './access-token';
import { apiFetch, apiRequest, buildQueryString } from './api-client';
import { HttpError } from './http-error';

/** A fake fetch that records each request and answers with the next queued response. */
function installFakeFetch(...answers: Array<Response | Error>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fake = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), init });
    const next = answers.shift();
    if (!next) throw new Error('no answer queued');
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal('fetch', fake);
  return calls;
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });

const healthy: HealthResponse = {
  status: 'ok',
  version: '0.1.0',
  role: 'all',
  uptime_seconds: 42,
  checks: {
    database: { ok: true, latency_ms: 1.5 },
    engines: { ok: true, latency_ms: 12, queue_length: 0, oldest_wait_ms: 0 },
  },
  models: [],
};

const editVoiceRoute = defineRoute({
  method: 'POST',
  path: '/v1/voices/:voice_id/edit',
  summary: 'test route',
  tags: ['test'],
  params: z.object({ voice_id: z.string() }),
  query: z.object({ dry_run: z.boolean().optional(), labels: z.array(z.string()).optional() }),
  body: z.object({ name: z.string() }),
  response: z.object({ status: z.literal('ok') }),
});

beforeEach(() => setAccessToken(null));
afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('apiRequest: success', () => {
  it('GETs the path and returns the body parsed by the route schema', async () => {
    const calls = installFakeFetch(json({ ...healthy, extra: 'dropped' }));
    const result = await apiRequest(healthRoute);
    expect(result).toEqual(healthy);
    expect(calls[0]?.url).toBe('/health');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.credentials).toBe('same-origin');
    expect(new Headers(calls[0]?.init.headers).get('authorization')).toBeNull();
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('fills path params, serialises the query and sends a JSON body with the bearer token', async () => {
    setAccessToken('token-123');
    const calls = installFakeFetch(json({ status: 'ok' }));
    const result = await apiRequest(editVoiceRoute, {
      params: { voice_id: 'a b/c' },
      query: { dry_run: true, labels: ['x', 'y'] },
      body: { name: 'Rachel' },
    });
    expect(result).toEqual({ status: 'ok' });
    const call = calls[0];
    expect(call?.url).toBe('/v1/voices/a%20b%2Fc/edit?dry_run=true&labels=x&labels=y');
    expect(call?.init.method).toBe('POST');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('authorization')).toBe('Bearer token-123');
    expect(headers.get('content-type')).toBe('application/json');
    expect(call?.init.body).toBe('{"name":"Rachel"}');
  });

  it('passes the abort signal through', async () => {
    const calls = installFakeFetch(json(healthy));
    const controller = new AbortController();
    await apiRequest(healthRoute, { signal: controller.signal });
    expect(calls[0]?.init.signal).toBe(controller.signal);
  });
});

describe('apiRequest: errors (accounts §8)', () => {
  it('reads detail.message from the server error shape', async () => {
    const body = { detail: { status: 'resource_not_found', message: 'Voice not found.' } };
    installFakeFetch(json(body, { status: 404, statusText: 'Not Found' }));
    const error = await apiRequest(editVoiceRoute, {
      params: { voice_id: 'x' },
      body: { name: 'n' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 404,
      message: 'Voice not found.',
      errorType: 'resource_not_found',
      payload: { name: 'n' },
      data: body,
    });
  });

  it('falls back to detail.msg, then detail.status', async () => {
    installFakeFetch(
      json({ detail: { status: 'invalid_request', msg: 'Field required' } }, { status: 422 }),
      json({ detail: { status: 'too_many_concurrent_requests' } }, { status: 429 }),
    );
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({ status: 422, message: 'Field required' });
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({
      status: 429,
      message: 'too_many_concurrent_requests',
      errorType: 'too_many_concurrent_requests',
    });
  });

  it('falls back to the status text when the body names no message', async () => {
    installFakeFetch(
      json({ error: 'nope' }, { status: 403, statusText: 'Forbidden here' }),
      new Response(null, { status: 401 }),
    );
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({
      status: 403,
      message: 'Forbidden here',
      errorType: 'http_error',
    });
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
  });

  it('gives status 0 and type unknown for a body that fails to parse', async () => {
    installFakeFetch(
      new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      new Response('{"status": "ok", trunc', { status: 200 }),
    );
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({
      status: 0,
      errorType: 'unknown',
      message: clientErrorMessages.generic,
      data: '<html>Bad gateway</html>',
    });
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({ status: 0, errorType: 'unknown' });
  });

  it('gives status 0 and type unknown for a 2xx body that breaks the contract', async () => {
    installFakeFetch(json({ status: 'fine' }));
    const error = await apiRequest(healthRoute).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, errorType: 'unknown', data: { status: 'fine' } });
    expect((error as HttpError).cause).toBeDefined();
  });

  it('says "Network error" when no response arrives', async () => {
    installFakeFetch(new TypeError('Failed to fetch'));
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({
      name: 'HttpError',
      status: 0,
      message: 'Network error',
      errorType: 'network_error',
    });
  });

  it('rethrows an abort as an abort, not as a network error', async () => {
    const controller = new AbortController();
    controller.abort();
    installFakeFetch(new DOMException('The operation was aborted.', 'AbortError'));
    const error = await apiRequest(healthRoute, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(HttpError);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('parses a status listed in otherResponses into data (the 503 health report)', async () => {
    const degraded: HealthResponse = {
      ...healthy,
      status: 'degraded',
      checks: { ...healthy.checks, database: { ok: false, latency_ms: 2000, message: 'timeout' } },
    };
    installFakeFetch(json(degraded, { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest(healthRoute)).rejects.toMatchObject({
      status: 503,
      message: 'Service Unavailable',
      data: degraded,
    });
  });
});

describe('buildQueryString', () => {
  it('leaves out null and undefined and repeats list keys', () => {
    expect(buildQueryString({ a: 1, b: undefined, c: null, d: ['x', 'y'], e: false })).toBe(
      '?a=1&d=x&d=y&e=false',
    );
  });

  it('is empty without values', () => {
    expect(buildQueryString(undefined)).toBe('');
    expect(buildQueryString({ a: undefined })).toBe('');
  });

  it('refuses nested objects', () => {
    expect(() => buildQueryString({ a: { b: 1 } })).toThrow(TypeError);
  });
});

describe('apiFetch: answers that are not JSON', () => {
  const audioRoute = defineRoute({
    method: 'POST',
    path: '/v1/text-to-speech/:voice_id/stream',
    summary: 'test route',
    tags: ['test'],
    params: z.object({ voice_id: z.string() }),
    body: z.object({ text: z.string() }),
    response: z.any(),
  });

  it('hands back the response with its body unread, sent with the bearer token', async () => {
    setAccessToken('token-1');
    const calls = installFakeFetch(new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    const response = await apiFetch(audioRoute, { params: { voice_id: 'v 1' }, body: { text: 'hi' } });
    expect(response.bodyUsed).toBe(false);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(calls[0]?.url).toBe('/v1/text-to-speech/v%201/stream');
    expect(new Headers(calls[0]?.init.headers).get('authorization')).toBe('Bearer token-1');
    expect(new Headers(calls[0]?.init.headers).get('accept')).toBe('*/*');
  });

  it('sends a FormData body as it is, with the bearer token and no JSON content type', async () => {
    setAccessToken('token-1');
    const calls = installFakeFetch(new Response(new Uint8Array([1])));
    const form = new FormData();
    form.append('audio', new Blob(['abc'], { type: 'audio/wav' }), 'take.wav');
    form.append('model_id', 'm1');
    await apiFetch(audioRoute, { params: { voice_id: 'v' }, body: form });
    expect(calls[0]?.init.body).toBe(form);
    const headers = new Headers(calls[0]?.init.headers);
    expect(headers.get('authorization')).toBe('Bearer token-1');
    // The browser writes multipart/form-data with its boundary itself.
    expect(headers.has('content-type')).toBe(false);
  });

  it('throws the server’s error like apiRequest', async () => {
    installFakeFetch(
      json({ detail: { status: 'quota_exceeded', message: 'You have 3 credits left.' } }, { status: 401 }),
    );
    await expect(
      apiFetch(audioRoute, { params: { voice_id: 'v' }, body: { text: 'hi' } }),
    ).rejects.toMatchObject({
      status: 401,
      errorType: 'quota_exceeded',
      message: 'You have 3 credits left.',
    });
  });
});

import { defineRoute, ErrorResponse } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/test-app';
import { AppError } from './errors';
import { registerRoute } from './route';

const echoRoute = defineRoute({
  method: 'POST',
  path: '/v1/test/echo/:item_id',
  summary: 'test only',
  tags: ['test'],
  params: z.object({ item_id: z.string().length(4) }),
  query: z.object({ limit: z.coerce.number().int().max(100).optional() }),
  body: z.object({
    text: z.string().min(1),
    voice_settings: z.object({ speed: z.number().min(0.7) }).optional(),
  }),
  response: z.object({ text: z.string(), limit: z.number().nullable() }),
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      registerRoute(app, echoRoute, async ({ body, query }) => ({
        text: body.text,
        limit: query.limit ?? null,
      }));
      app.get('/v1/test/app-error', async () => {
        throw new AppError('conflict', 'This voice is already in your library.');
      });
      app.get('/v1/test/boom', async () => {
        throw new Error('secret internal detail at /srv/db.ts:42');
      });
      app.get(
        '/v1/test/bad-output',
        { schema: { response: { 200: z.object({ n: z.number() }) } } },
        async () => ({
          n: 'not a number',
        }),
      );
    },
  });
});
afterAll(() => t.close());

function expectErrorShape(body: unknown) {
  expect(ErrorResponse.safeParse(body).success).toBe(true);
}

describe('error responses', () => {
  it('a valid request passes through', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/abcd?limit=5',
      payload: { text: 'hi' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ text: 'hi', limit: 5 });
  });

  it('malformed JSON is a 400 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/abcd',
      headers: { 'content-type': 'application/json' },
      payload: '{"text": "hi",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: { status: 'malformed_request', message: 'The request body is not valid JSON.' },
    });
  });

  it('wrong types are a 422 invalid_request with loc/msg/type for every problem', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/abcd',
      payload: { text: 42, voice_settings: { speed: 0.1 } },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expectErrorShape(body);
    expect(body.detail.status).toBe('invalid_request');
    expect(body.detail.message).toMatch(/^Invalid request: body\.text: /);
    expect(body.detail.errors).toEqual([
      expect.objectContaining({ loc: ['body', 'text'], type: 'invalid_type' }),
      expect.objectContaining({ loc: ['body', 'voice_settings', 'speed'], type: 'too_small' }),
    ]);
  });

  it('a missing field is reported as "Field required"', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/test/echo/abcd', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.errors).toEqual([
      { loc: ['body', 'text'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('bad query and path values are located in "query" and "path"', async () => {
    const query = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/abcd?limit=500',
      payload: { text: 'x' },
    });
    expect(query.statusCode).toBe(422);
    expect(query.json().detail.errors[0].loc).toEqual(['query', 'limit']);
    const params = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/toolong',
      payload: { text: 'x' },
    });
    expect(params.statusCode).toBe(422);
    expect(params.json().detail.errors[0].loc).toEqual(['path', 'item_id']);
  });

  it('an unknown route is a 404 in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/does-not-exist?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      detail: { status: 'not_found', message: 'No route matches GET /v1/does-not-exist.' },
    });
  });

  it('a thrown AppError keeps its code, status and message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/app-error' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: { status: 'conflict', message: 'This voice is already in your library.' },
    });
  });

  it('an unexpected exception is a 500 that leaks nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      detail: {
        status: 'internal_error',
        message: 'Something went wrong on our side. Please try again later.',
      },
    });
    expect(res.body).not.toMatch(/secret|srv|\.ts|at /);
  });

  it('a response that breaks its contract is a 500, not a malformed body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/bad-output' });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail.status).toBe('internal_error');
  });

  it('a body over the size limit is a 413 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/abcd',
      payload: { text: 'x'.repeat(t.deps.config.bodyLimitBytes + 10) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().detail.status).toBe('payload_too_large');
  });

  it('a wrong content type is a 415 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo/abcd',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'text',
    });
    expect(res.statusCode).toBe(415);
    expectErrorShape(res.json());
  });
});

describe('request ids', () => {
  it('every response carries x-request-id, errors included', async () => {
    for (const url of ['/health', '/v1/nope', '/v1/test/boom']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9]{16}$/);
    }
  });

  it("keeps a caller's sane id and replaces an unsafe one", async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'trace-abc.123' },
    });
    expect(kept.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'bad id\n<script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});

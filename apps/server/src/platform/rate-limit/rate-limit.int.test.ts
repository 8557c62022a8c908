import { ErrorResponse } from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { newId } from '../ids';

/** Two routes with their own small limits, as sign-in and sign-up will have. */
function limitedRoutes(app: FastifyInstance) {
  app.get('/v1/test/limited', { config: { rateLimit: { max: 3, timeWindow: 1500 } } }, async () => ({
    ok: true,
  }));
  app.get('/v1/test/other', { config: { rateLimit: { max: 3, timeWindow: 1500 } } }, async () => ({
    ok: true,
  }));
}

let a: TestApp;
let b: TestApp | undefined;
beforeAll(async () => {
  a = await createTestApp({ extend: limitedRoutes });
  // On PostgreSQL a second app (a second API process) shares the counters.
  if (inject('databaseUrl')) b = await createTestApp({ extend: limitedRoutes });
});
afterAll(async () => {
  await a.close();
  await b?.close();
});

/** Requests from one made-up client address, so tests never share a counter. */
const hit = (t: TestApp, url: string, ip: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip });
const freshIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe('rate limits', () => {
  it('answers 429 in the error shape past the limit, with retry-after, and counts each route apart', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await hit(a, '/v1/test/limited', ip)).statusCode).toBe(200);
    const limited = await hit(a, '/v1/test/limited', ip);
    expect(limited.statusCode).toBe(429);
    expect(ErrorResponse.parse(limited.json()).detail.status).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-request-id']).toBeDefined();
    expect((await hit(a, '/v1/test/other', ip)).statusCode).toBe(200);
    expect((await hit(a, '/v1/test/limited', freshIp())).statusCode).toBe(200);
  });

  it('lets the client in again once the window has passed', async () => {
    const ip = freshIp();
    for (let i = 0; i < 4; i++) await hit(a, '/v1/test/limited', ip);
    expect((await hit(a, '/v1/test/limited', ip)).statusCode).toBe(429);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await hit(a, '/v1/test/limited', ip)).statusCode).toBe(200);
  });

  it.runIf(inject('databaseUrl'))('holds across API processes that share the database', async () => {
    const ip = freshIp();
    const second = b as TestApp;
    expect((await hit(a, '/v1/test/limited', ip)).statusCode).toBe(200);
    expect((await hit(second, '/v1/test/limited', ip)).statusCode).toBe(200);
    expect((await hit(a, '/v1/test/limited', ip)).statusCode).toBe(200);
    expect((await hit(second, '/v1/test/limited', ip)).statusCode).toBe(429);
  });

  it('counts concurrent hits exactly (one atomic upsert each)', async () => {
    const ip = `concurrent-${newId(6)}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => hit(a, '/v1/test/limited', ip)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(7);
  });
});

import { HealthResponse } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /health', () => {
  it('answers ok when the database and the engine pool are ready', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    const body = HealthResponse.parse(res.json());
    expect(body.status).toBe('ok');
    expect(body.checks.database).toMatchObject({ ok: true, message: t.deps.database.kind });
    expect(body.checks.engines).toMatchObject({ ok: true, message: '1 engine processes ready' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 degraded while an engine process is down, and ok again once it is respawned', async () => {
    await expect(t.deps.engines.run('crash')).rejects.toMatchObject({ reason: 'crashed' });
    const down = await t.app.inject({ method: 'GET', url: '/health' });
    expect(down.statusCode).toBe(503);
    const body = HealthResponse.parse(down.json());
    expect(body.status).toBe('degraded');
    expect(body.checks.engines.ok).toBe(false);
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/health' })).statusCode, {
        timeout: 10_000,
      })
      .toBe(200);
  });
});

describe('OpenAPI', () => {
  it('serves /openapi.json generated from the contracts, and the reference page at /docs', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(spec.paths['/health'].get.summary).toMatch(/health|Liveness/i);
    expect(spec.paths['/health'].get.responses['200']).toBeDefined();
    expect(Object.keys(spec.paths)).not.toContain('/'); // web pages are not API
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });
});

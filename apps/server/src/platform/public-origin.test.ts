import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createOriginWatch, registerPublicOriginWatch } from './public-origin';

/** A logger whose lines are collected as parsed JSON. */
function collectingLogger() {
  const lines: Array<{ level: number; msg: string; origin?: string }> = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('createOriginWatch', () => {
  it('reports each origin other than PUBLIC_URL’s once, whatever its case', () => {
    const watch = createOriginWatch('http://localhost:8080');
    expect(watch.record('http://localhost:8080')).toBe(false);
    expect(watch.record('http://LOCALHOST:8080')).toBe(false);
    expect(watch.record('http://127.0.0.1:8080')).toBe(true);
    expect(watch.record('http://127.0.0.1:8080')).toBe(false);
    expect(watch.record('https://parla.example')).toBe(true);
    expect(watch.origins()).toEqual(['http://127.0.0.1:8080', 'https://parla.example']);
  });

  it('remembers at most 20 origins', () => {
    const watch = createOriginWatch('http://localhost:8080');
    for (let i = 0; i < 30; i++) watch.record(`http://10.0.0.${i}:8080`);
    expect(watch.origins()).toHaveLength(20);
  });
});

describe('registerPublicOriginWatch', () => {
  it('warns at start-up without PUBLIC_URL and when a request arrives on another host', async () => {
    const { logger, lines } = collectingLogger();
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    const watch = registerPublicOriginWatch(app, {
      publicUrl: 'http://localhost:8080',
      guessed: true,
      logger,
    });
    app.get('/ping', async () => 'pong');
    expect(lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^PUBLIC_URL is not set/)]);

    await app.inject({ method: 'GET', url: '/ping', headers: { host: 'localhost:8080' } });
    expect(lines).toHaveLength(1);
    await app.inject({ method: 'GET', url: '/ping', headers: { host: '127.0.0.1:8080' } });
    await app.inject({ method: 'GET', url: '/ping', headers: { host: '127.0.0.1:8080' } });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 40,
      origin: 'http://127.0.0.1:8080',
      msg: expect.stringContaining('PUBLIC_URL is http://localhost:8080'),
    });
    expect(watch.origins()).toEqual(['http://127.0.0.1:8080']);
    await app.close();
  });

  it('says nothing when PUBLIC_URL was set and requests use it', async () => {
    const { logger, lines } = collectingLogger();
    // Behind a TLS-terminating proxy (TRUST_PROXY), as a public https address is served.
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, trustProxy: true });
    registerPublicOriginWatch(app, { publicUrl: 'https://parla.example', guessed: false, logger });
    app.get('/ping', async () => 'pong');
    await app.inject({
      method: 'GET',
      url: '/ping',
      headers: { host: 'parla.example', 'x-forwarded-proto': 'https' },
    });
    expect(lines).toEqual([]);
    await app.close();
  });
});

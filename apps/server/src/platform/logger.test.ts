import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger';

describe('redactUrl', () => {
  it('masks codes in queries and the backup-code path segment, and leaves the rest', () => {
    expect(redactUrl('/v1/user/email?verification_code=abc&is_reverting=true')).toBe(
      '/v1/user/email?verification_code=%5Bredacted%5D&is_reverting=true',
    );
    expect(redactUrl('/v1/user/backup-code/k3m9-2qxa/remove-mfa')).toBe(
      '/v1/user/backup-code/[redacted]/remove-mfa',
    );
    expect(redactUrl('/v1/history?page_size=10')).toBe('/v1/history?page_size=10');
    expect(redactUrl('/health')).toBe('/health');
  });
});

describe('the request log', () => {
  it('never carries a code from the URL', async () => {
    let written = '';
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        written += chunk.toString();
        callback();
      },
    });
    const app = Fastify({ loggerInstance: createLogger({ level: 'info' }, sink) });
    app.put('/v1/user/email', async () => ({ ok: true }));
    await app.inject({ method: 'PUT', url: '/v1/user/email?verification_code=s3cr3t&is_reverting=false' });
    await app.close();
    expect(written).toContain('verification_code=%5Bredacted%5D');
    expect(written).not.toContain('s3cr3t');
  });
});

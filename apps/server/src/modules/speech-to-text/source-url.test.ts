import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkSourceUrl,
  downloadSourceUrl,
  hostAllowed,
  isPrivateAddress,
  type SourceUrlPolicy,
} from './source-url';

const policy = (over: Partial<SourceUrlPolicy> = {}): SourceUrlPolicy => ({
  allowedHosts: ['*'],
  allowPrivate: false,
  timeoutMs: 5000,
  maxBytes: 1000,
  ...over,
});

describe('URL safety', () => {
  it('knows private, loopback, link-local and reserved addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('matches hosts against the operator list', () => {
    expect(hostAllowed('files.example.com', ['files.example.com'])).toBe(true);
    expect(hostAllowed('FILES.example.com.', ['files.example.com'])).toBe(true);
    expect(hostAllowed('evil.com', ['files.example.com'])).toBe(false);
    expect(hostAllowed('a.b.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('notexample.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('anything.org', ['*'])).toBe(true);
    expect(hostAllowed('anything.org', [])).toBe(false);
  });

  it('refuses other schemes, credentials, hosts not allowed and private literals before connecting', () => {
    const refused = (url: string, p = policy()) => {
      try {
        checkSourceUrl(url, p);
        return undefined;
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    expect(refused('file:///etc/passwd')).toBe('url_not_allowed');
    expect(refused('ftp://example.com/a.mp3')).toBe('url_not_allowed');
    expect(refused('not a url')).toBe('url_not_allowed');
    expect(refused('https://user:pw@example.com/a.mp3')).toBe('url_not_allowed');
    expect(refused('https://example.com/a.mp3', policy({ allowedHosts: [] }))).toBe('url_not_allowed');
    expect(refused('https://other.com/a.mp3', policy({ allowedHosts: ['example.com'] }))).toBe(
      'url_not_allowed',
    );
    expect(refused('http://127.0.0.1/a.mp3')).toBe('url_not_allowed');
    expect(refused('http://[::1]/a.mp3')).toBe('url_not_allowed');
    expect(refused('http://169.254.169.254/latest/meta-data')).toBe('url_not_allowed');
    expect(refused('https://example.com/a.mp3')).toBeUndefined();
    expect(refused('http://127.0.0.1/a.mp3', policy({ allowPrivate: true }))).toBeUndefined();
  });
});

describe('downloading a URL', () => {
  let server: http.Server;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parla-url-test-'));
    server = http.createServer((request, response) => {
      if (request.url === '/small') return response.end(Buffer.alloc(100, 1));
      if (request.url === '/big') return response.end(Buffer.alloc(5000, 1));
      if (request.url === '/chunked-big') {
        response.write(Buffer.alloc(600, 1));
        return response.end(Buffer.alloc(600, 1));
      }
      if (request.url === '/missing') {
        response.statusCode = 404;
        return response.end();
      }
      if (request.url === '/to-private') {
        response.statusCode = 302;
        response.setHeader('location', 'http://10.0.0.1/secret');
        return response.end();
      }
      if (request.url === '/to-small') {
        response.statusCode = 302;
        response.setHeader('location', '/small');
        return response.end();
      }
      if (request.url === '/loop') {
        response.statusCode = 302;
        response.setHeader('location', '/loop');
        return response.end();
      }
      if (request.url === '/slow') return; // never answers
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await fs.rm(dir, { recursive: true, force: true });
  });

  const open = policy({ allowPrivate: true });
  const code = async (url: string, p: SourceUrlPolicy) =>
    downloadSourceUrl(url, path.join(dir, 'f'), p).then(
      () => 'ok',
      (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
    );

  it('downloads a file within the limits and follows a redirect', async () => {
    expect(await downloadSourceUrl(`${base}/small`, path.join(dir, 'a'), open)).toMatchObject({ bytes: 100 });
    expect((await fs.stat(path.join(dir, 'a'))).size).toBe(100);
    expect(await downloadSourceUrl(`${base}/to-small`, path.join(dir, 'b'), open)).toMatchObject({
      bytes: 100,
    });
  });

  it('refuses a server on a private address unless the operator allows them', async () => {
    expect(await code(`${base}/small`, policy())).toMatch(/^url_not_allowed: .*private address/);
  });

  it('refuses a redirect to a private address, too many redirects, errors, size and time', async () => {
    // The first hop is allowed (loopback allowed), the second names a private address not on the list.
    expect(
      await code(`${base}/to-private`, policy({ allowPrivate: true, allowedHosts: ['127.0.0.1'] })),
    ).toMatch(/^url_not_allowed/);
    expect(await code(`${base}/loop`, open)).toMatch(/^url_fetch_failed: .*redirects too many/);
    expect(await code(`${base}/missing`, open)).toMatch(/^url_fetch_failed: .*HTTP 404/);
    expect(await code(`${base}/big`, open)).toMatch(/^url_fetch_failed: .*larger/);
    expect(await code(`${base}/chunked-big`, open)).toMatch(/^url_fetch_failed: .*larger/);
    expect(await code(`${base}/slow`, { ...open, timeoutMs: 1000 })).toMatch(/^url_fetch_failed: .*too long/);
  });
});

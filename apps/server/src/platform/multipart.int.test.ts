import net from 'node:net';
import { PREMADE_VOICES } from '@parla/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpWithApiKey } from '../test/factories';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let port: number;
let apiKey: string;
beforeAll(async () => {
  t = await createTestApp();
  const url = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  port = Number(url.port);
  apiKey = (await signUpWithApiKey(t.app)).apiKey;
});
afterAll(() => t.close());

const BOUNDARY = 'parla-boundary';

/**
 * One keep-alive connection: a multipart request whose first field is over the 64 KB field limit, with a
 * file part after it, then a pipelined `GET /health`. Answers what came back before the server closed the
 * connection or 5 s passed (`closed` says which).
 */
function pipelinedAfterOversizedField(path: string): Promise<{ text: string; closed: boolean }> {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${'x'.repeat(100 * 1024)}\r\n` +
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    Buffer.alloc(512 * 1024, 1),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nxi-api-key: ${apiKey}\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`;
  const second = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, 5000);
    const done = () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', done);
    socket.on('error', () => {});
    socket.write(head);
    socket.write(body);
    socket.write(second);
  });
}

describe('a multipart body refused before it is read to its end', () => {
  it.each([
    '/v1/speech-to-text',
    '/v1/speech-to-text/transcripts',
    '/v1/forced-alignment',
    '/v1/audio/transcriptions',
    `/v1/speech-to-speech/${PREMADE_VOICES[0]?.voice_id}`,
    '/v1/similar-voices',
    '/v1/pronunciation-dictionaries/add-from-file',
  ])('%s: the 413 closes the connection, so a pipelined request never waits on it', async (path) => {
    const { text, closed } = await pipelinedAfterOversizedField(path);
    const statuses = [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    expect(statuses[0], text.slice(0, 400)).toBe(413);
    expect(text).toMatch(/"status":"payload_too_large"/);
    // Either the server closed the connection after the 413 (the client retries elsewhere) or it read the
    // rest and answered the health check: what must not happen is a connection left waiting.
    expect({ closed, answered: statuses.length }).toEqual({ closed: true, answered: 1 });
    expect(text).toMatch(/^connection: close\r$/im);
  });

  it('the server keeps serving on new connections', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

import { ElevenLabsClient, ElevenLabsError } from '@elevenlabs/elevenlabs-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let client: ElevenLabsClient;
beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = new ElevenLabsClient({ apiKey: 'not-checked-yet', baseUrl: address, maxRetries: 0 });
});
afterAll(() => t.close());

describe('the official ElevenLabs SDK against this server', () => {
  it('surfaces our error shape as its typed error, with our request id', async () => {
    const error = await client.voices.get('21m00Tcm4TlvDq8ikWAM').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ElevenLabsError);
    const sdkError = error as ElevenLabsError;
    // The key is not one of ours: the public API's 401 with its message, in our error shape.
    expect(sdkError.statusCode).toBe(401);
    expect(sdkError.body).toEqual({ detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    expect(sdkError.requestId).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});

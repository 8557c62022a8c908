import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedLlm, scriptedEmbedding, startScriptedLlm } from '../../test/scripted-llm';
import { EMBEDDING_BATCH, OpenAiEmbeddings } from './openai-embeddings';

let llm: ScriptedLlm;
let embeddings: OpenAiEmbeddings;
/** A server that answers what each test sets (odd shapes), or never (the time bound). */
let odd: http.Server;
let oddUrl: string;
let oddAnswer: ((res: http.ServerResponse) => void) | undefined;

beforeAll(async () => {
  llm = await startScriptedLlm();
  embeddings = new OpenAiEmbeddings({
    url: llm.url,
    apiKey: 'sk-emb',
    model: 'scripted-embed',
    timeoutMs: 2000,
  });
  odd = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => oddAnswer?.(res));
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await llm.close();
  odd.closeAllConnections();
  await new Promise((resolve) => odd.close(resolve));
});

const oddEmbeddings = (timeoutMs = 2000) =>
  new OpenAiEmbeddings({ url: oddUrl, apiKey: undefined, model: 'm', timeoutMs });

describe('the OpenAI-compatible embeddings', () => {
  it('batches the inputs and answers one vector per input, in order', async () => {
    const before = llm.requests.length;
    const inputs = Array.from({ length: EMBEDDING_BATCH * 2 + 5 }, (_, i) => `passage number ${i}`);
    const vectors = await embeddings.embed(inputs);
    expect(vectors).toHaveLength(inputs.length);
    expect(vectors[40]).toEqual(scriptedEmbedding('passage number 40'));
    const sent = llm.requests.slice(before);
    expect(sent.map((r) => (r.body.input as string[]).length)).toEqual([EMBEDDING_BATCH, EMBEDDING_BATCH, 5]);
    expect(sent[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'scripted-embed' } });
    expect(sent[0]?.headers.authorization).toBe('Bearer sk-emb');
  });

  it('puts the vectors back in the inputs’ order by their index', async () => {
    oddAnswer = (res) =>
      res.end(
        JSON.stringify({
          data: [
            { index: 1, embedding: [0, 1] },
            { index: 0, embedding: [1, 0] },
          ],
        }),
      );
    expect(await oddEmbeddings().embed(['a', 'b'])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('fails with the server’s words, or says what was wrong with its answer', async () => {
    llm.failEmbeddings({ status: 400, error: 'model "x" not found', count: 1 });
    await expect(embeddings.embed(['a'])).rejects.toMatchObject({
      kind: 'upstream',
      upstreamStatus: 400,
      message: expect.stringContaining('model "x" not found'),
    });
    oddAnswer = (res) => res.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }] }));
    await expect(oddEmbeddings().embed(['a', 'b'])).rejects.toMatchObject({
      kind: 'upstream',
      message: expect.stringContaining('1 embeddings for 2 inputs'),
    });
    oddAnswer = (res) => res.end(JSON.stringify({ data: [{ index: 0, embedding: 'AAAA' }] }));
    await expect(oddEmbeddings().embed(['a'])).rejects.toMatchObject({
      message: expect.stringContaining('not a list of numbers'),
    });
    oddAnswer = (res) => res.end('<html>');
    await expect(oddEmbeddings().embed(['a'])).rejects.toMatchObject({
      message: expect.stringContaining('not JSON'),
    });
  });

  it('gives up after its time bound, and says when the server cannot be reached', async () => {
    oddAnswer = undefined; // never answers
    await expect(oddEmbeddings(300).embed(['a'])).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('did not answer within 0.3 s'),
    });
    const closed = new OpenAiEmbeddings({
      url: 'http://127.0.0.1:1/v1',
      apiKey: undefined,
      model: 'm',
      timeoutMs: 2000,
    });
    await expect(closed.embed(['a'])).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

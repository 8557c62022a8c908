import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { workerJobs } from '../../modules';
import { JobWorker } from '../../platform/jobs/job-worker';
import { signUpWithApiKey } from '../../test/factories';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { knowledgeBaseDepsOf, searchKnowledge } from '.';
import { embedDocumentJob } from './knowledge-base.jobs';
import { createTextDocument } from './knowledge-base.service';

/*
 * Knowledge-base vectors (issue 28 item 3) with an embedding model configured through the LLM provider:
 * the scripted OpenAI-compatible stand-in answers `/v1/embeddings` with bag-of-words vectors in which the
 * test's synonyms share a slot, so a question with no word of a passage is near it by meaning. The
 * knowledge-base.embed job computes each document's vectors (a worker of this file runs it); the RAG status
 * says how far it is, or why it failed; retrieval combines full-text rank and cosine similarity, and a
 * conversation's transcript names the model. No language model chats here (knowledge-base mode).
 */

const MODEL = 'scripted-embed';
const REFUNDS = 'Refunds: the money goes back to your card within five days.';

let llm: ScriptedLlm;
let t: TestApp;
let baseUrl: string;
let a: SpeechAccount;
let worker: JobWorker;

type RagIndex = {
  status: string;
  progressPercentage: number;
  embeddings: string;
  embedding_model?: string | null;
  embeddingModel?: string | null;
  message: string;
};

const ragIndexOf = async (id: string, sdk = a.sdk) =>
  (await sdk.conversationalAi.getDocumentRagIndexes(id)).indexes[0] as unknown as RagIndex;
const modelOf = (index: RagIndex) => index.embeddingModel ?? index.embedding_model;
const embeddingRequests = () => llm.requests.filter((r) => r.path === '/v1/embeddings');

beforeAll(async () => {
  llm = await startScriptedLlm();
  // The stand-in's "meaning": these words land where the passage's words do.
  llm.synonyms({ reimbursed: 'refunds', reimburse: 'refunds', cash: 'money' });
  t = await createTestApp({
    env: {
      LLM_PROVIDER: 'none',
      LLM_EMBEDDING_URL: llm.url,
      LLM_EMBEDDING_MODEL: MODEL,
      LLM_TIMEOUT_MS: '5000',
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  worker = new JobWorker({
    db: t.deps.database.db,
    definitions: workerJobs(t.deps, [embedDocumentJob]),
    concurrency: 1,
    leaseSeconds: 30,
    pollIntervalMs: 50,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  t.deps.queue.onEnqueued = () => worker.wake();
  await worker.start();
  a = await newSpeechAccount(t.app, baseUrl);
}, 60_000);
afterAll(async () => {
  await worker?.stop(5000);
  await t?.close();
  await llm?.close();
});

describe('computing the vectors when a document is indexed', () => {
  it('embeds every passage in batches and reports the model in the RAG status', async () => {
    const before = embeddingRequests().length;
    const text = Array.from(
      { length: 500 },
      (_, i) => `Section ${i}: bicycle part number ${i} is kept in aisle ${i % 7} of the workshop.`,
    ).join('\n\n');
    const doc = await a.sdk.conversationalAi.knowledgeBase.documents.createFromText({ text, name: 'Parts' });
    await expect.poll(async () => (await ragIndexOf(doc.id)).status, { timeout: 20_000 }).toBe('succeeded');
    const index = await ragIndexOf(doc.id);
    expect(index).toMatchObject({ embeddings: 'computed', progressPercentage: 100 });
    expect(modelOf(index)).toBe(MODEL);
    expect(index.message).toContain(MODEL);
    const chunks = await a.sdk.conversationalAi.knowledgeBase.documents.chunks.list(doc.id, {
      embeddingModel: 'e5_mistral_7b_instruct',
      pageSize: 100,
    });
    // More passages than one request holds (32): the job sent several.
    expect(chunks.chunks.length).toBeGreaterThan(32);
    const sent = embeddingRequests().slice(before);
    expect(sent.every((r) => r.body.model === MODEL)).toBe(true);
    const sizes = sent.map((r) => (r.body.input as string[]).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(32);
    expect(sizes.reduce((s, n) => s + n, 0)).toBe(chunks.chunks.length);
    expect(sent.length).toBeGreaterThan(1);
    const overview = (await a.sdk.conversationalAi.ragIndexOverview()) as unknown as Record<string, unknown>;
    expect(overview.embeddings).toBe('computed');
  });

  it('says so in the RAG status when the vectors could not be computed, and computes them again on request', async () => {
    llm.failEmbeddings({ status: 400, error: 'input is too long for this model', count: 1 });
    const doc = await a.sdk.conversationalAi.knowledgeBase.documents.createFromText({
      text: 'Gift cards are valid for two years.',
      name: 'Gift cards',
    });
    await expect.poll(async () => (await ragIndexOf(doc.id)).status, { timeout: 20_000 }).toBe('failed');
    const failed = await ragIndexOf(doc.id);
    expect(failed.embeddings).toBe('failed');
    expect(failed.message).toContain('input is too long for this model');
    expect(failed.message).toContain('full-text search');
    const again = await a.sdk.conversationalAi.knowledgeBase.document.computeRagIndex(doc.id, {
      model: 'e5_mistral_7b_instruct',
    });
    expect(again.status).toBe('processing');
    await expect.poll(async () => (await ragIndexOf(doc.id)).status, { timeout: 20_000 }).toBe('succeeded');
  });

  it('adds the vectors of a document indexed before the model was configured when its index is computed', async () => {
    // Added as a server without an embedding model would: full-text only.
    const plain = { ...knowledgeBaseDepsOf(t.deps), embeddings: undefined };
    const me = await signUpWithApiKey(t.app);
    const sdk = new ElevenLabsClient({ apiKey: me.apiKey, baseUrl, maxRetries: 0 });
    const before = embeddingRequests().length;
    const { id } = await createTextDocument(plain, me, { text: 'Bicycles can be rented by the hour.' });
    expect(embeddingRequests().length).toBe(before);
    const old = await ragIndexOf(id, sdk);
    expect(old).toMatchObject({ status: 'created', embeddings: 'outdated' });
    expect(old.message).toContain('compute the index');
    await sdk.conversationalAi.knowledgeBase.document.computeRagIndex(id, {
      model: 'e5_mistral_7b_instruct',
    });
    await expect.poll(async () => (await ragIndexOf(id, sdk)).status, { timeout: 20_000 }).toBe('succeeded');
    expect(embeddingRequests().length).toBe(before + 1);
  });
});

describe('retrieval by meaning', () => {
  let refunds: string;
  let hours: string;
  beforeAll(async () => {
    const kb = a.sdk.conversationalAi.knowledgeBase.documents;
    refunds = (await kb.createFromText({ text: REFUNDS, name: 'Refunds' })).id;
    hours = (await kb.createFromText({ text: 'Opening hours: Monday to Friday, 9am to 6pm.', name: 'Hours' }))
      .id;
    // Both embedded before the questions (the job runs in this file's worker).
    const started = Date.now();
    for (const id of [refunds, hours])
      while ((await ragIndexOf(id)).status !== 'succeeded') {
        if (Date.now() - started > 20_000) throw new Error(`document ${id} was not embedded`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
  });

  it('finds a passage that shares no word with the question only with embeddings on', async () => {
    const deps = knowledgeBaseDepsOf(t.deps);
    const question = 'Will my cash be reimbursed?';
    // Full-text search alone: "cash" and "reimbursed" are in no passage.
    expect(
      await searchKnowledge({ ...deps, embeddings: undefined }, a.workspaceId, [refunds, hours], question),
    ).toEqual([]);
    const found = await searchKnowledge(deps, a.workspaceId, [refunds, hours], question);
    expect(found.map((h) => h.document_id)).toEqual([refunds]);
    expect(found[0]).toMatchObject({ text: REFUNDS, retrieval: MODEL });
    // A question about something else finds nothing, by words or by meaning.
    expect(await searchKnowledge(deps, a.workspaceId, [refunds, hours], 'quantum chromodynamics')).toEqual(
      [],
    );
    // Words still count: the hours passage answers a question in its words, first.
    const [best] = await searchKnowledge(deps, a.workspaceId, [refunds, hours], 'opening hours on Monday');
    expect(best).toMatchObject({ document_id: hours, retrieval: MODEL });
  });

  it('falls back to full-text search when the question cannot be embedded', async () => {
    llm.failEmbeddings({ status: 503, error: 'model is loading', count: 1 });
    const errors: unknown[] = [];
    const found = await searchKnowledge(
      knowledgeBaseDepsOf(t.deps),
      a.workspaceId,
      [refunds, hours],
      'opening hours',
      3,
      { onError: (error) => errors.push(error) },
    );
    expect(found.map((h) => [h.document_id, h.retrieval])).toEqual([[hours, 'full_text']]);
    expect(String(errors[0])).toContain('model is loading');
  });

  it('names the embedding model in the conversation transcript', async () => {
    const { agentId } = await a.sdk.conversationalAi.agents.create({
      name: 'Refund desk',
      conversationConfig: {
        agent: {
          firstMessage: '',
          prompt: {
            prompt: 'You answer questions about refunds.',
            knowledgeBase: [{ type: 'text', name: 'Refunds', id: refunds, usageMode: 'auto' }],
          },
        },
        conversation: { textOnly: true },
      },
    });
    const ws = new WebSocket(
      `${baseUrl.replace('http', 'ws')}/v1/convai/conversation?agent_id=${agentId}`,
      ['convai'],
      { headers: { 'xi-api-key': a.key } },
    );
    const messages: { type: string; [key: string]: unknown }[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as { type: string }));
    await new Promise<void>((resolve) => ws.on('open', () => resolve()));
    ws.send(JSON.stringify({ type: 'conversation_initiation_client_data' }));
    await expect.poll(() => messages.some((m) => m.type === 'conversation_initiation_metadata')).toBe(true);
    const meta = messages.find((m) => m.type === 'conversation_initiation_metadata')
      ?.conversation_initiation_metadata_event as { conversation_id: string };
    ws.send(JSON.stringify({ type: 'user_message', text: 'Will my cash be reimbursed?' }));
    await expect
      .poll(() => messages.some((m) => m.type === 'agent_response'), { timeout: 20_000 })
      .toBe(true);
    const answer = messages.find((m) => m.type === 'agent_response')?.agent_response_event as {
      agent_response: string;
    };
    expect(answer.agent_response).toContain('money goes back to your card');
    const closed = new Promise((resolve) => ws.on('close', resolve));
    ws.close(1000);
    await closed;
    await expect
      .poll(
        async () =>
          (await a.sdk.conversationalAi.conversations.get(meta.conversation_id)).transcript.find(
            (turn) => turn.ragRetrievalInfo,
          )?.ragRetrievalInfo,
        { timeout: 20_000 },
      )
      .toMatchObject({ embeddingModel: MODEL, chunks: [{ documentId: refunds }] });
  }, 60_000);
});

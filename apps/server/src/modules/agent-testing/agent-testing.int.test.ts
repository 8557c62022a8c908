import { and, eq, notInArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerJobs } from '../../modules';
import { JobWorker } from '../../platform/jobs/job-worker';
import { jobs } from '../../platform/jobs/jobs.tables';
import { type ScriptedLlm, startScriptedLlm } from '../../test/scripted-llm';
import { callAs, newSpeechAccount, type SpeechAccount } from '../../test/speech-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { runAgentTestsJob } from './agent-testing.jobs';

/*
 * Agent testing (issue 28) against the real app: tests kept and listed through the official SDK
 * (`conversationalAi.tests`, `.folders`, `.invocations`, `agents.runTests`), runs answered by the agent's
 * own responder with a scripted OpenAI-compatible model (a stand-in for a remote one: it holds no rule of
 * ours) and judged: the success condition by the model's verdict, tool calls exactly. A run can be
 * cancelled while the model answers and resubmitted; with no model the run says so and fails; bad input
 * is refused and changes nothing.
 */

let t: TestApp;
let none: TestApp;
let llm: ScriptedLlm;
const workers: JobWorker[] = [];
let a: SpeechAccount;
let b: SpeechAccount;
let agentId: string;
let toolId: string;

async function startWorker(app: TestApp) {
  const worker = new JobWorker({
    db: app.deps.database.db,
    definitions: workerJobs(app.deps, [runAgentTestsJob]),
    concurrency: 1,
    leaseSeconds: 30,
    pollIntervalMs: 50,
    logger: pino({ level: 'silent' }),
    exclusiveDatabase: false,
  });
  app.deps.queue.onEnqueued = () => worker.wake();
  await worker.start();
  workers.push(worker);
}

beforeAll(async () => {
  llm = await startScriptedLlm();
  t = await createTestApp({
    env: { LLM_PROVIDER: 'openai', LLM_OPENAI_URL: llm.url, LLM_OPENAI_MODEL: 'scripted-model' },
  });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  await startWorker(t);
  a = await newSpeechAccount(t.app, baseUrl);
  b = await newSpeechAccount(t.app, baseUrl);
  const tool = await a.sdk.conversationalAi.tools.create({
    toolConfig: {
      type: 'client',
      name: 'book_table',
      description: 'Books a table.',
      expectsResponse: true,
      parameters: {
        type: 'object',
        properties: {
          guests: { type: 'number', description: 'How many' },
          day: { type: 'string', description: 'When' },
        },
      },
    },
  });
  toolId = tool.id;
  agentId = (
    await a.sdk.conversationalAi.agents.create({
      name: 'Bistro',
      conversationConfig: {
        agent: { prompt: { prompt: 'You take bookings for a bistro open {{hours}}.', toolIds: [toolId] } },
      },
    })
  ).agentId;
  none = await createTestApp({ env: { LLM_PROVIDER: 'none' } });
  await startWorker(none);
}, 180_000);
afterAll(async () => {
  for (const worker of workers) await worker.stop(5000);
  await t?.close();
  await none?.close();
  await llm?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The invocation once no run is pending or running. */
async function settled(account: SpeechAccount, id: string) {
  for (let i = 0; i < 600; i += 1) {
    const invocation = await account.sdk.conversationalAi.tests.invocations.get(id);
    if (invocation.testRuns.every((r) => r.status !== 'pending' && (r.status as string) !== 'running'))
      return invocation;
    await sleep(50);
  }
  throw new Error('the invocation did not settle');
}

/** Waits until no run job is waiting or running. */
async function idle() {
  for (let i = 0; i < 600; i += 1) {
    const open = await t.deps.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.name, runAgentTestsJob.name), notInArray(jobs.state, ['completed', 'failed'])));
    if (open.length === 0) return;
    await sleep(50);
  }
  throw new Error('the run job did not finish');
}

const history = [
  { role: 'user' as const, message: 'Hello, are you open on Sunday?', timeInCallSecs: 0 },
  { role: 'agent' as const, message: 'Yes, we are open on Sunday.', timeInCallSecs: 2 },
  { role: 'user' as const, message: 'Book a table for 4 on Sunday, please.', timeInCallSecs: 4 },
];

describe('tests through the official SDK', () => {
  it('creates, reads, lists with search and pages, updates, summarises, moves and deletes', async () => {
    const tests = a.sdk.conversationalAi.tests;
    const llmTest = await tests.create({
      type: 'llm',
      name: 'Confirms the booking',
      chatHistory: history,
      successCondition: 'The agent confirms a table for four on Sunday.',
      successExamples: [{ type: 'success', response: 'Done: a table for four on Sunday.' }],
      failureExamples: [{ type: 'failure', response: 'Sorry, we are closed.' }],
      dynamicVariables: { hours: 'every day' },
    });
    const toolTest = await tests.create({
      type: 'tool',
      name: 'Calls book_table',
      chatHistory: history,
      toolCallParameters: {
        referencedTool: { id: toolId, type: 'client' },
        parameters: [
          { path: 'guests', eval: { type: 'exact', expectedValue: '4' } },
          { path: 'day', eval: { type: 'regex', pattern: '^[Ss]unday$' } },
        ],
      },
    });
    const got = await tests.get(llmTest.id);
    expect(got).toMatchObject({
      id: llmTest.id,
      name: 'Confirms the booking',
      type: 'llm',
      successCondition: 'The agent confirms a table for four on Sunday.',
      chatHistory: [
        { role: 'user', message: 'Hello, are you open on Sunday?' },
        { role: 'agent' },
        { role: 'user' },
      ],
      dynamicVariables: { hours: 'every day' },
    });
    const first = await tests.list({ pageSize: 1 });
    expect(first.tests.map((x) => x.id)).toEqual([toolTest.id]);
    expect(first.hasMore).toBe(true);
    const second = await tests.list({ pageSize: 1, cursor: first.nextCursor });
    expect(second.tests.map((x) => x.id)).toEqual([llmTest.id]);
    expect((await tests.list({ search: 'book_table' })).tests.map((x) => x.name)).toEqual([
      'Calls book_table',
    ]);
    const updated = await tests.update(llmTest.id, {
      type: 'llm',
      name: 'Confirms the booking kindly',
      chatHistory: history,
      successCondition: 'The agent confirms a table for four on Sunday, politely.',
      successExamples: [{ type: 'success', response: 'Done: a table for four on Sunday.' }],
      failureExamples: [{ type: 'failure', response: 'Sorry, we are closed.' }],
      dynamicVariables: { hours: 'every day' },
    });
    expect(updated).toMatchObject({ name: 'Confirms the booking kindly', type: 'llm' });
    const summaries = await tests.summaries({ testIds: [llmTest.id, toolTest.id] });
    expect(summaries.tests[toolTest.id]).toMatchObject({ name: 'Calls book_table', type: 'tool' });
    const folder = await tests.folders.create({ name: 'Bookings' });
    await tests.move({ entityIds: [toolTest.id], moveTo: folder.id });
    expect((await tests.folders.get(folder.id)).childrenCount).toBe(1);
    const inFolder = await tests.list({ parentFolderId: folder.id });
    expect(inFolder.tests.map((x) => x.id)).toEqual([toolTest.id]);
    expect(
      (await tests.list({ parentFolderId: 'root', types: ['folder', 'llm', 'tool'] })).tests.map(
        (x) => x.name,
      ),
    ).toEqual(['Bookings', 'Confirms the booking kindly']);
    // A folder cannot go into itself; a folder that holds something is deleted only with force, with it.
    const inner = await tests.folders.create({ name: 'Inner', parentFolderId: folder.id });
    const intoItself = await callAs(t.app, a, 'POST', '/v1/convai/agent-testing/bulk-move', {
      entity_ids: [folder.id],
      move_to: inner.id,
    });
    expect(intoItself.statusCode).toBe(422);
    expect(intoItself.json().detail.message).toMatch(/cannot be moved into itself/);
    expect((await tests.folders.get(inner.id)).folderPath?.map((p) => p.name)).toEqual(['Bookings', 'Inner']);
    const doomed = await tests.create({
      type: 'llm',
      name: 'In the inner folder',
      chatHistory: history,
      successCondition: 'x',
      parentFolderId: inner.id,
    });
    const notEmpty = await callAs(t.app, a, 'DELETE', `/v1/convai/agent-testing/folders/${inner.id}`);
    expect(notEmpty.statusCode).toBe(409);
    await tests.folders.delete(inner.id, { force: true });
    expect((await callAs(t.app, a, 'GET', `/v1/convai/agent-testing/${doomed.id}`)).statusCode).toBe(404);
    expect((await tests.folders.get(folder.id)).childrenCount).toBe(1);
    const scratch = await tests.create({
      type: 'llm',
      name: 'Scratch',
      chatHistory: history,
      successCondition: 'x',
    });
    await tests.delete(scratch.id);
    expect((await callAs(t.app, a, 'GET', `/v1/convai/agent-testing/${scratch.id}`)).statusCode).toBe(404);
  });

  it('runs tests against the agent: the model answers with the agent’s prompt, the judge and the exact check decide', async () => {
    const tests = a.sdk.conversationalAi.tests;
    const { tests: all } = await tests.list({});
    const llmTestId = all.find((x) => x.type === 'llm')?.id ?? '';
    const toolTestId = all.find((x) => x.type === 'tool')?.id ?? '';
    const before = llm.requests.length;
    llm.enqueue(
      { text: 'Of course! A table for four on Sunday is booked.' },
      { text: '{"result":"success","rationale":"The agent confirmed four guests on Sunday."}' },
      { toolCalls: [{ name: 'book_table', arguments: { guests: 4, day: 'Sunday' } }] },
    );
    const started = await a.sdk.conversationalAi.agents.runTests(agentId, {
      tests: [{ testId: llmTestId }, { testId: toolTestId }],
    });
    expect(started.agentId).toBe(agentId);
    expect(started.testRuns.map((r) => r.testId)).toEqual([llmTestId, toolTestId]);
    const done = await settled(a, started.id);
    const [llmRun, toolRun] = done.testRuns;
    expect(llmRun).toMatchObject({
      status: 'passed',
      conditionResult: {
        result: 'success',
        rationale: { summary: 'The agent confirmed four guests on Sunday.' },
      },
      agentResponses: [{ role: 'agent', message: 'Of course! A table for four on Sunday is booked.' }],
    });
    expect(toolRun).toMatchObject({
      status: 'passed',
      agentResponses: [
        { toolCalls: [{ toolName: 'book_table', paramsAsJson: '{"guests":4,"day":"Sunday"}' }] },
      ],
      conditionResult: {
        result: 'success',
        rationale: { messages: ['guests is "4".', 'day "Sunday" matches /^[Ss]unday$/.'] },
      },
    });
    // The agent's own answer loop: its prompt with the test's dynamic variables, the history, its tools.
    const answer = llm.requests[before];
    expect(answer?.body.messages?.[0]?.content).toContain('You take bookings for a bistro open every day.');
    expect(answer?.body.messages?.slice(1).map((m) => m.content)).toEqual(history.map((h) => h.message));
    expect(answer?.body.tools?.map((x) => x.function.name)).toEqual(['book_table']);
    // The judge is told the condition and both examples, and reads the answer under test.
    const judge = llm.requests[before + 1];
    expect(judge?.body.messages?.[0]?.content).toContain(
      'The agent confirms a table for four on Sunday, politely.',
    );
    expect(judge?.body.messages?.[0]?.content).toContain('Done: a table for four on Sunday.');
    expect(judge?.body.messages?.[1]?.content).toContain('Of course! A table for four on Sunday is booked.');
    expect(llm.requests.length).toBe(before + 3);

    const page = await tests.invocations.list({ agentId });
    expect(page.results[0]).toMatchObject({
      id: started.id,
      testRunCount: 2,
      passedCount: 2,
      failedCount: 0,
    });
  });

  it('fails a wrong tool call and a judge’s failure, with the reasons', async () => {
    const { tests: all } = await a.sdk.conversationalAi.tests.list({});
    const llmTestId = all.find((x) => x.type === 'llm')?.id ?? '';
    const toolTestId = all.find((x) => x.type === 'tool')?.id ?? '';
    llm.enqueue(
      { text: 'Sorry, we are closed on Sunday.' },
      { text: 'Verdict: {"result":"failure","rationale":"It refused the booking."}' },
      { toolCalls: [{ name: 'book_table', arguments: { guests: 2, day: 'Sunday' } }] },
    );
    const started = await a.sdk.conversationalAi.agents.runTests(agentId, {
      tests: [{ testId: llmTestId }, { testId: toolTestId }],
    });
    const done = await settled(a, started.id);
    expect(done.testRuns.map((r) => [r.status, r.conditionResult?.rationale?.summary])).toEqual([
      ['failed', 'It refused the booking.'],
      ['failed', 'The agent called book_table with the wrong parameters.'],
    ]);
    expect(done.testRuns[1]?.conditionResult?.rationale?.messages).toContain('guests is "2", expected "4".');
    const summary = (await a.sdk.conversationalAi.tests.invocations.list({ testId: toolTestId })).results[0];
    expect(summary).toMatchObject({ id: started.id, failedCount: 2 });
  });

  it('cancels a run while the model answers (its late answer is dropped), then resubmits it', async () => {
    const { tests: all } = await a.sdk.conversationalAi.tests.list({});
    const llmTestId = all.find((x) => x.type === 'llm')?.id ?? '';
    const before = llm.requests.length;
    // A slow answer: the run is still running when it is cancelled.
    llm.enqueue({ text: 'A table for four on Sunday is booked for you now.', delayMs: 150 });
    const started = await a.sdk.conversationalAi.agents.runTests(agentId, {
      tests: [{ testId: llmTestId }],
      repeatCount: 2,
    });
    for (let i = 0; i < 200 && llm.requests.length === before; i += 1) await sleep(20);
    const running = await callAs(t.app, a, 'GET', `/v1/convai/test-invocations/${started.id}`);
    expect(running.json()).toMatchObject({
      status: 'running',
      test_runs: [{ status: 'running' }, { status: 'pending' }],
    });
    await a.sdk.conversationalAi.tests.invocations.cancel(started.id);
    // The job stops the answer it was waiting for and keeps nothing; the second run never starts.
    await idle();
    const cancelled = await a.sdk.conversationalAi.tests.invocations.get(started.id);
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.testRuns.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(llm.requests.length).toBe(before + 1);
    const again = await callAs(t.app, a, 'POST', `/v1/convai/test-invocations/${started.id}/cancel`);
    expect(again.statusCode).toBe(409);

    llm.enqueue(
      { text: 'Booked: four people, Sunday.' },
      { text: '{"result":"success","rationale":"Confirmed."}' },
    );
    const runId = cancelled.testRuns[0]?.testRunId ?? '';
    await a.sdk.conversationalAi.tests.invocations.resubmit(started.id, { testRunIds: [runId], agentId });
    const done = await settled(a, started.id);
    expect(done.testRuns.map((r) => [r.status, r.conditionResult?.rationale?.summary])).toEqual([
      ['passed', 'Confirmed.'],
      ['cancelled', undefined],
    ]);
    expect(done.cancelled).toBe(false);
  });

  it('says plainly that a test cannot be judged in knowledge-base mode (never a pass)', async () => {
    const base = await none.app.listen({ port: 0, host: '127.0.0.1' });
    const c = await newSpeechAccount(none.app, base);
    const agent = await c.sdk.conversationalAi.agents.create({ name: 'No model', conversationConfig: {} });
    const test = await c.sdk.conversationalAi.tests.create({
      type: 'llm',
      name: 'Greets',
      chatHistory: [{ role: 'user', message: 'Hello', timeInCallSecs: 0 }],
      successCondition: 'The agent greets the user.',
    });
    const started = await c.sdk.conversationalAi.agents.runTests(agent.agentId, {
      tests: [{ testId: test.id }],
    });
    const [run] = (await settled(c, started.id)).testRuns;
    expect(run?.status).toBe('failed');
    expect(run?.conditionResult?.result).toBe('unknown');
    expect(run?.conditionResult?.rationale?.summary).toMatch(/knowledge-base mode/);
    const raw = await callAs(none.app, c, 'GET', `/v1/convai/test-invocations/${started.id}`);
    expect(raw.json().test_runs[0].response_mode).toBe('knowledge_base');
  });
});

describe('bad input is refused and changes nothing', () => {
  it('refuses malformed histories, unknown agents and another workspace’s tests and invocations', async () => {
    const count = async () => (await a.sdk.conversationalAi.tests.list({ pageSize: 100 })).tests.length;
    const before = await count();
    const post = (body: unknown) => callAs(t.app, a, 'POST', '/v1/convai/agent-testing/create', body);
    const endsWithAgent = await post({
      name: 'x',
      success_condition: 'y',
      chat_history: [
        { role: 'user', message: 'Hi' },
        { role: 'agent', message: 'Hello' },
      ],
    });
    expect(endsWithAgent.statusCode).toBe(422);
    expect(endsWithAgent.json().detail.message).toMatch(/must end with a user turn/);
    const badRole = await post({
      name: 'x',
      success_condition: 'y',
      chat_history: [{ role: 'system', message: 'Hi' }],
    });
    expect(badRole.statusCode).toBe(422);
    expect(badRole.json().detail.message).toMatch(/role is 'user' or 'agent'/);
    const notList = await post({ name: 'x', success_condition: 'y', chat_history: 'Hi' });
    expect(notList.statusCode).toBe(422);
    const simulation = await post({
      type: 'simulation',
      name: 'x',
      chat_history: [{ role: 'user', message: 'Hi' }],
    });
    expect(simulation.json().detail.message).toMatch(/Simulation tests .* are not supported/);
    expect(await count()).toBe(before);

    const { tests: all } = await a.sdk.conversationalAi.tests.list({});
    const testId = all.find((x) => x.type === 'llm')?.id ?? '';
    const unknownAgent = await callAs(t.app, a, 'POST', '/v1/convai/agents/agent_nope/run-tests', {
      tests: [{ test_id: testId }],
    });
    expect(unknownAgent.statusCode).toBe(404);
    expect(unknownAgent.json().detail.message).toMatch(/agent "agent_nope" was not found/);
    const unknownTest = await callAs(t.app, a, 'POST', `/v1/convai/agents/${agentId}/run-tests`, {
      tests: [{ test_id: 'test_nope' }],
    });
    expect(unknownTest.statusCode).toBe(404);
    const override = await callAs(t.app, a, 'POST', `/v1/convai/agents/${agentId}/run-tests`, {
      tests: [{ test_id: testId }],
      agent_config_override: { prompt: 'x' },
    });
    expect(override.statusCode).toBe(422);

    // Workspace B: A's test, A's agent and A's invocation are not found.
    const bAgent = (await b.sdk.conversationalAi.agents.create({ name: 'B', conversationConfig: {} }))
      .agentId;
    expect((await callAs(t.app, b, 'GET', `/v1/convai/agent-testing/${testId}`)).statusCode).toBe(404);
    const runOnB = await callAs(t.app, b, 'POST', `/v1/convai/agents/${bAgent}/run-tests`, {
      tests: [{ test_id: testId }],
    });
    expect(runOnB.statusCode).toBe(404);
    const runOnA = await callAs(t.app, b, 'POST', `/v1/convai/agents/${agentId}/run-tests`, {
      tests: [{ test_id: testId }],
    });
    expect(runOnA.statusCode).toBe(404);
    const invocationId = (await a.sdk.conversationalAi.tests.invocations.list({})).results[0]?.id ?? '';
    expect((await callAs(t.app, b, 'GET', `/v1/convai/test-invocations/${invocationId}`)).statusCode).toBe(
      404,
    );
    expect(
      (await callAs(t.app, b, 'POST', `/v1/convai/test-invocations/${invocationId}/cancel`)).statusCode,
    ).toBe(404);
    expect((await b.sdk.conversationalAi.tests.invocations.list({})).results).toEqual([]);
    expect((await b.sdk.conversationalAi.tests.list({})).tests).toEqual([]);
  });
});

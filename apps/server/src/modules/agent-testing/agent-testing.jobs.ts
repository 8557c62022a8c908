import type { ConditionResult, TestRunStatus } from '@parla/contracts';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { defineJob } from '../../platform/jobs/job-definition';
import {
  answerAsAgent,
  type ChatMessage,
  type ChatModel,
  type ChatToolCall,
  languageModelOf,
} from '../conversations';
import {
  historyMessages,
  judgeMessages,
  judgeToolCalls,
  parameterJudgeMessages,
  parseVerdict,
} from './agent-testing.rules';
import { invocationById, runStatus, runsOf, setRunStatus } from './agent-testing.store';
import type { AgentTestRunRow } from './agent-testing.tables';

/*
 * The run job (issue 28, agent testing): one per `run-tests` (and per resubmit), answering the invocation's
 * pending runs one after the other. Each run: the agent answers the test's history through the same
 * responder a conversation uses (`answerAsAgent`, the conversations' front door), then the verdict: tool
 * calls checked exactly (agent-testing.rules.ts), a success condition judged by the workspace's language
 * model. With no model (knowledge-base mode) the run fails with that reason: it is never a pass.
 */

/** How long one answer or one verdict may take. */
const STEP_TIMEOUT_MS = 120_000;
/** How often a running run's state is read, so a cancel stops the model's work within this. */
const CANCEL_POLL_MS = 250;

export interface AgentTestingJobDeps {
  app: AppDeps;
}

/** Asks the judging model for a verdict and reads it. */
async function ask(model: ChatModel, messages: ChatMessage[], signal: AbortSignal): Promise<ConditionResult> {
  let text = '';
  for await (const event of model.chat({ messages, tools: [], temperature: 0, maxTokens: 300, signal }))
    if (event.type === 'text') text += event.text;
  return parseVerdict(text);
}

const callJson = (call: ChatToolCall) =>
  typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);

/** One run: the agent's answer and its verdict (thrown errors are the caller's to record). */
async function runOne(
  app: AppDeps,
  workspaceId: string,
  agentId: string,
  run: AgentTestRunRow,
  signal: AbortSignal,
): Promise<
  Pick<AgentTestRunRow, 'responseMode' | 'agentResponses' | 'conditionResult'> & { status: TestRunStatus }
> {
  const test = run.test;
  const answer = await answerAsAgent(app, {
    agentId,
    workspaceId,
    history: historyMessages(test.chat_history),
    dynamicVariables: test.dynamic_variables,
    signal: AbortSignal.any([signal, AbortSignal.timeout(STEP_TIMEOUT_MS)]),
  });
  if (!answer)
    return {
      status: 'failed',
      responseMode: null,
      agentResponses: [],
      conditionResult: {
        result: 'unknown',
        rationale: {
          summary: 'The agent was not found: it was deleted after the tests were started.',
          messages: [],
        },
      },
    };
  const agentResponses = [
    {
      role: 'agent' as const,
      message: answer.text || null,
      tool_calls: answer.toolCalls.map((call) => ({
        request_id: call.id,
        tool_name: call.name,
        params_as_json: callJson(call),
        tool_has_been_called: false,
      })),
      time_in_call_secs: 0,
    },
  ];
  const base = { responseMode: answer.mode, agentResponses };
  if (answer.mode === 'knowledge_base')
    return {
      ...base,
      status: 'failed',
      conditionResult: {
        result: 'unknown',
        rationale: {
          summary: `Not judged: the agent answers in knowledge-base mode (${answer.reason.replace(/\.$/, '')}). It quotes its best passage and calls no tools, so neither a success condition nor a tool call can be tested; configure a language model (LLM_PROVIDER) to run tests.`,
          messages: [],
        },
      },
    };
  const judge = languageModelOf(app);
  const judgeSignal = AbortSignal.any([signal, AbortSignal.timeout(STEP_TIMEOUT_MS)]);
  if (test.type === 'tool') {
    const verdict = judgeToolCalls(test, answer.toolCalls, answer.tools);
    if (verdict.status === 'failed' || !verdict.pendingLlm)
      return { ...base, status: verdict.status, conditionResult: verdict.result };
    if (!('model' in judge))
      return {
        ...base,
        status: 'failed',
        conditionResult: {
          result: 'unknown',
          rationale: { summary: `Not judged: ${judge.reason}`, messages: [] },
        },
      };
    const llm = await ask(judge.model, parameterJudgeMessages(verdict.pendingLlm.parameters), judgeSignal);
    return {
      ...base,
      status: llm.result === 'success' ? 'passed' : 'failed',
      conditionResult: {
        result: llm.result,
        rationale: {
          summary: llm.result === 'success' ? verdict.result.rationale.summary : llm.rationale.summary,
          messages: [...verdict.result.rationale.messages, llm.rationale.summary, ...llm.rationale.messages],
        },
      },
    };
  }
  if (!('model' in judge))
    return {
      ...base,
      status: 'failed',
      conditionResult: {
        result: 'unknown',
        rationale: { summary: `Not judged: ${judge.reason}`, messages: [] },
      },
    };
  const verdict = await ask(judge.model, judgeMessages(test, answer.text, answer.toolCalls), judgeSignal);
  return { ...base, status: verdict.result === 'success' ? 'passed' : 'failed', conditionResult: verdict };
}

export const runAgentTestsJob = defineJob<{ invocationId: string }, AgentTestingJobDeps>({
  name: 'agent-testing.run',
  payload: z.object({ invocationId: z.string() }),
  // One attempt a run: a second attempt after a crash takes the runs left pending or running.
  maxAttempts: 2,
  async handler({ invocationId }, ctx, { app }) {
    const db = app.database.db;
    const invocation = await invocationById(db, invocationId);
    if (!invocation) return { ran: 0 };
    const runs = await runsOf(db, [invocationId]);
    // Runs a stopped worker left running are run again.
    const todo = runs.filter((r) => r.status === 'pending' || r.status === 'running');
    let ran = 0;
    for (const run of todo) {
      if (ctx.signal.aborted) break;
      // Cancelled meanwhile (or taken by another job of a resubmit): skipped.
      if (
        (await setRunStatus(db, [run.id], ['pending', 'running'], {
          status: 'running',
          updatedAt: app.clock.now(),
        })) === 0
      )
        continue;
      // A cancel stops the run's work at once: its status is looked at while the model answers.
      const stop = new AbortController();
      const watch = setInterval(() => {
        void runStatus(db, run.id)
          .then((status) => {
            if (status !== 'running') stop.abort();
          })
          .catch(() => undefined);
      }, CANCEL_POLL_MS);
      let outcome: Awaited<ReturnType<typeof runOne>>;
      try {
        outcome = await runOne(
          app,
          invocation.workspaceId,
          invocation.agentId,
          run,
          AbortSignal.any([ctx.signal, stop.signal]),
        );
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        if (stop.signal.aborted) continue;
        outcome = {
          status: 'failed',
          responseMode: null,
          agentResponses: [],
          conditionResult: {
            result: 'unknown',
            rationale: {
              summary:
                `The run failed before a verdict: ${error instanceof Error ? error.message : String(error)}`.slice(
                  0,
                  2000,
                ),
              messages: [],
            },
          },
        };
      } finally {
        clearInterval(watch);
      }
      // Kept only if the run is still running: a cancel meanwhile wins.
      await setRunStatus(db, [run.id], ['running'], { ...outcome, updatedAt: app.clock.now() });
      ran += 1;
      await ctx.progress(ran / todo.length);
    }
    return { ran };
  },
});

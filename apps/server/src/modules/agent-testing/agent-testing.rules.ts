import type {
  ChatHistoryTurn,
  ConditionResult,
  ParameterEval,
  TestRunStatus,
  ToolCallExpectation,
} from '@parla/contracts';
import type { ChatMessage, ChatToolCall } from '../conversations';
import type { AgentTestDefinition } from './agent-testing.tables';

/*
 * The rules of agent testing (issue 28): a test's chat history as the chat model reads it, tool-call
 * expectations checked exactly, and the judge's prompt and verdict for a success condition. Pure, so the
 * unit tests hold them.
 */

/** A test's chat history as the messages a conversation's history holds (tool calls answered in order). */
export function historyMessages(turns: ChatHistoryTurn[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of turns) {
    if (turn.role === 'user') {
      messages.push({ role: 'user', content: turn.message ?? '' });
      continue;
    }
    const calls: ChatToolCall[] = (turn.tool_calls ?? []).map((call) => ({
      id: call.request_id,
      name: call.tool_name,
      arguments: parseArguments(call.params_as_json),
    }));
    messages.push({
      role: 'assistant',
      content: turn.message ?? '',
      ...(calls.length ? { toolCalls: calls } : {}),
    });
    // Every call is answered (a model server refuses a history whose calls have no answers).
    for (const call of calls) {
      const result = turn.tool_results?.find((r) => r.request_id === call.id);
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        content: result ? result.result_value : 'No result was recorded.',
      });
    }
  }
  return messages;
}

function parseArguments(json: string): Record<string, unknown> | string {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : json;
  } catch {
    return json;
  }
}

/** The value at a dotted path (`address.zip`, `items.0.sku`) of a call's arguments; undefined if absent. */
export function valueAt(args: Record<string, unknown> | string, path: string): unknown {
  let value: unknown = args;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A value as an expectation compares it: strings as they are, anything else as its JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The most characters a regex expectation is tested on (with the pattern's length bound, stays cheap). */
const REGEX_INPUT_CHARS = 2000;

/**
 * One parameter's check: `exact` compares the text (a number 3 matches "3"), `regex` tests the pattern,
 * `anything` needs the parameter present. `llm` is the judge's (returns undefined here).
 */
export function checkParameter(
  value: unknown,
  evaluation: ParameterEval,
): { ok: boolean; why: string } | undefined {
  if (evaluation.type === 'llm') return undefined;
  if (value === undefined) return { ok: false, why: 'is missing' };
  const text = asText(value);
  if (evaluation.type === 'anything') return { ok: true, why: `is ${text}` };
  if (evaluation.type === 'exact')
    return text === evaluation.expected_value
      ? { ok: true, why: `is ${JSON.stringify(evaluation.expected_value)}` }
      : {
          ok: false,
          why: `is ${JSON.stringify(text)}, expected ${JSON.stringify(evaluation.expected_value)}`,
        };
  const matches = new RegExp(evaluation.pattern).test(text.slice(0, REGEX_INPUT_CHARS));
  return matches
    ? { ok: true, why: `${JSON.stringify(text)} matches /${evaluation.pattern}/` }
    : { ok: false, why: `${JSON.stringify(text)} does not match /${evaluation.pattern}/` };
}

/** The tool's name the expectation refers to: a workspace tool by id, a system tool by its name. */
export function expectedToolName(
  expectation: ToolCallExpectation,
  tools: { id: string; name: string }[],
): string | undefined {
  const ref = expectation.referenced_tool;
  const tool = tools.find((t) => t.id === ref.id);
  if (tool) return tool.name;
  return ref.type === 'system' ? ref.id : undefined;
}

export interface ToolVerdict {
  status: Extract<TestRunStatus, 'passed' | 'failed'>;
  result: ConditionResult;
  /** Parameters left for the judge (`llm` expectations) on the call that otherwise matched. */
  pendingLlm?: { call: ChatToolCall; parameters: { path: string; description: string; value: unknown }[] };
}

/**
 * A tool test's verdict from the calls the agent made: the expected tool called (the first call, or any
 * with `check_any_tool_matches`) with every exact, regex and anything parameter right; with
 * `verify_absence`, the tool not called at all.
 */
export function judgeToolCalls(
  definition: AgentTestDefinition,
  calls: ChatToolCall[],
  tools: { id: string; name: string }[],
): ToolVerdict {
  const expectation = definition.tool_call_parameters;
  const fail = (summary: string, messages: string[] = []): ToolVerdict => ({
    status: 'failed',
    result: { result: 'failure', rationale: { summary, messages } },
  });
  if (!expectation) return fail('The test names no tool call to expect.');
  const name = expectedToolName(expectation, tools);
  if (!name)
    return fail(
      `The agent has no tool with id ${JSON.stringify(expectation.referenced_tool.id)}: add it to the agent or change the test.`,
    );
  const made = calls.map(
    (c) => `${c.name}(${typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments)})`,
  );
  const ofTool = calls.filter((c) => c.name === name);
  if (expectation.verify_absence)
    return ofTool.length === 0
      ? {
          status: 'passed',
          result: {
            result: 'success',
            rationale: { summary: `The agent did not call ${name}, as expected.`, messages: made },
          },
        }
      : fail(`The agent called ${name}, which the test says it must not.`, made);
  if (calls.length === 0) return fail(`The agent called no tool; it should have called ${name}.`);
  const candidates = definition.check_any_tool_matches
    ? ofTool
    : calls.slice(0, 1).filter((c) => c.name === name);
  if (candidates.length === 0)
    return fail(
      definition.check_any_tool_matches
        ? `The agent did not call ${name}.`
        : `The agent's first tool call was ${calls[0]?.name}, not ${name}.`,
      made,
    );
  let best: { messages: string[]; failed: number; call: ChatToolCall } | undefined;
  for (const call of candidates) {
    if (typeof call.arguments === 'string') {
      const messages = [`The arguments are not a JSON object: ${call.arguments.slice(0, 200)}`];
      if (!best) best = { messages, failed: 1, call };
      continue;
    }
    const messages: string[] = [];
    let failed = 0;
    for (const parameter of expectation.parameters) {
      const checked = checkParameter(valueAt(call.arguments, parameter.path), parameter.eval);
      if (!checked) continue;
      if (!checked.ok) failed += 1;
      messages.push(`${parameter.path} ${checked.why}.`);
    }
    if (!best || failed < best.failed) best = { messages, failed, call };
    if (failed === 0) break;
  }
  if (!best || best.failed > 0)
    return fail(`The agent called ${name} with the wrong parameters.`, best?.messages ?? made);
  const llmParameters = expectation.parameters.flatMap((p) =>
    p.eval.type === 'llm' && typeof best.call.arguments !== 'string'
      ? [{ path: p.path, description: p.eval.description, value: valueAt(best.call.arguments, p.path) }]
      : [],
  );
  const verdict: ToolVerdict = {
    status: 'passed',
    result: {
      result: 'success',
      rationale: {
        summary: `The agent called ${name} with the expected parameters.`,
        messages: best.messages,
      },
    },
  };
  if (llmParameters.length > 0) verdict.pendingLlm = { call: best.call, parameters: llmParameters };
  return verdict;
}

/** The conversation as the judge reads it: one line a turn. */
export function transcriptText(turns: ChatHistoryTurn[], answer: string, calls: ChatToolCall[]): string {
  const lines = turns.map((turn) => {
    const tools = (turn.tool_calls ?? [])
      .map((c) => ` [called ${c.tool_name}(${c.params_as_json})]`)
      .join('');
    return `${turn.role === 'agent' ? 'Agent' : 'User'}: ${turn.message ?? ''}${tools}`;
  });
  const tools = calls
    .map(
      (c) =>
        ` [called ${c.name}(${typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments)})]`,
    )
    .join('');
  lines.push(`Agent (the answer under test): ${answer}${tools}`);
  return lines.join('\n');
}

/** The judge's instructions for a success condition, with the test's examples. */
export function judgeMessages(
  definition: AgentTestDefinition,
  answer: string,
  calls: ChatToolCall[],
): ChatMessage[] {
  const lines = [
    'You judge whether an AI agent\'s last answer in a conversation meets a success condition. Answer with one JSON object only, shaped like {"result":"success|failure","rationale":"one or two sentences"}.',
    `The success condition: ${definition.success_condition ?? ''}`,
  ];
  if (definition.success_examples.length > 0)
    lines.push(
      `Answers that meet it:\n${definition.success_examples.map((e) => `- ${e.response}`).join('\n')}`,
    );
  if (definition.failure_examples.length > 0)
    lines.push(
      `Answers that do not:\n${definition.failure_examples.map((e) => `- ${e.response}`).join('\n')}`,
    );
  return [
    { role: 'system', content: lines.join('\n\n') },
    { role: 'user', content: `The conversation:\n${transcriptText(definition.chat_history, answer, calls)}` },
  ];
}

/** The judge's instructions for tool-call parameters described in words (`llm` expectations). */
export function parameterJudgeMessages(
  parameters: { path: string; description: string; value: unknown }[],
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You check the parameters an AI agent passed to a tool against what each should be. Answer with one JSON object only, shaped like {"result":"success|failure","rationale":"one or two sentences"}: success only if every parameter fits its description.',
    },
    {
      role: 'user',
      content: parameters
        .map(
          (p) =>
            `- ${p.path} = ${p.value === undefined ? '(missing)' : asText(p.value)}; it should be: ${p.description}`,
        )
        .join('\n'),
    },
  ];
}

/** The judge's answer as a verdict; what cannot be read is `unknown` and fails the test (never a pass). */
export function parseVerdict(text: string): ConditionResult {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  let answer: Record<string, unknown> | undefined;
  if (start >= 0 && end > start) {
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as unknown;
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        answer = value as Record<string, unknown>;
    } catch {
      answer = undefined;
    }
  }
  const rationale = typeof answer?.rationale === 'string' ? answer.rationale.trim().slice(0, 2000) : '';
  if (answer?.result === 'success' || answer?.result === 'failure')
    return {
      result: answer.result,
      rationale: { summary: rationale || 'The judge gave no reason.', messages: [] },
    };
  return {
    result: 'unknown',
    rationale: {
      summary: 'The judging model did not answer with a verdict, so the test cannot pass.',
      messages: [text.trim().slice(0, 500)],
    },
  };
}

/** An invocation's state from its runs' (cancelled once cancelled; running while any run is under way). */
export function invocationStatus(cancelled: boolean, statuses: TestRunStatus[]): TestRunStatus {
  if (cancelled) return 'cancelled';
  if (statuses.includes('running')) return 'running';
  const pending = statuses.filter((s) => s === 'pending').length;
  if (pending === statuses.length) return 'pending';
  if (pending > 0) return 'running';
  return statuses.some((s) => s !== 'passed') ? 'failed' : 'passed';
}

import { AgentTestBody } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkParameter,
  historyMessages,
  invocationStatus,
  judgeMessages,
  judgeToolCalls,
  parseVerdict,
  valueAt,
} from './agent-testing.rules';
import type { AgentTestDefinition } from './agent-testing.tables';

/* The rules of agent testing (issue 28): histories, exact tool-call checks, the judge's verdict. */

const history = [
  { role: 'user' as const, message: 'Where is order 42?', time_in_call_secs: 0 },
  {
    role: 'agent' as const,
    message: 'Let me look.',
    tool_calls: [
      { request_id: 'c1', tool_name: 'get_order', params_as_json: '{"id":"42"}', tool_has_been_called: true },
    ],
    tool_results: [
      { request_id: 'c1', tool_name: 'get_order', result_value: '{"status":"shipped"}', is_error: false },
    ],
    time_in_call_secs: 1,
  },
  { role: 'user' as const, message: 'And order 7?', time_in_call_secs: 2 },
];

function toolTest(over: Partial<AgentTestDefinition> = {}): AgentTestDefinition {
  return {
    type: 'tool',
    chat_history: history,
    success_examples: [],
    failure_examples: [],
    check_any_tool_matches: false,
    dynamic_variables: {},
    tool_call_parameters: {
      referenced_tool: { id: 'tool_1', type: 'webhook' },
      parameters: [{ path: 'id', eval: { type: 'exact', expected_value: '7' } }],
      verify_absence: false,
    },
    ...over,
  };
}
const tools = [{ id: 'tool_1', name: 'get_order' }];

describe('a test’s chat history as the model reads it', () => {
  it('answers each earlier tool call with its recorded result, in order', () => {
    expect(historyMessages(history)).toEqual([
      { role: 'user', content: 'Where is order 42?' },
      {
        role: 'assistant',
        content: 'Let me look.',
        toolCalls: [{ id: 'c1', name: 'get_order', arguments: { id: '42' } }],
      },
      { role: 'tool', toolCallId: 'c1', content: '{"status":"shipped"}' },
      { role: 'user', content: 'And order 7?' },
    ]);
  });
});

describe('tool-call expectations', () => {
  it('reads dotted paths and compares exactly, as text', () => {
    expect(valueAt({ a: { b: [1, { c: 'x' }] } }, 'a.b.1.c')).toBe('x');
    expect(checkParameter(7, { type: 'exact', expected_value: '7' })?.ok).toBe(true);
    expect(checkParameter('7 ', { type: 'exact', expected_value: '7' })?.ok).toBe(false);
    expect(checkParameter(undefined, { type: 'anything' })).toEqual({ ok: false, why: 'is missing' });
    expect(checkParameter('ORD-77', { type: 'regex', pattern: '^ORD-\\d+$' })?.ok).toBe(true);
    expect(checkParameter('x', { type: 'llm', description: 'an id' })).toBeUndefined();
  });

  it('passes only the right tool with the right parameters', () => {
    const right = [{ id: 'x', name: 'get_order', arguments: { id: '7' } }];
    expect(judgeToolCalls(toolTest(), right, tools).status).toBe('passed');
    const wrong = judgeToolCalls(toolTest(), [{ id: 'x', name: 'get_order', arguments: { id: '8' } }], tools);
    expect(wrong.status).toBe('failed');
    expect(wrong.result.rationale.messages).toEqual(['id is "8", expected "7".']);
    expect(judgeToolCalls(toolTest(), [], tools).result.rationale.summary).toMatch(/called no tool/);
    // Another tool first fails, unless any matching call is enough.
    const two = [{ id: 'a', name: 'end_call', arguments: {} }, ...right];
    expect(judgeToolCalls(toolTest(), two, tools).status).toBe('failed');
    expect(judgeToolCalls(toolTest({ check_any_tool_matches: true }), two, tools).status).toBe('passed');
    // Arguments that are not JSON never pass.
    expect(
      judgeToolCalls(toolTest(), [{ id: 'x', name: 'get_order', arguments: '{id:' }], tools).status,
    ).toBe('failed');
  });

  it('verify_absence passes only when the tool was not called; an unknown tool id fails plainly', () => {
    const absent = toolTest({
      tool_call_parameters: {
        referenced_tool: { id: 'tool_1', type: 'webhook' },
        parameters: [],
        verify_absence: true,
      },
    });
    expect(judgeToolCalls(absent, [], tools).status).toBe('passed');
    expect(judgeToolCalls(absent, [{ id: 'x', name: 'get_order', arguments: {} }], tools).status).toBe(
      'failed',
    );
    const unknown = judgeToolCalls(toolTest(), [], []);
    expect(unknown.result.rationale.summary).toMatch(/no tool with id "tool_1"/);
  });

  it('leaves parameters described in words to the judge', () => {
    const test = toolTest({
      tool_call_parameters: {
        referenced_tool: { id: 'tool_1', type: 'webhook' },
        parameters: [{ path: 'note', eval: { type: 'llm', description: 'a polite note' } }],
        verify_absence: false,
      },
    });
    const verdict = judgeToolCalls(
      test,
      [{ id: 'x', name: 'get_order', arguments: { note: 'Thanks!' } }],
      tools,
    );
    expect(verdict.pendingLlm?.parameters).toEqual([
      { path: 'note', description: 'a polite note', value: 'Thanks!' },
    ]);
  });
});

describe('the judge', () => {
  it('is told the condition, the examples and the conversation with the answer under test', () => {
    const [system, user] = judgeMessages(
      {
        ...toolTest(),
        type: 'llm',
        success_condition: 'Gives the status of order 7.',
        success_examples: [{ type: 'success', response: 'Order 7 shipped.' }],
        failure_examples: [{ type: 'failure', response: 'I cannot help.' }],
      },
      'Order 7 is on its way.',
      [],
    );
    expect(system?.content).toContain('Gives the status of order 7.');
    expect(system?.content).toContain('- Order 7 shipped.');
    expect(system?.content).toContain('- I cannot help.');
    expect(user?.content).toContain('Agent (the answer under test): Order 7 is on its way.');
    expect(user?.content).toContain('[called get_order({"id":"42"})]');
  });

  it('reads a verdict leniently, and an unreadable one is unknown (never a pass)', () => {
    expect(
      parseVerdict('Sure! ```json\n{"result":"success","rationale":"It gave the status."}\n```'),
    ).toEqual({
      result: 'success',
      rationale: { summary: 'It gave the status.', messages: [] },
    });
    expect(parseVerdict('I think it passed.').result).toBe('unknown');
    expect(parseVerdict('{"result":"maybe"}').result).toBe('unknown');
  });

  it('an invocation is running while a run is, and failed when any run did not pass', () => {
    expect(invocationStatus(false, ['pending', 'pending'])).toBe('pending');
    expect(invocationStatus(false, ['passed', 'pending'])).toBe('running');
    expect(invocationStatus(false, ['passed', 'failed'])).toBe('failed');
    expect(invocationStatus(false, ['passed', 'passed'])).toBe('passed');
    expect(invocationStatus(true, ['passed', 'cancelled'])).toBe('cancelled');
  });
});

describe('a test’s body', () => {
  const base = {
    name: 'Order status',
    chat_history: [{ role: 'user', message: 'Hi' }],
    success_condition: 'Greets.',
  };
  it('needs a history ending with the user and what is expected of the answer', () => {
    expect(AgentTestBody.safeParse(base).success).toBe(true);
    const messages = (body: unknown) =>
      AgentTestBody.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(messages({ ...base, chat_history: [] })).toEqual([
      'chat_history needs at least one turn: the user message the agent answers.',
    ]);
    expect(messages({ ...base, chat_history: [{ role: 'agent', message: 'Hello' }] })[0]).toMatch(
      /must end with a user turn/,
    );
    expect(messages({ ...base, chat_history: [{ role: 'system', message: 'x' }] })[0]).toMatch(
      /role is 'user' or 'agent'/,
    );
    expect(messages({ ...base, success_condition: '' })[0]).toMatch(/needs a success_condition/);
    expect(messages({ ...base, type: 'tool' })[0]).toMatch(/needs tool_call_parameters/);
    expect(messages({ ...base, type: 'simulation' })[0]).toMatch(/Simulation tests .* are not supported/);
    expect(
      messages({
        ...base,
        type: 'tool',
        tool_call_parameters: {
          referenced_tool: { id: 't' },
          parameters: [{ path: 'a', eval: { type: 'regex', pattern: '(' } }],
        },
      })[0],
    ).toMatch(/not a valid regular expression/);
  });
});

import { AgentTestBody } from '@parla/contracts';
import { describe, expect, it } from 'vitest';
import { bodyOfForm, emptyTestForm, formOfTest, validateTestForm } from './agent-test-form-rules';

describe('the agent test form', () => {
  it('refuses what the server refuses, at its field', () => {
    const form = { ...emptyTestForm(), turns: [{ role: 'agent' as const, message: 'Hello' }] };
    expect(validateTestForm(form)).toEqual({
      name: 'Give the test a name.',
      turns: 'The conversation must end with a user message: the test checks the agent’s answer to it.',
      successCondition: 'Say what the agent’s answer must do to pass.',
    });
    const tool = {
      ...emptyTestForm(),
      name: 'x',
      type: 'tool' as const,
      turns: [{ role: 'user' as const, message: 'Hi' }],
      parameters: [{ path: 'a', check: 'regex' as const, value: '(' }],
    };
    expect(validateTestForm(tool)).toEqual({
      toolRef: 'Choose the tool the agent should call.',
      'parameter.0': 'This is not a valid regular expression.',
    });
  });

  it('makes a body the server accepts, and reads a saved test back into the same form', () => {
    const form = {
      ...emptyTestForm(),
      name: ' Books a table ',
      type: 'tool' as const,
      turns: [{ role: 'user' as const, message: 'A table for 4 on Sunday' }],
      toolRef: 'tool1',
      parameters: [
        { path: 'guests', check: 'exact' as const, value: '4' },
        { path: 'day', check: 'regex' as const, value: '^[Ss]unday$' },
      ],
    };
    const body = bodyOfForm(form);
    const parsed = AgentTestBody.parse(body);
    expect(parsed.tool_call_parameters?.parameters).toEqual([
      { path: 'guests', eval: { type: 'exact', expected_value: '4' } },
      { path: 'day', eval: { type: 'regex', pattern: '^[Ss]unday$' } },
    ]);
    const back = formOfTest({
      ...parsed,
      id: 't1',
      type: 'tool',
      success_condition: null,
      tool_call_parameters: parsed.tool_call_parameters ?? null,
      parent_folder_id: null,
      created_at_unix_secs: 0,
      last_updated_at_unix_secs: 0,
    });
    expect(back).toEqual({ ...form, name: 'Books a table' });

    const llm = bodyOfForm({
      ...emptyTestForm(),
      name: 'Greets',
      turns: [{ role: 'user', message: 'Hi' }],
      successCondition: 'Greets the user.',
      successExamples: 'Hello!\n\n Hi there! ',
      toolRef: 'system:end_call',
    });
    expect(AgentTestBody.parse(llm)).toMatchObject({
      success_examples: [
        { type: 'success', response: 'Hello!' },
        { type: 'success', response: 'Hi there!' },
      ],
    });
    expect(llm.tool_call_parameters).toBeUndefined();
  });
});

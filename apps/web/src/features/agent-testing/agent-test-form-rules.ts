import type { AgentTestBody, AgentTestResponse, ParameterEval } from '@parla/contracts';
import type { z } from 'zod';

/*
 * The test editor's form (issue 28, agent testing): what is typed, checked as the server checks it so a
 * mistake is shown at its field before anything is sent, and the body the server takes.
 */

export interface TurnForm {
  role: 'user' | 'agent';
  message: string;
}

export interface ParameterForm {
  path: string;
  check: ParameterEval['type'];
  /** The expected value (exact), the pattern (regex) or the description (llm); unused for anything. */
  value: string;
}

export interface AgentTestForm {
  name: string;
  type: 'llm' | 'tool';
  turns: TurnForm[];
  successCondition: string;
  /** One example a line. */
  successExamples: string;
  failureExamples: string;
  /** `id` of a workspace tool, or `system:<name>` for a built-in one. */
  toolRef: string;
  verifyAbsence: boolean;
  parameters: ParameterForm[];
  /** Kept as they were (the page does not edit them). */
  dynamicVariables: Record<string, string | number | boolean>;
}

/** The built-in tools a test can expect, by name. */
export const SYSTEM_TOOL_NAMES = [
  'end_call',
  'language_detection',
  'transfer_to_agent',
  'skip_turn',
] as const;

export function emptyTestForm(): AgentTestForm {
  return {
    name: '',
    type: 'llm',
    turns: [{ role: 'user', message: '' }],
    successCondition: '',
    successExamples: '',
    failureExamples: '',
    toolRef: '',
    verifyAbsence: false,
    parameters: [],
    dynamicVariables: {},
  };
}

export function formOfTest(test: AgentTestResponse): AgentTestForm {
  const expectation = test.tool_call_parameters;
  const ref = expectation?.referenced_tool;
  return {
    name: test.name,
    type: test.type,
    turns: test.chat_history.map((turn) => ({ role: turn.role, message: turn.message ?? '' })),
    successCondition: test.success_condition ?? '',
    successExamples: test.success_examples.map((e) => e.response).join('\n'),
    failureExamples: test.failure_examples.map((e) => e.response).join('\n'),
    toolRef: ref ? (ref.type === 'system' ? `system:${ref.id}` : ref.id) : '',
    verifyAbsence: expectation?.verify_absence ?? false,
    parameters: (expectation?.parameters ?? []).map((p) => ({
      path: p.path,
      check: p.eval.type,
      value:
        p.eval.type === 'exact'
          ? p.eval.expected_value
          : p.eval.type === 'regex'
            ? p.eval.pattern
            : p.eval.type === 'llm'
              ? p.eval.description
              : '',
    })),
    dynamicVariables: test.dynamic_variables,
  };
}

export type TestFormErrors = Partial<Record<string, string>>;

function validPattern(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong, by field (`name`, `turns`, `turn.<i>`, `successCondition`, `toolRef`, `parameter.<i>`). */
export function validateTestForm(form: AgentTestForm): TestFormErrors {
  const errors: TestFormErrors = {};
  if (!form.name.trim()) errors.name = 'Give the test a name.';
  form.turns.forEach((turn, i) => {
    if (turn.role === 'user' && !turn.message.trim()) errors[`turn.${i}`] = 'A user turn needs a message.';
  });
  const last = form.turns.at(-1);
  if (last?.role !== 'user')
    errors.turns = 'The conversation must end with a user message: the test checks the agent’s answer to it.';
  if (form.type === 'llm' && !form.successCondition.trim())
    errors.successCondition = 'Say what the agent’s answer must do to pass.';
  if (form.type === 'tool') {
    if (!form.toolRef) errors.toolRef = 'Choose the tool the agent should call.';
    form.parameters.forEach((p, i) => {
      if (!p.path.trim()) errors[`parameter.${i}`] = 'Name the parameter (a dotted path like address.city).';
      else if (p.check === 'regex' && !validPattern(p.value))
        errors[`parameter.${i}`] = 'This is not a valid regular expression.';
      else if (p.check === 'llm' && !p.value.trim())
        errors[`parameter.${i}`] = 'Describe what the value should be.';
    });
  }
  return errors;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function evalOf(p: ParameterForm): ParameterEval {
  if (p.check === 'exact') return { type: 'exact', expected_value: p.value };
  if (p.check === 'regex') return { type: 'regex', pattern: p.value };
  if (p.check === 'llm') return { type: 'llm', description: p.value.trim() };
  return { type: 'anything' };
}

/** The body of create and update. */
export function bodyOfForm(form: AgentTestForm): z.input<typeof AgentTestBody> {
  const system = form.toolRef.startsWith('system:');
  return {
    type: form.type,
    name: form.name.trim(),
    chat_history: form.turns.map((turn, i) => ({
      role: turn.role,
      message: turn.message.trim(),
      time_in_call_secs: i,
    })),
    dynamic_variables: form.dynamicVariables,
    ...(form.type === 'llm'
      ? {
          success_condition: form.successCondition.trim(),
          success_examples: lines(form.successExamples).map((response) => ({
            type: 'success' as const,
            response,
          })),
          failure_examples: lines(form.failureExamples).map((response) => ({
            type: 'failure' as const,
            response,
          })),
        }
      : {
          tool_call_parameters: {
            referenced_tool: {
              id: system ? form.toolRef.slice('system:'.length) : form.toolRef,
              type: system ? 'system' : 'webhook',
            },
            verify_absence: form.verifyAbsence,
            parameters: form.verifyAbsence
              ? []
              : form.parameters.map((p) => ({ path: p.path.trim(), eval: evalOf(p) })),
          },
        }),
  };
}

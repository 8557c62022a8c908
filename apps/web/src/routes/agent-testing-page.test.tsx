import type { AgentTestResponse, AgentTestSummary, TestInvocationResponse } from '@parla/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeAgentSummary, makeTool } from '../test/agents-fixture';
import { json } from '../test/billing-fixture';
import { renderApp } from '../test/render-app';
import { callsTo, cleanUpWorkspaceTest, stubWorkspaceApi } from '../test/workspace-fixture';

afterEach(cleanUpWorkspaceTest);

const PATH = '/app/conversational-ai/agent-testing';
const testsPage = (tests: AgentTestSummary[]) => json({ tests, next_cursor: null, has_more: false });
const common = {
  'GET /v1/convai/agents': () => json({ agents: [makeAgentSummary()], next_cursor: null, has_more: false }),
  'GET /v1/convai/tools': () => json({ tools: [makeTool()], next_cursor: null, has_more: false }),
};

function summaryOf(test: AgentTestResponse): AgentTestSummary {
  return {
    id: test.id,
    name: test.name,
    type: test.type,
    entity_type: 'test',
    folder_parent_id: null,
    created_at_unix_secs: 1_750_000_000,
    last_updated_at_unix_secs: 1_750_000_000,
  };
}

function invocation(status: 'running' | 'failed'): TestInvocationResponse {
  const base = {
    test_invocation_id: 'inv1',
    agent_id: 'ag1',
    test_id: 't1',
    test_name: 'Books a table',
    response_mode: 'llm' as const,
    test_info: {
      name: 'Books a table',
      type: 'llm' as const,
      chat_history: [{ role: 'user' as const, message: 'A table for 4', time_in_call_secs: 0 }],
      success_condition: 'Confirms four guests.',
      success_examples: [],
      failure_examples: [],
      tool_call_parameters: null,
      check_any_tool_matches: false,
      dynamic_variables: {},
      parent_folder_id: null,
    },
    last_updated_at_unix: 1_750_000_000,
    credits_used: 0,
  };
  return {
    id: 'inv1',
    agent_id: 'ag1',
    created_at: 1_750_000_000,
    repeat_count: 1,
    cancelled: false,
    status,
    test_runs: [
      status === 'running'
        ? { ...base, test_run_id: 'r1', status: 'running', agent_responses: [], condition_result: null }
        : {
            ...base,
            test_run_id: 'r1',
            status: 'failed',
            agent_responses: [
              { role: 'agent', message: 'Sorry, we are full.', tool_calls: [], time_in_call_secs: 0 },
            ],
            condition_result: {
              result: 'failure',
              rationale: { summary: 'The agent refused the booking.', messages: [] },
            },
          },
    ],
  };
}

describe('/app/conversational-ai/agent-testing', () => {
  it('starts empty, checks a new test before sending it, and lists it once saved', async () => {
    const saved: AgentTestResponse[] = [];
    const calls = stubWorkspaceApi({
      ...common,
      'GET /v1/convai/agent-testing': () => testsPage(saved.map(summaryOf)),
      'GET /v1/convai/test-invocations': () => json({ results: [], next_cursor: null, has_more: false }),
      'POST /v1/convai/agent-testing/create': ({ body }) => {
        const b = body as AgentTestResponse;
        saved.push({
          ...b,
          id: 't1',
          parent_folder_id: null,
          created_at_unix_secs: 1,
          last_updated_at_unix_secs: 1,
        });
        return json({ id: 't1' });
      },
    });
    renderApp(PATH);
    expect(await screen.findByText('No tests yet', {}, { timeout: 5000 })).toBeTruthy();
    expect(await screen.findByText(/No runs yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create your first test' }));
    const dialog = await screen.findByRole('dialog', { name: 'New test' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test' }));
    expect(within(dialog).getByText('Give the test a name.')).toBeTruthy();
    expect(within(dialog).getByText('A user turn needs a message.')).toBeTruthy();
    expect(within(dialog).getByText('Say what the agent’s answer must do to pass.')).toBeTruthy();
    expect(callsTo(calls, 'POST /v1/convai/agent-testing/create')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Test name'), { target: { value: 'Books a table' } });
    fireEvent.change(within(dialog).getByLabelText('Turn 1 message'), { target: { value: 'Hello' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add turn' }));
    fireEvent.change(within(dialog).getByLabelText('Turn 2 message'), {
      target: { value: 'Hi! How can I help?' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test' }));
    // The conversation now ends with the agent: the test would check nothing.
    expect(within(dialog).getByText(/must end with a user message/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add turn' }));
    fireEvent.change(within(dialog).getByLabelText('Turn 3 message'), {
      target: { value: 'A table for 4 on Sunday' },
    });
    fireEvent.change(within(dialog).getByLabelText('Success condition'), {
      target: { value: 'Confirms four guests on Sunday.' },
    });
    fireEvent.change(within(dialog).getByLabelText('Answers that fail'), {
      target: { value: 'We are closed.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST /v1/convai/agent-testing/create')[0]?.body).toMatchObject({
      type: 'llm',
      name: 'Books a table',
      chat_history: [
        { role: 'user', message: 'Hello' },
        { role: 'agent', message: 'Hi! How can I help?' },
        { role: 'user', message: 'A table for 4 on Sunday' },
      ],
      success_condition: 'Confirms four guests on Sunday.',
      failure_examples: [{ type: 'failure', response: 'We are closed.' }],
    });
    const list = await screen.findByRole('list', { name: 'Tests' });
    expect(within(list).getByText('Books a table')).toBeTruthy();
  }, 20_000);

  it('makes a tool-call test with exact parameters', async () => {
    const calls = stubWorkspaceApi({
      ...common,
      'GET /v1/convai/agent-testing': () => testsPage([]),
      'GET /v1/convai/test-invocations': () => json({ results: [], next_cursor: null, has_more: false }),
      'POST /v1/convai/agent-testing/create': () => json({ id: 't2' }),
    });
    renderApp(PATH);
    fireEvent.click(await screen.findByRole('button', { name: 'New test' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New test' });
    fireEvent.change(within(dialog).getByLabelText('Test name'), { target: { value: 'Looks up the order' } });
    fireEvent.change(within(dialog).getByLabelText('Turn 1 message'), {
      target: { value: 'Where is order 7?' },
    });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Tool call/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test' }));
    expect(within(dialog).getByText('Choose the tool the agent should call.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Tool'), { target: { value: 'tool1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add parameter' }));
    fireEvent.change(within(dialog).getByLabelText('Parameter 1 path'), { target: { value: 'order_id' } });
    fireEvent.change(within(dialog).getByLabelText('Parameter 1 value'), { target: { value: '7' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create test' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST /v1/convai/agent-testing/create')[0]?.body).toMatchObject({
      type: 'tool',
      tool_call_parameters: {
        referenced_tool: { id: 'tool1' },
        verify_absence: false,
        parameters: [{ path: 'order_id', eval: { type: 'exact', expected_value: '7' } }],
      },
    });
  }, 20_000);

  it('runs the selected tests against an agent and shows each verdict with its reason', async () => {
    const test: AgentTestSummary = {
      id: 't1',
      name: 'Books a table',
      type: 'llm',
      entity_type: 'test',
      folder_parent_id: null,
      created_at_unix_secs: 1_750_000_000,
      last_updated_at_unix_secs: 1_750_000_000,
    };
    let current: TestInvocationResponse | null = null;
    const summary = () => ({
      id: 'inv1',
      agent_id: 'ag1',
      title: 'Books a table',
      created_at_unix_secs: 1_750_000_000,
      test_run_count: 1,
      passed_count: 0,
      failed_count: current?.status === 'failed' ? 1 : 0,
      pending_count: current?.status === 'running' ? 1 : 0,
      cancelled_count: 0,
      cancelled: false,
      status: current?.status ?? 'pending',
      repeat_count: 1,
      credits_used: 0,
    });
    const calls = stubWorkspaceApi({
      ...common,
      'GET /v1/convai/agent-testing': () => testsPage([test]),
      'GET /v1/convai/test-invocations': () =>
        json({ results: current ? [summary()] : [], next_cursor: null, has_more: false }),
      'POST /v1/convai/agents/ag1/run-tests': () => {
        current = invocation('running');
        return json(current);
      },
      'GET /v1/convai/test-invocations/inv1': () => json(current),
      'POST /v1/convai/test-invocations/inv1/resubmit': () => json({ status: 'ok' }),
    });
    renderApp(PATH);
    const run = await screen.findByRole('button', { name: 'Select tests to run' }, { timeout: 5000 });
    fireEvent.click(run);
    expect(callsTo(calls, 'POST /v1/convai/agents/ag1/run-tests')).toHaveLength(0);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Books a table' }));
    expect((screen.getByLabelText('Agent to test') as HTMLSelectElement).value).toBe('ag1');
    fireEvent.click(screen.getByRole('button', { name: 'Run 1 test' }));
    await waitFor(() => expect(callsTo(calls, 'POST /v1/convai/agents/ag1/run-tests')).toHaveLength(1));
    expect(callsTo(calls, 'POST /v1/convai/agents/ag1/run-tests')[0]?.body).toEqual({
      tests: [{ test_id: 't1' }],
    });
    const runs = await screen.findByRole('list', { name: 'Runs' });
    expect(await within(runs).findByText('Running')).toBeTruthy();
    expect(within(runs).getByRole('button', { name: 'Cancel runs' })).toBeTruthy();

    current = invocation('failed');
    fireEvent.click(within(runs).getByText('Books a table', { selector: 'span' }));
    expect(
      await within(runs).findByText('The agent refused the booking.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(within(runs).getByText('Sorry, we are full.')).toBeTruthy();
    fireEvent.click(within(runs).getByRole('button', { name: 'Run again' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /v1/convai/test-invocations/inv1/resubmit')[0]?.body).toEqual({
        test_run_ids: ['r1'],
        agent_id: 'ag1',
      }),
    );
  }, 20_000);

  it('shows why the runs could not be loaded, with a way to try again', async () => {
    stubWorkspaceApi({
      ...common,
      'GET /v1/convai/agent-testing': () => testsPage([]),
      'GET /v1/convai/test-invocations': () =>
        json({ detail: { status: 'invalid_request', message: 'The runs are unavailable.' } }, 400),
    });
    renderApp(PATH);
    expect(await screen.findByText('The runs are unavailable.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  }, 20_000);
});

import { z } from 'zod';
import { defineRoute } from './routes';

/*
 * Agent testing (issue 28; history/voices §7 "testing", §2 "agent-testing"). The shapes follow
 * `conversationalAi.tests`, `tests.folders`, `tests.invocations` and `agents.runTests` of
 * `@elevenlabs/elevenlabs-js` (`CreateResponseUnitTestRequest`, `CreateToolCallUnitTestRequest`,
 * `GetTestsPageResponseModel`, `GetTestSuiteInvocationResponseModel`, `UnitTestRunResponseModel`, …),
 * snake_case on the wire. A test is a chat history that ends with the user's turn plus what the agent's
 * next answer must do: meet a success condition (judged by the workspace's language model, with success
 * and failure examples) or call a tool with given parameters (checked exactly). Simulation tests (a
 * simulated user talking to the agent for several turns) are refused by name.
 */

export const AGENT_TEST_LIMITS = {
  nameChars: 200,
  historyTurns: 100,
  messageChars: 8000,
  conditionChars: 4000,
  examples: 20,
  parameters: 20,
  /** A regex expectation's pattern (no more: a pathological pattern must stay cheap). */
  patternChars: 300,
  testsPerRun: 50,
  maxRepeat: 5,
} as const;

export const AGENT_TEST_TYPES = ['llm', 'tool'] as const;
export type AgentTestType = (typeof AGENT_TEST_TYPES)[number];

/** A test run's state: `running` while the agent answers or is judged (the SDK's enum plus that one). */
export const TEST_RUN_STATUSES = ['pending', 'running', 'passed', 'failed', 'cancelled'] as const;
export type TestRunStatus = (typeof TEST_RUN_STATUSES)[number];

const Name = z
  .string()
  .trim()
  .min(1, 'name must not be empty.')
  .max(AGENT_TEST_LIMITS.nameChars, `name is at most ${AGENT_TEST_LIMITS.nameChars} characters.`);

/** A tool call the agent made earlier in the history (`ConversationHistoryTranscriptToolCallCommonModel`). */
export const ChatHistoryToolCall = z.object({
  request_id: z.string().min(1).max(200),
  tool_name: z.string().min(1).max(200),
  params_as_json: z.string().max(AGENT_TEST_LIMITS.messageChars).default('{}'),
  tool_has_been_called: z.boolean().default(true),
  type: z.string().max(50).nullable().optional(),
});

/** A tool's answer earlier in the history. */
export const ChatHistoryToolResult = z.object({
  request_id: z.string().min(1).max(200),
  tool_name: z.string().max(200).default(''),
  result_value: z.string().max(AGENT_TEST_LIMITS.messageChars).default(''),
  is_error: z.boolean().default(false),
});

/** A turn of a test's chat history (`ConversationHistoryTranscriptCommonModelInput`: the fields used). */
export const ChatHistoryTurn = z.object({
  role: z.enum(['user', 'agent'], { message: "role is 'user' or 'agent'." }),
  message: z.string().max(AGENT_TEST_LIMITS.messageChars).nullable().optional(),
  tool_calls: z.array(ChatHistoryToolCall).max(10).optional(),
  tool_results: z.array(ChatHistoryToolResult).max(10).optional(),
  time_in_call_secs: z.number().min(0).default(0),
});
export type ChatHistoryTurn = z.output<typeof ChatHistoryTurn>;

export const ResponseExample = <T extends 'success' | 'failure'>(type: T) =>
  z.object({ response: z.string().min(1).max(AGENT_TEST_LIMITS.messageChars), type: z.literal(type) });

/** How a tool-call parameter is checked (`UnitTestToolCallParameterEval`). */
export const ParameterEval = z.discriminatedUnion('type', [
  z.object({ type: z.literal('exact'), expected_value: z.string().max(AGENT_TEST_LIMITS.messageChars) }),
  z.object({
    type: z.literal('regex'),
    pattern: z
      .string()
      .min(1)
      .max(AGENT_TEST_LIMITS.patternChars)
      .refine(
        (p) => {
          try {
            new RegExp(p);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'pattern is not a valid regular expression.' },
      ),
  }),
  z.object({ type: z.literal('anything') }),
  z.object({ type: z.literal('llm'), description: z.string().min(1).max(AGENT_TEST_LIMITS.conditionChars) }),
]);
export type ParameterEval = z.output<typeof ParameterEval>;

/** `UnitTestToolCallEvaluationModel`: which tool the agent must call (or must not), with what. */
export const ToolCallExpectation = z.object({
  referenced_tool: z.object({
    id: z.string().min(1).max(200),
    type: z.enum(['system', 'webhook', 'client']).default('webhook'),
  }),
  parameters: z
    .array(
      z.object({
        /** A dotted path into the call's arguments: `city`, `address.zip`, `items.0.sku`. */
        path: z.string().trim().min(1).max(200),
        eval: ParameterEval,
      }),
    )
    .max(AGENT_TEST_LIMITS.parameters)
    .default([]),
  verify_absence: z.boolean().default(false),
});
export type ToolCallExpectation = z.output<typeof ToolCallExpectation>;

/** The fields a test is made of (create and update take the same: an update replaces the test). */
export const AgentTestBody = z
  .object({
    type: z.enum(['llm', 'tool', 'simulation']).default('llm'),
    name: Name,
    chat_history: z
      .array(ChatHistoryTurn)
      .min(1, 'chat_history needs at least one turn: the user message the agent answers.')
      .max(
        AGENT_TEST_LIMITS.historyTurns,
        `chat_history is at most ${AGENT_TEST_LIMITS.historyTurns} turns.`,
      ),
    success_condition: z.string().trim().max(AGENT_TEST_LIMITS.conditionChars).nullable().optional(),
    success_examples: z.array(ResponseExample('success')).max(AGENT_TEST_LIMITS.examples).default([]),
    failure_examples: z.array(ResponseExample('failure')).max(AGENT_TEST_LIMITS.examples).default([]),
    tool_call_parameters: ToolCallExpectation.nullable().optional(),
    check_any_tool_matches: z.boolean().default(false),
    dynamic_variables: z
      .record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean()]))
      .default({}),
    parent_folder_id: z.string().max(100).nullable().optional(),
  })
  .superRefine((test, ctx) => {
    if (test.type === 'simulation')
      ctx.addIssue({
        code: 'custom',
        path: ['type'],
        message:
          "Simulation tests (a simulated user talking with the agent) are not supported: use type 'llm' (a success condition) or 'tool' (a tool call).",
      });
    const last = test.chat_history.at(-1);
    if (last && (last.role !== 'user' || !last.message?.trim()))
      ctx.addIssue({
        code: 'custom',
        path: ['chat_history'],
        message:
          "chat_history must end with a user turn with a message: the test is the agent's answer to it.",
      });
    test.chat_history.forEach((turn, i) => {
      if (turn.role === 'user' && !turn.message?.trim())
        ctx.addIssue({
          code: 'custom',
          path: ['chat_history', i, 'message'],
          message: 'A user turn needs a message.',
        });
    });
    if (test.type === 'llm' && !test.success_condition?.trim())
      ctx.addIssue({
        code: 'custom',
        path: ['success_condition'],
        message: 'An llm test needs a success_condition: what the agent’s answer must do.',
      });
    if (test.type === 'tool' && !test.tool_call_parameters)
      ctx.addIssue({
        code: 'custom',
        path: ['tool_call_parameters'],
        message: 'A tool test needs tool_call_parameters: the tool the agent must call (referenced_tool).',
      });
  });
export type AgentTestBody = z.output<typeof AgentTestBody>;

export const AgentTestResponse = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(AGENT_TEST_TYPES),
  chat_history: z.array(ChatHistoryTurn),
  success_condition: z.string().nullable(),
  success_examples: z.array(ResponseExample('success')),
  failure_examples: z.array(ResponseExample('failure')),
  tool_call_parameters: ToolCallExpectation.nullable(),
  check_any_tool_matches: z.boolean(),
  dynamic_variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  parent_folder_id: z.string().nullable(),
  created_at_unix_secs: z.number(),
  last_updated_at_unix_secs: z.number(),
});
export type AgentTestResponse = z.output<typeof AgentTestResponse>;

/** `UnitTestSummaryResponseModel` (a folder is listed with the same shape, type `folder`). */
export const AgentTestSummary = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['llm', 'tool', 'folder']),
  entity_type: z.enum(['test', 'folder']),
  folder_parent_id: z.string().nullable(),
  children_count: z.number().optional(),
  created_at_unix_secs: z.number(),
  last_updated_at_unix_secs: z.number(),
});
export type AgentTestSummary = z.output<typeof AgentTestSummary>;

const TestParams = z.object({ test_id: z.string().min(1).max(100) });
const FolderParams = z.object({ folder_id: z.string().min(1).max(100) });
const InvocationParams = z.object({ test_invocation_id: z.string().min(1).max(100) });
const AgentParams = z.object({ agent_id: z.string().min(1).max(100) });
const PageSize = z.coerce
  .number()
  .int()
  .min(1, 'page_size is 1 to 100.')
  .max(100, 'page_size is 1 to 100.')
  .default(30);
const Ok = z.object({ status: z.literal('ok') });

export const createAgentTestRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agent-testing/create',
  summary: 'Create an agent test: a chat history and what the agent’s next answer must do',
  tags: ['agent-testing'],
  body: AgentTestBody,
  response: z.object({ id: z.string() }),
});

export const getAgentTestRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agent-testing/:test_id',
  summary: 'An agent test',
  tags: ['agent-testing'],
  params: TestParams,
  response: AgentTestResponse,
});

export const updateAgentTestRoute = defineRoute({
  method: 'PUT',
  path: '/v1/convai/agent-testing/:test_id',
  summary: 'Replace an agent test',
  tags: ['agent-testing'],
  params: TestParams,
  body: AgentTestBody,
  response: AgentTestResponse,
});

export const deleteAgentTestRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/agent-testing/:test_id',
  summary: 'Delete an agent test (its past runs stay in their invocations)',
  tags: ['agent-testing'],
  params: TestParams,
  response: Ok,
});

const BooleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');
export const ListAgentTestsQuery = z.object({
  cursor: z.string().max(200).optional(),
  page_size: PageSize,
  search: z.string().trim().max(200).optional(),
  parent_folder_id: z.string().max(100).optional(),
  types: z
    .union([
      z.enum(['llm', 'tool', 'simulation', 'folder']),
      z.array(z.enum(['llm', 'tool', 'simulation', 'folder'])),
    ])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  include_folders: BooleanQuery.optional(),
});
export type ListAgentTestsQuery = z.output<typeof ListAgentTestsQuery>;

export const listAgentTestsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agent-testing',
  summary: 'The workspace’s agent tests, newest first, a page at a time',
  tags: ['agent-testing'],
  query: ListAgentTestsQuery,
  response: z.object({
    tests: z.array(AgentTestSummary),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const agentTestSummariesRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agent-testing/summaries',
  summary: 'Summaries of the named agent tests',
  tags: ['agent-testing'],
  body: z.object({
    test_ids: z
      .array(z.string().min(1).max(100))
      .min(1, 'test_ids names at least one test.')
      .max(1000, 'test_ids names at most 1000 tests.')
      .refine((ids) => new Set(ids).size === ids.length, { message: 'test_ids has duplicates.' }),
  }),
  response: z.object({ tests: z.record(z.string(), AgentTestSummary) }),
});

export const moveAgentTestsRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agent-testing/bulk-move',
  summary: 'Move tests and folders into a folder (or to the root)',
  tags: ['agent-testing'],
  body: z.object({
    entity_ids: z.array(z.string().min(1).max(100)).min(1).max(1000),
    move_to: z.string().max(100).nullable().optional(),
  }),
  response: Ok,
});

// Folders ----------------------------------------------------------------------------------------------

export const AgentTestFolderResponse = z.object({
  id: z.string(),
  name: z.string(),
  parent_folder_id: z.string().nullable(),
  children_count: z.number(),
  folder_path: z.array(z.object({ id: z.string(), name: z.string() })),
});

export const createAgentTestFolderRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agent-testing/folders',
  summary: 'Create a folder of agent tests',
  tags: ['agent-testing'],
  body: z.object({ name: Name, parent_folder_id: z.string().max(100).nullable().optional() }),
  response: z.object({ id: z.string(), name: z.string() }),
});

export const getAgentTestFolderRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/agent-testing/folders/:folder_id',
  summary: 'A folder of agent tests',
  tags: ['agent-testing'],
  params: FolderParams,
  response: AgentTestFolderResponse,
});

export const updateAgentTestFolderRoute = defineRoute({
  method: 'PATCH',
  path: '/v1/convai/agent-testing/folders/:folder_id',
  summary: 'Rename a folder of agent tests',
  tags: ['agent-testing'],
  params: FolderParams,
  body: z.object({ name: Name }),
  response: AgentTestFolderResponse,
});

export const deleteAgentTestFolderRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/convai/agent-testing/folders/:folder_id',
  summary: 'Delete a folder of agent tests (with force, what it holds too)',
  tags: ['agent-testing'],
  params: FolderParams,
  query: z.object({ force: BooleanQuery.optional() }),
  response: Ok,
});

// Runs -------------------------------------------------------------------------------------------------

export const ConditionResult = z.object({
  result: z.enum(['success', 'failure', 'unknown']),
  rationale: z.object({ summary: z.string(), messages: z.array(z.string()) }),
});
export type ConditionResult = z.output<typeof ConditionResult>;

/** What the agent answered in a run (`ConversationHistoryTranscriptCommonModelOutput`, the fields used). */
export const AgentResponseTurn = z.object({
  role: z.literal('agent'),
  message: z.string().nullable(),
  tool_calls: z.array(
    z.object({
      request_id: z.string(),
      tool_name: z.string(),
      params_as_json: z.string(),
      tool_has_been_called: z.boolean(),
    }),
  ),
  time_in_call_secs: z.number(),
});

/** `UnitTestRunResponseModel`, plus how the agent answered (`response_mode`: a model, or knowledge-base mode). */
export const TestRunResponse = z.object({
  test_run_id: z.string(),
  test_invocation_id: z.string(),
  agent_id: z.string(),
  test_id: z.string(),
  test_name: z.string(),
  status: z.enum(TEST_RUN_STATUSES),
  agent_responses: z.array(AgentResponseTurn),
  condition_result: ConditionResult.nullable(),
  response_mode: z.enum(['llm', 'knowledge_base']).nullable(),
  test_info: AgentTestResponse.omit({
    id: true,
    created_at_unix_secs: true,
    last_updated_at_unix_secs: true,
  }),
  last_updated_at_unix: z.number(),
  credits_used: z.number(),
});
export type TestRunResponse = z.output<typeof TestRunResponse>;

/** An invocation's overall state, from its runs (`cancelled` once cancelled, whatever had finished). */
export const INVOCATION_STATUSES = TEST_RUN_STATUSES;

export const TestInvocationResponse = z.object({
  id: z.string(),
  agent_id: z.string(),
  created_at: z.number(),
  repeat_count: z.number(),
  cancelled: z.boolean(),
  status: z.enum(INVOCATION_STATUSES),
  test_runs: z.array(TestRunResponse),
});
export type TestInvocationResponse = z.output<typeof TestInvocationResponse>;

export const TestInvocationSummary = z.object({
  id: z.string(),
  agent_id: z.string(),
  title: z.string(),
  created_at_unix_secs: z.number(),
  test_run_count: z.number(),
  passed_count: z.number(),
  failed_count: z.number(),
  pending_count: z.number(),
  cancelled_count: z.number(),
  cancelled: z.boolean(),
  status: z.enum(INVOCATION_STATUSES),
  repeat_count: z.number(),
  credits_used: z.number(),
});
export type TestInvocationSummary = z.output<typeof TestInvocationSummary>;

export const runAgentTestsRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/agents/:agent_id/run-tests',
  summary: 'Run tests against an agent: a job answers each test’s history and judges the answer',
  tags: ['agent-testing'],
  params: AgentParams,
  body: z.object({
    tests: z
      .array(z.object({ test_id: z.string().min(1).max(100) }))
      .min(1, 'tests names at least one test.')
      .max(AGENT_TEST_LIMITS.testsPerRun, `tests names at most ${AGENT_TEST_LIMITS.testsPerRun} tests.`),
    repeat_count: z.number().int().min(1).max(AGENT_TEST_LIMITS.maxRepeat).default(1),
    // The SDK sends these; Parla has no branches and runs the agent as it is stored (refused by name).
    branch_id: z.string().nullable().optional(),
    agent_config_override: z.unknown().optional(),
  }),
  response: TestInvocationResponse,
});

export const ListTestInvocationsQuery = z.object({
  agent_id: z.string().max(100).optional(),
  test_id: z.string().max(100).optional(),
  page_size: PageSize,
  cursor: z.string().max(200).optional(),
});
export type ListTestInvocationsQuery = z.output<typeof ListTestInvocationsQuery>;

export const listTestInvocationsRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/test-invocations',
  summary: 'Test invocations, newest first, a page at a time',
  tags: ['agent-testing'],
  query: ListTestInvocationsQuery,
  response: z.object({
    results: z.array(TestInvocationSummary),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
});

export const getTestInvocationRoute = defineRoute({
  method: 'GET',
  path: '/v1/convai/test-invocations/:test_invocation_id',
  summary: 'A test invocation with each run’s verdict and rationale',
  tags: ['agent-testing'],
  params: InvocationParams,
  response: TestInvocationResponse,
});

export const cancelTestInvocationRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/test-invocations/:test_invocation_id/cancel',
  summary: 'Cancel the runs of an invocation that have not finished',
  tags: ['agent-testing'],
  params: InvocationParams,
  response: Ok,
});

export const resubmitTestInvocationRoute = defineRoute({
  method: 'POST',
  path: '/v1/convai/test-invocations/:test_invocation_id/resubmit',
  summary: 'Run finished runs of an invocation again',
  tags: ['agent-testing'],
  params: InvocationParams,
  body: z.object({
    test_run_ids: z.array(z.string().min(1).max(100)).min(1, 'test_run_ids names at least one run.').max(500),
    agent_id: z.string().min(1).max(100),
    branch_id: z.string().nullable().optional(),
    agent_config_override: z.unknown().optional(),
  }),
  response: Ok,
});

import type {
  AgentTestBody,
  AgentTestResponse,
  AgentTestSummary,
  ListAgentTestsQuery,
  ListTestInvocationsQuery,
  TestInvocationResponse,
  TestInvocationSummary,
  TestRunResponse,
} from '@parla/contracts';
import type { AppDeps } from '../../app-deps';
import { AppError, invalid, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { JobDefinition } from '../../platform/jobs/job-definition';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { ResourceCaller } from '../workspaces';
import { invocationStatus } from './agent-testing.rules';
import {
  allFolders,
  childrenCount,
  deleteFolders,
  deleteTestRow,
  findFolder,
  findInvocation,
  findTest,
  findTests,
  insertFolder,
  insertInvocation,
  insertTest,
  listFolderRows,
  listInvocationRows,
  listTestRows,
  markInvocationCancelled,
  moveEntities,
  renameFolder,
  runsOf,
  setRunStatus,
  updateTestRow,
} from './agent-testing.store';
import type {
  AgentTestDefinition,
  AgentTestFolderRow,
  AgentTestInvocationRow,
  AgentTestRow,
  AgentTestRunRow,
} from './agent-testing.tables';

/*
 * Agent testing's use cases (issue 28): tests and their folders kept per workspace, `run-tests` making an
 * invocation whose runs one job answers and judges (agent-testing.jobs.ts), cancel and resubmit.
 */

export interface AgentTestingDeps {
  db: AppDeps['database']['db'];
  clock: AppDeps['clock'];
  queue: JobQueue;
  /** The run job (agent-testing.jobs.ts), handed in so the service does not import the worker's side. */
  runJob: JobDefinition<{ invocationId: string }, unknown>;
  /** Whether the agent exists in the workspace (the agents module, through the conversations' door). */
  agentExists(workspaceId: string, agentId: string): Promise<boolean>;
}

const secs = (date: Date) => Math.floor(date.getTime() / 1000);
const testNotFound = (id: string) => notFound(`The test ${JSON.stringify(id.slice(0, 64))}`);
const folderNotFound = (id: string) => notFound(`The folder ${JSON.stringify(id.slice(0, 64))}`);
const invocationNotFound = (id: string) => notFound(`The test invocation ${JSON.stringify(id.slice(0, 64))}`);

function definitionOf(body: AgentTestBody): AgentTestDefinition {
  const { name: _name, parent_folder_id: _folder, type, ...rest } = body;
  return { ...rest, type: type === 'tool' ? 'tool' : 'llm' };
}

export function toTestResponse(row: AgentTestRow): AgentTestResponse {
  const d = row.definition;
  return {
    id: row.id,
    name: row.name,
    type: d.type,
    chat_history: d.chat_history,
    success_condition: d.success_condition ?? null,
    success_examples: d.success_examples,
    failure_examples: d.failure_examples,
    tool_call_parameters: d.tool_call_parameters ?? null,
    check_any_tool_matches: d.check_any_tool_matches,
    dynamic_variables: d.dynamic_variables,
    parent_folder_id: row.folderId,
    created_at_unix_secs: secs(row.createdAt),
    last_updated_at_unix_secs: secs(row.updatedAt),
  };
}

function toSummary(row: AgentTestRow): AgentTestSummary {
  return {
    id: row.id,
    name: row.name,
    type: row.definition.type,
    entity_type: 'test',
    folder_parent_id: row.folderId,
    created_at_unix_secs: secs(row.createdAt),
    last_updated_at_unix_secs: secs(row.updatedAt),
  };
}

async function assertFolder(
  deps: AgentTestingDeps,
  workspaceId: string,
  folderId: string | null | undefined,
) {
  if (!folderId) return null;
  if (!(await findFolder(deps.db, workspaceId, folderId)))
    throw invalid('parent_folder_id', `The folder ${JSON.stringify(folderId.slice(0, 64))} was not found.`);
  return folderId;
}

export async function createTest(deps: AgentTestingDeps, caller: ResourceCaller, body: AgentTestBody) {
  const folderId = await assertFolder(deps, caller.workspaceId, body.parent_folder_id);
  const id = `test_${newId()}`;
  const now = deps.clock.now();
  await insertTest(deps.db, {
    id,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    name: body.name,
    type: body.type === 'tool' ? 'tool' : 'llm',
    folderId,
    definition: definitionOf(body),
    createdAt: now,
    updatedAt: now,
  });
  return { id };
}

export async function getTest(deps: AgentTestingDeps, caller: ResourceCaller, id: string) {
  const row = await findTest(deps.db, caller.workspaceId, id);
  if (!row) throw testNotFound(id);
  return toTestResponse(row);
}

export async function updateTest(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  id: string,
  body: AgentTestBody,
) {
  if (!(await findTest(deps.db, caller.workspaceId, id))) throw testNotFound(id);
  const folderId = await assertFolder(deps, caller.workspaceId, body.parent_folder_id);
  const row = await updateTestRow(deps.db, caller.workspaceId, id, {
    name: body.name,
    type: body.type === 'tool' ? 'tool' : 'llm',
    folderId,
    definition: definitionOf(body),
    updatedAt: deps.clock.now(),
  });
  if (!row) throw testNotFound(id);
  return toTestResponse(row);
}

export async function deleteTest(deps: AgentTestingDeps, caller: ResourceCaller, id: string) {
  if (!(await deleteTestRow(deps.db, caller.workspaceId, id))) throw testNotFound(id);
  return { status: 'ok' as const };
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const offset = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isInteger(offset) || offset < 0 || offset > 1_000_000)
    throw invalid('cursor', 'cursor is not one this server gave.', 'query');
  return offset;
}
const encodeCursor = (offset: number) => Buffer.from(String(offset)).toString('base64url');

export async function listTests(deps: AgentTestingDeps, caller: ResourceCaller, query: ListAgentTestsQuery) {
  const offset = decodeCursor(query.cursor);
  const folderId = query.parent_folder_id === 'root' ? null : query.parent_folder_id;
  const testTypes = query.types?.filter((t) => t === 'llm' || t === 'tool');
  const withFolders = query.include_folders === true || query.types?.includes('folder') === true;
  // Folders come first, on the first page only (a workspace has few).
  const folders: AgentTestSummary[] = [];
  if (withFolders && offset === 0)
    for (const row of await listFolderRows(deps.db, caller.workspaceId, {
      search: query.search || undefined,
      parentId: folderId,
    }))
      folders.push({
        id: row.id,
        name: row.name,
        type: 'folder',
        entity_type: 'folder',
        folder_parent_id: row.parentId,
        children_count: await childrenCount(deps.db, caller.workspaceId, row.id),
        created_at_unix_secs: secs(row.createdAt),
        last_updated_at_unix_secs: secs(row.updatedAt),
      });
  const rows =
    query.types && testTypes?.length === 0
      ? []
      : await listTestRows(deps.db, caller.workspaceId, {
          search: query.search || undefined,
          folderId,
          types: testTypes?.length ? testTypes : undefined,
          offset,
          limit: query.page_size + 1,
        });
  const more = rows.length > query.page_size;
  return {
    tests: [...folders, ...rows.slice(0, query.page_size).map(toSummary)],
    next_cursor: more ? encodeCursor(offset + query.page_size) : null,
    has_more: more,
  };
}

export async function testSummaries(deps: AgentTestingDeps, caller: ResourceCaller, ids: string[]) {
  const rows = await findTests(deps.db, caller.workspaceId, ids);
  const missing = ids.find((id) => !rows.some((r) => r.id === id));
  if (missing) throw testNotFound(missing);
  return { tests: Object.fromEntries(rows.map((r) => [r.id, toSummary(r)])) };
}

// Folders ----------------------------------------------------------------------------------------------

function pathOf(folders: AgentTestFolderRow[], folder: AgentTestFolderRow) {
  const path: { id: string; name: string }[] = [];
  const seen = new Set<string>();
  let current: AgentTestFolderRow | undefined = folder;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift({ id: current.id, name: current.name });
    const parent: string | null = current.parentId;
    current = parent ? folders.find((f) => f.id === parent) : undefined;
  }
  return path;
}

async function folderResponse(deps: AgentTestingDeps, workspaceId: string, id: string) {
  const folders = await allFolders(deps.db, workspaceId);
  const folder = folders.find((f) => f.id === id);
  if (!folder) throw folderNotFound(id);
  return {
    id: folder.id,
    name: folder.name,
    parent_folder_id: folder.parentId,
    children_count: await childrenCount(deps.db, workspaceId, id),
    folder_path: pathOf(folders, folder),
  };
}

export async function createFolder(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  body: { name: string; parent_folder_id?: string | null | undefined },
) {
  const parentId = await assertFolder(deps, caller.workspaceId, body.parent_folder_id);
  const id = `tfolder_${newId()}`;
  const now = deps.clock.now();
  await insertFolder(deps.db, {
    id,
    workspaceId: caller.workspaceId,
    name: body.name,
    parentId,
    createdAt: now,
    updatedAt: now,
  });
  return { id, name: body.name };
}

export const getFolder = (deps: AgentTestingDeps, caller: ResourceCaller, id: string) =>
  folderResponse(deps, caller.workspaceId, id);

export async function updateFolder(deps: AgentTestingDeps, caller: ResourceCaller, id: string, name: string) {
  if (!(await findFolder(deps.db, caller.workspaceId, id))) throw folderNotFound(id);
  await renameFolder(deps.db, caller.workspaceId, id, name, deps.clock.now());
  return folderResponse(deps, caller.workspaceId, id);
}

export async function deleteFolder(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  id: string,
  force: boolean,
) {
  const folders = await allFolders(deps.db, caller.workspaceId);
  if (!folders.some((f) => f.id === id)) throw folderNotFound(id);
  if (!force && (await childrenCount(deps.db, caller.workspaceId, id)) > 0)
    throw new AppError(
      'conflict',
      'This folder is not empty: move what it holds first, or delete it with force=true.',
    );
  const subtree = [id];
  for (let i = 0; i < subtree.length; i += 1)
    for (const f of folders) if (f.parentId === subtree[i] && !subtree.includes(f.id)) subtree.push(f.id);
  await deleteFolders(deps.db, caller.workspaceId, subtree);
  return { status: 'ok' as const };
}

export async function moveTests(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  body: { entity_ids: string[]; move_to?: string | null | undefined },
) {
  const folders = await allFolders(deps.db, caller.workspaceId);
  const to = body.move_to ?? null;
  const target = to ? folders.find((f) => f.id === to) : undefined;
  if (to && !target) throw invalid('move_to', `The folder ${JSON.stringify(to.slice(0, 64))} was not found.`);
  const folderIds = body.entity_ids.filter((id) => folders.some((f) => f.id === id));
  const testIds = body.entity_ids.filter((id) => !folderIds.includes(id));
  const tests = await findTests(deps.db, caller.workspaceId, testIds);
  const missing = testIds.find((id) => !tests.some((t) => t.id === id));
  if (missing) throw notFound(`The test or folder ${JSON.stringify(missing.slice(0, 64))}`);
  // A folder cannot go into itself or below itself.
  if (target && folderIds.some((id) => pathOf(folders, target).some((p) => p.id === id)))
    throw invalid('move_to', 'A folder cannot be moved into itself or into a folder inside it.');
  await moveEntities(deps.db, caller.workspaceId, testIds, folderIds, to, deps.clock.now());
  return { status: 'ok' as const };
}

// Invocations ------------------------------------------------------------------------------------------

function toRunResponse(invocation: AgentTestInvocationRow, run: AgentTestRunRow): TestRunResponse {
  const { type, ...definition } = run.test;
  return {
    test_run_id: run.id,
    test_invocation_id: run.invocationId,
    agent_id: invocation.agentId,
    test_id: run.testId,
    test_name: run.testName,
    status: run.status,
    agent_responses: run.agentResponses,
    condition_result: run.conditionResult ?? null,
    response_mode: run.responseMode ?? null,
    test_info: {
      name: run.testName,
      type,
      ...definition,
      success_condition: definition.success_condition ?? null,
      tool_call_parameters: definition.tool_call_parameters ?? null,
      parent_folder_id: null,
    },
    last_updated_at_unix: secs(run.updatedAt),
    // Tests run on the workspace's own model (providers/llm): no credits are charged.
    credits_used: 0,
  };
}

function toInvocationResponse(
  invocation: AgentTestInvocationRow,
  runs: AgentTestRunRow[],
): TestInvocationResponse {
  return {
    id: invocation.id,
    agent_id: invocation.agentId,
    created_at: secs(invocation.createdAt),
    repeat_count: invocation.repeatCount,
    cancelled: invocation.cancelled === 1,
    status: invocationStatus(
      invocation.cancelled === 1,
      runs.map((r) => r.status),
    ),
    test_runs: runs.map((run) => toRunResponse(invocation, run)),
  };
}

function refuseUnsupported(body: { branch_id?: string | null | undefined; agent_config_override?: unknown }) {
  if (body.branch_id)
    throw invalid('branch_id', 'Agents have no branches here: tests run against the agent as it is stored.');
  if (body.agent_config_override !== undefined && body.agent_config_override !== null)
    throw invalid(
      'agent_config_override',
      'agent_config_override is not supported: tests run against the agent as it is stored; change the agent (or a copy) to test another configuration.',
    );
}

export async function runTests(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  agentId: string,
  body: {
    tests: { test_id: string }[];
    repeat_count: number;
    branch_id?: string | null | undefined;
    agent_config_override?: unknown;
  },
) {
  if (!(await deps.agentExists(caller.workspaceId, agentId)))
    throw notFound(`The agent ${JSON.stringify(agentId.slice(0, 64))}`);
  refuseUnsupported(body);
  const ids = [...new Set(body.tests.map((t) => t.test_id))];
  const tests = await findTests(deps.db, caller.workspaceId, ids);
  const missing = ids.find((id) => !tests.some((t) => t.id === id));
  if (missing) throw testNotFound(missing);
  const ordered = ids.map((id) => tests.find((t) => t.id === id) as AgentTestRow);
  const id = `tinv_${newId()}`;
  const now = deps.clock.now();
  const invocation = {
    id,
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    agentId,
    title: ordered.length === 1 ? (ordered[0]?.name ?? 'Test') : `${ordered.length} tests`,
    repeatCount: body.repeat_count,
    cancelled: 0,
    createdAt: now,
  };
  const runs = [];
  for (let r = 0; r < body.repeat_count; r += 1)
    for (const test of ordered)
      runs.push({
        id: `trun_${newId()}`,
        invocationId: id,
        workspaceId: caller.workspaceId,
        testId: test.id,
        testName: test.name,
        test: test.definition,
        position: runs.length,
        status: 'pending' as const,
        updatedAt: now,
      });
  await insertInvocation(deps.db, invocation, runs);
  await deps.queue.enqueue(deps.runJob, { invocationId: id }, { workspaceId: caller.workspaceId });
  return getInvocation(deps, caller, id);
}

export async function getInvocation(deps: AgentTestingDeps, caller: ResourceCaller, id: string) {
  const invocation = await findInvocation(deps.db, caller.workspaceId, id);
  if (!invocation) throw invocationNotFound(id);
  return toInvocationResponse(invocation, await runsOf(deps.db, [id]));
}

export async function listInvocations(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  query: ListTestInvocationsQuery,
) {
  const offset = decodeCursor(query.cursor);
  const rows = await listInvocationRows(deps.db, caller.workspaceId, {
    agentId: query.agent_id,
    testId: query.test_id,
    offset,
    limit: query.page_size + 1,
  });
  const page = rows.slice(0, query.page_size);
  const runs = await runsOf(
    deps.db,
    page.map((r) => r.id),
  );
  const results: TestInvocationSummary[] = page.map((invocation) => {
    const statuses = runs.filter((r) => r.invocationId === invocation.id).map((r) => r.status);
    const count = (s: string) => statuses.filter((x) => x === s).length;
    return {
      id: invocation.id,
      agent_id: invocation.agentId,
      title: invocation.title,
      created_at_unix_secs: secs(invocation.createdAt),
      test_run_count: statuses.length,
      passed_count: count('passed'),
      failed_count: count('failed'),
      pending_count: count('pending') + count('running'),
      cancelled_count: count('cancelled'),
      cancelled: invocation.cancelled === 1,
      status: invocationStatus(invocation.cancelled === 1, statuses),
      repeat_count: invocation.repeatCount,
      credits_used: 0,
    };
  });
  const more = rows.length > query.page_size;
  return { results, next_cursor: more ? encodeCursor(offset + query.page_size) : null, has_more: more };
}

export async function cancelInvocation(deps: AgentTestingDeps, caller: ResourceCaller, id: string) {
  const invocation = await findInvocation(deps.db, caller.workspaceId, id);
  if (!invocation) throw invocationNotFound(id);
  const runs = await runsOf(deps.db, [id]);
  const open = runs.filter((r) => r.status === 'pending' || r.status === 'running').map((r) => r.id);
  if (open.length === 0)
    throw new AppError('conflict', 'Every run of this invocation has finished: there is nothing to cancel.');
  await markInvocationCancelled(deps.db, id, true);
  // The job checks each run's state before it starts it and before it keeps a verdict.
  await setRunStatus(deps.db, open, ['pending', 'running'], {
    status: 'cancelled',
    updatedAt: deps.clock.now(),
  });
  return { status: 'ok' as const };
}

export async function resubmitRuns(
  deps: AgentTestingDeps,
  caller: ResourceCaller,
  id: string,
  body: {
    test_run_ids: string[];
    agent_id: string;
    branch_id?: string | null | undefined;
    agent_config_override?: unknown;
  },
) {
  const invocation = await findInvocation(deps.db, caller.workspaceId, id);
  if (!invocation) throw invocationNotFound(id);
  if (body.agent_id !== invocation.agentId)
    throw invalid('agent_id', 'agent_id must be the agent this invocation ran against.');
  if (!(await deps.agentExists(caller.workspaceId, invocation.agentId)))
    throw notFound(`The agent ${JSON.stringify(invocation.agentId.slice(0, 64))}`);
  refuseUnsupported(body);
  const runs = await runsOf(deps.db, [id]);
  for (const runId of body.test_run_ids) {
    const run = runs.find((r) => r.id === runId);
    if (!run) throw notFound(`The test run ${JSON.stringify(runId.slice(0, 64))} of this invocation`);
    if (run.status === 'pending' || run.status === 'running')
      throw new AppError(
        'conflict',
        `The test run ${runId} has not finished: cancel it or wait for its verdict.`,
      );
  }
  await markInvocationCancelled(deps.db, id, false);
  await setRunStatus(deps.db, body.test_run_ids, ['passed', 'failed', 'cancelled'], {
    status: 'pending',
    agentResponses: [],
    conditionResult: null,
    responseMode: null,
    updatedAt: deps.clock.now(),
  });
  await deps.queue.enqueue(deps.runJob, { invocationId: id }, { workspaceId: caller.workspaceId });
  return { status: 'ok' as const };
}

import {
  agentTestSummariesRoute,
  cancelTestInvocationRoute,
  createAgentTestFolderRoute,
  createAgentTestRoute,
  deleteAgentTestFolderRoute,
  deleteAgentTestRoute,
  getAgentTestFolderRoute,
  getAgentTestRoute,
  getTestInvocationRoute,
  listAgentTestsRoute,
  listTestInvocationsRoute,
  moveAgentTestsRoute,
  resubmitTestInvocationRoute,
  runAgentTestsRoute,
  updateAgentTestFolderRoute,
  updateAgentTestRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import { agentDepsOf, loadAgentForConversation } from '../agents';
import type { ResourceCaller } from '../workspaces';
import { runAgentTestsJob } from './agent-testing.jobs';
import {
  type AgentTestingDeps,
  cancelInvocation,
  createFolder,
  createTest,
  deleteFolder,
  deleteTest,
  getFolder,
  getInvocation,
  getTest,
  listInvocations,
  listTests,
  moveTests,
  resubmitRuns,
  runTests,
  testSummaries,
  updateFolder,
  updateTest,
} from './agent-testing.service';

/**
 * `/v1/convai/agent-testing…`, `/v1/convai/test-invocations…` and `/v1/convai/agents/:agent_id/run-tests`
 * (the public API's `conversationalAi.tests`, `tests.folders`, `tests.invocations`, `agents.runTests`).
 */
export async function agentTestingRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const agents = agentDepsOf(deps);
  const testing: AgentTestingDeps = {
    db: deps.database.db,
    clock: deps.clock,
    queue: deps.queue,
    runJob: runAgentTestsJob,
    async agentExists(workspaceId, agentId) {
      const agent = await loadAgentForConversation(agents, agentId);
      return agent?.workspaceId === workspaceId;
    },
  };
  const guarded = { onRequest: deps.auth.requireAuth };
  const caller = (request: FastifyRequest): ResourceCaller => {
    const principal = principalOf(request);
    return { userId: principal.userId, workspaceId: principal.workspaceId };
  };

  registerRoute(
    app,
    createAgentTestRoute,
    ({ request, body }) => createTest(testing, caller(request), body),
    guarded,
  );
  registerRoute(
    app,
    listAgentTestsRoute,
    ({ request, query }) => listTests(testing, caller(request), query),
    guarded,
  );
  registerRoute(
    app,
    agentTestSummariesRoute,
    ({ request, body }) => testSummaries(testing, caller(request), body.test_ids),
    guarded,
  );
  registerRoute(
    app,
    moveAgentTestsRoute,
    ({ request, body }) => moveTests(testing, caller(request), body),
    guarded,
  );
  registerRoute(
    app,
    createAgentTestFolderRoute,
    ({ request, body }) => createFolder(testing, caller(request), body),
    guarded,
  );
  registerRoute(
    app,
    getAgentTestFolderRoute,
    ({ request, params }) => getFolder(testing, caller(request), params.folder_id),
    guarded,
  );
  registerRoute(
    app,
    updateAgentTestFolderRoute,
    ({ request, params, body }) => updateFolder(testing, caller(request), params.folder_id, body.name),
    guarded,
  );
  registerRoute(
    app,
    deleteAgentTestFolderRoute,
    ({ request, params, query }) =>
      deleteFolder(testing, caller(request), params.folder_id, query.force === true),
    guarded,
  );
  registerRoute(
    app,
    getAgentTestRoute,
    ({ request, params }) => getTest(testing, caller(request), params.test_id),
    guarded,
  );
  registerRoute(
    app,
    updateAgentTestRoute,
    ({ request, params, body }) => updateTest(testing, caller(request), params.test_id, body),
    guarded,
  );
  registerRoute(
    app,
    deleteAgentTestRoute,
    ({ request, params }) => deleteTest(testing, caller(request), params.test_id),
    guarded,
  );
  registerRoute(
    app,
    runAgentTestsRoute,
    ({ request, params, body }) => runTests(testing, caller(request), params.agent_id, body),
    guarded,
  );
  registerRoute(
    app,
    listTestInvocationsRoute,
    ({ request, query }) => listInvocations(testing, caller(request), query),
    guarded,
  );
  registerRoute(
    app,
    getTestInvocationRoute,
    ({ request, params }) => getInvocation(testing, caller(request), params.test_invocation_id),
    guarded,
  );
  registerRoute(
    app,
    cancelTestInvocationRoute,
    ({ request, params }) => cancelInvocation(testing, caller(request), params.test_invocation_id),
    guarded,
  );
  registerRoute(
    app,
    resubmitTestInvocationRoute,
    ({ request, params, body }) => resubmitRuns(testing, caller(request), params.test_invocation_id, body),
    guarded,
  );
}

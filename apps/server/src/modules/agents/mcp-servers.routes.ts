import {
  addMcpToolApprovalRoute,
  createMcpServerRoute,
  deleteMcpServerRoute,
  deleteMcpToolApprovalRoute,
  getMcpServerRoute,
  listMcpServersRoute,
  listMcpServerToolsRoute,
  type McpServerResponse,
  updateMcpApprovalPolicyRoute,
  updateMcpServerRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import type { ResourceCaller } from '../workspaces';
import { agentDepsOf } from './agents.context';
import { AccessInfo } from './agents.present';
import type { AgentMcpServerRow } from './agents.tables';
import {
  addMcpToolApproval,
  createMcpServer,
  deleteMcpServer,
  listMcpServerTools,
  removeMcpToolApproval,
  requireMcpServer,
  setMcpApprovalPolicy,
  updateMcpServer,
} from './mcp-servers.service';
import { agentsUsingMcpServer, listWorkspaceMcpServers } from './mcp-servers.store';

/**
 * `/v1/convai/mcp-servers…` (the public API's `conversationalAi.mcpServers`: list, create, get, update,
 * delete, `tools.list`, `approvalPolicy.update`, `toolApprovals.create/delete`; issue 28 "MCP servers").
 * Every member of a workspace manages its MCP servers, as its tools.
 */
export async function mcpServerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const agentDeps = agentDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };
  const caller = (request: FastifyRequest): ResourceCaller => {
    const principal = principalOf(request);
    return { userId: principal.userId, workspaceId: principal.workspaceId };
  };
  const present = async (row: AgentMcpServerRow, request: FastifyRequest): Promise<McpServerResponse> => {
    const agents = await agentsUsingMcpServer(agentDeps.db, row.workspaceId, row.id);
    return {
      id: row.id,
      config: row.config,
      access_info: await new AccessInfo(agentDeps.db, caller(request)).of(row.createdBy),
      dependent_agents: agents.map((a) => ({
        type: 'available' as const,
        id: a.id,
        name: a.name,
        created_at_unix_secs: Math.floor(a.createdAt.getTime() / 1000),
        access_level: 'admin' as const,
      })),
      metadata: {
        created_at: Math.floor(row.createdAt.getTime() / 1000),
        owner_user_id: row.createdBy,
      },
    };
  };

  registerRoute(
    app,
    listMcpServersRoute,
    async ({ request }) => {
      const rows = await listWorkspaceMcpServers(agentDeps.db, caller(request).workspaceId);
      return { mcp_servers: await Promise.all(rows.map((row) => present(row, request))) };
    },
    guarded,
  );
  registerRoute(
    app,
    createMcpServerRoute,
    async ({ request, body }) => present(await createMcpServer(agentDeps, caller(request), body), request),
    guarded,
  );
  registerRoute(
    app,
    getMcpServerRoute,
    async ({ request, params }) =>
      present(await requireMcpServer(agentDeps, caller(request), params.mcp_server_id), request),
    guarded,
  );
  registerRoute(
    app,
    updateMcpServerRoute,
    async ({ request, params, body }) =>
      present(await updateMcpServer(agentDeps, caller(request), params.mcp_server_id, body), request),
    guarded,
  );
  registerRoute(
    app,
    deleteMcpServerRoute,
    async ({ request, params }) => {
      await deleteMcpServer(agentDeps, caller(request), params.mcp_server_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    listMcpServerToolsRoute,
    async ({ request, params }) => listMcpServerTools(agentDeps, caller(request), params.mcp_server_id),
    guarded,
  );
  registerRoute(
    app,
    updateMcpApprovalPolicyRoute,
    async ({ request, params, body }) =>
      present(
        await setMcpApprovalPolicy(agentDeps, caller(request), params.mcp_server_id, body.approval_policy),
        request,
      ),
    guarded,
  );
  registerRoute(
    app,
    addMcpToolApprovalRoute,
    async ({ request, params, body }) =>
      present(await addMcpToolApproval(agentDeps, caller(request), params.mcp_server_id, body), request),
    guarded,
  );
  registerRoute(
    app,
    deleteMcpToolApprovalRoute,
    async ({ request, params }) =>
      present(
        await removeMcpToolApproval(agentDeps, caller(request), params.mcp_server_id, params.tool_name),
        request,
      ),
    guarded,
  );
}

import {
  createAgentRoute,
  createSecretRoute,
  createToolRoute,
  deleteAgentRoute,
  deleteSecretRoute,
  deleteToolRoute,
  duplicateAgentRoute,
  getAgentLinkRoute,
  getAgentRoute,
  getAgentWidgetRoute,
  getSecretRoute,
  getToolRoute,
  listAgentsRoute,
  listSecretsRoute,
  listToolsRoute,
  updateAgentRoute,
  updateSecretRoute,
  updateToolRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import type { ResourceCaller } from '../workspaces';
import {
  createSecret,
  createTool,
  deleteSecret,
  deleteTool,
  listSecrets,
  listTools,
  requireSecret,
  requireTool,
  secretDependents,
  updateSecret,
  updateTool,
} from './agent-tools.service';
import { agentDepsOf } from './agents.context';
import {
  AccessInfo,
  toAgentResponse,
  toAgentSummary,
  toStoredSecret,
  toToolResponse,
} from './agents.present';
import {
  agentForWidget,
  agentLinkUrl,
  createAgent,
  deleteAgent,
  duplicateAgent,
  listAgents,
  requireAgent,
  updateAgent,
  widgetConfigOf,
} from './agents.service';

/**
 * `/v1/convai/agents…`, `/v1/convai/tools…` and `/v1/convai/secrets…` (the public API's
 * `conversationalAi.agents`, `.tools` and `.secrets`; issue 28 items 1 and 4). Every member of a workspace
 * manages its agents, tools and secrets; the widget config of a public agent is readable without a key.
 */
export async function agentRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const agentDeps = agentDepsOf(deps);
  const guarded = { onRequest: deps.auth.requireAuth };
  const caller = (request: FastifyRequest): ResourceCaller => {
    const principal = principalOf(request);
    return { userId: principal.userId, workspaceId: principal.workspaceId };
  };
  const accessFor = (request: FastifyRequest) => new AccessInfo(agentDeps.db, caller(request));

  // Agents ---------------------------------------------------------------------------------------------
  registerRoute(
    app,
    createAgentRoute,
    async ({ request, body }) => ({ agent_id: (await createAgent(agentDeps, caller(request), body)).id }),
    guarded,
  );
  registerRoute(
    app,
    listAgentsRoute,
    async ({ request, query }) => {
      const page = await listAgents(agentDeps, caller(request), query);
      const access = accessFor(request);
      return {
        agents: await Promise.all(page.rows.map((row) => toAgentSummary(row, access))),
        next_cursor: page.nextCursor,
        has_more: page.nextCursor !== null,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    getAgentRoute,
    async ({ request, params }) =>
      toAgentResponse(await requireAgent(agentDeps, caller(request), params.agent_id), accessFor(request)),
    guarded,
  );
  registerRoute(
    app,
    updateAgentRoute,
    async ({ request, params, body }) =>
      toAgentResponse(
        await updateAgent(agentDeps, caller(request), params.agent_id, body),
        accessFor(request),
      ),
    guarded,
  );
  registerRoute(
    app,
    deleteAgentRoute,
    async ({ request, params }) => {
      await deleteAgent(agentDeps, caller(request), params.agent_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    duplicateAgentRoute,
    async ({ request, params, body }) => ({
      agent_id: (await duplicateAgent(agentDeps, caller(request), params.agent_id, body?.name)).id,
    }),
    guarded,
  );
  registerRoute(
    app,
    getAgentLinkRoute,
    async ({ request, params }) => {
      const row = await requireAgent(agentDeps, caller(request), params.agent_id);
      return { agent_id: row.id, url: agentLinkUrl(agentDeps, row.id), token: null };
    },
    guarded,
  );
  // The widget script fetches this from the page it is embedded in, often with no key (el-facts §3
  // "Widget embed"): a key or session, when sent, must be valid and makes a member of the agent's
  // workspace see it whatever its auth settings; the answer is readable cross-origin by allowed origins.
  registerRoute(app, getAgentWidgetRoute, async ({ request, reply, params }) => {
    const hasCredentials = Boolean(request.headers['xi-api-key'] || request.headers.authorization);
    const principal = hasCredentials ? await deps.auth.authenticate(request) : undefined;
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const row = await agentForWidget(agentDeps, params.agent_id, {
      caller: principal && { userId: principal.userId, workspaceId: principal.workspaceId },
      origin,
    });
    if (origin) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    return { agent_id: row.id, widget_config: widgetConfigOf(row) };
  });

  // Tools ----------------------------------------------------------------------------------------------
  registerRoute(
    app,
    createToolRoute,
    async ({ request, body }) =>
      toToolResponse(await createTool(agentDeps, caller(request), body), accessFor(request)),
    guarded,
  );
  registerRoute(
    app,
    listToolsRoute,
    async ({ request, query }) => {
      const page = await listTools(agentDeps, caller(request), query);
      const access = accessFor(request);
      return {
        tools: await Promise.all(page.rows.map((row) => toToolResponse(row, access))),
        next_cursor: page.nextCursor,
        has_more: page.nextCursor !== null,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    getToolRoute,
    async ({ request, params }) =>
      toToolResponse(await requireTool(agentDeps, caller(request), params.tool_id), accessFor(request)),
    guarded,
  );
  registerRoute(
    app,
    updateToolRoute,
    async ({ request, params, body }) =>
      toToolResponse(await updateTool(agentDeps, caller(request), params.tool_id, body), accessFor(request)),
    guarded,
  );
  registerRoute(
    app,
    deleteToolRoute,
    async ({ request, params, query }) => {
      await deleteTool(agentDeps, caller(request), params.tool_id, query.force ?? false);
      return { status: 'ok' as const };
    },
    guarded,
  );

  // Secrets --------------------------------------------------------------------------------------------
  const secretSaved = (row: { id: string; name: string }) => ({
    type: 'stored' as const,
    secret_id: row.id,
    name: row.name,
  });
  registerRoute(
    app,
    createSecretRoute,
    async ({ request, body }) => secretSaved(await createSecret(agentDeps, caller(request), body)),
    guarded,
  );
  registerRoute(
    app,
    listSecretsRoute,
    async ({ request, query }) => {
      const who = caller(request);
      const page = await listSecrets(agentDeps, who, query);
      return {
        secrets: await Promise.all(
          page.rows.map(async (row) =>
            toStoredSecret(row, await secretDependents(agentDeps, who.workspaceId, row.id), who),
          ),
        ),
        next_cursor: page.nextCursor,
      };
    },
    guarded,
  );
  registerRoute(
    app,
    getSecretRoute,
    async ({ request, params }) => {
      const who = caller(request);
      const row = await requireSecret(agentDeps, who, params.secret_id);
      return toStoredSecret(row, await secretDependents(agentDeps, who.workspaceId, row.id), who);
    },
    guarded,
  );
  registerRoute(
    app,
    updateSecretRoute,
    async ({ request, params, body }) =>
      secretSaved(await updateSecret(agentDeps, caller(request), params.secret_id, body)),
    guarded,
  );
  registerRoute(
    app,
    deleteSecretRoute,
    async ({ request, params }) => {
      await deleteSecret(agentDeps, caller(request), params.secret_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
}

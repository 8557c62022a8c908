import {
  calculateAgentLlmUsageRoute,
  calculateLlmUsageRoute,
  dailyAnalyticsRoute,
  getConvAiSettingsRoute,
  getDashboardSettingsRoute,
  listConversationUsersRoute,
  liveCountRoute,
  updateConvAiSettingsRoute,
  updateDashboardSettingsRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { notFound } from '../../platform/errors';
import { registerRoute } from '../../platform/route';
import {
  agentLlmUsageInput,
  calculateLlmUsage,
  dailyAnalytics,
  getConvaiSettings,
  getDashboardSettings,
  listUsers,
  liveCount,
  updateConvaiSettings,
  updateDashboardSettings,
} from './convai-settings.service';
import type { ConversationSources } from './conversation-services';

/** The workspace's Conversational AI settings, dashboard, analytics, users and LLM prices. */
export function convaiSettingsRoutes(sourcesOf: (deps: AppDeps) => ConversationSources) {
  return async (app: FastifyInstance, deps: AppDeps): Promise<void> => {
    const guarded = { onRequest: deps.auth.requireAuth };
    const workspace = (request: Parameters<typeof callerOf>[0]) => callerOf(request).workspaceId;

    registerRoute(
      app,
      getConvAiSettingsRoute,
      async ({ request }) => getConvaiSettings(deps, workspace(request)),
      guarded,
    );
    registerRoute(
      app,
      updateConvAiSettingsRoute,
      async ({ request, body }) => updateConvaiSettings(deps, workspace(request), body),
      guarded,
    );
    registerRoute(
      app,
      getDashboardSettingsRoute,
      async ({ request }) => getDashboardSettings(deps, workspace(request)),
      guarded,
    );
    registerRoute(
      app,
      updateDashboardSettingsRoute,
      async ({ request, body }) => updateDashboardSettings(deps, workspace(request), body),
      guarded,
    );
    registerRoute(
      app,
      liveCountRoute,
      async ({ request, query }) => liveCount(deps, workspace(request), query),
      guarded,
    );
    registerRoute(
      app,
      dailyAnalyticsRoute,
      async ({ request, query }) => dailyAnalytics(deps, workspace(request), query),
      guarded,
    );
    registerRoute(
      app,
      listConversationUsersRoute,
      async ({ request, query }) => listUsers(deps, workspace(request), query),
      guarded,
    );
    registerRoute(
      app,
      calculateLlmUsageRoute,
      async ({ request, body }) => calculateLlmUsage(deps, workspace(request), body),
      guarded,
    );
    const sources = sourcesOf(deps);
    registerRoute(
      app,
      calculateAgentLlmUsageRoute,
      async ({ request, params, body }) => {
        const workspaceId = workspace(request);
        const agent = await sources.loadAgent(params.agent_id);
        // Another workspace's agent is not found, as everywhere.
        if (!agent || agent.workspaceId !== workspaceId) throw notFound('The agent');
        return calculateLlmUsage(deps, workspaceId, agentLlmUsageInput(agent, body), agent.llm);
      },
      guarded,
    );
  };
}

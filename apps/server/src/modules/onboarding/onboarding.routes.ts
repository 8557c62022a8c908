import {
  acknowledgeOnboardingChecklistRoute,
  completeOnboardingSurveyRoute,
  getOnboardingChecklistRoute,
  hideOnboardingChecklistRoute,
  initiateOnboardingChecklistRoute,
  markOnboardingChecklistCompleteRoute,
  updateOnboardingChecklistRoute,
} from '@parla/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { principalOf } from '../../platform/auth-guard';
import { registerRoute } from '../../platform/route';
import {
  acknowledgeChecklist,
  completeSurvey,
  getChecklist,
  hideChecklist,
  initiateChecklist,
  markChecklistComplete,
  type OnboardingDeps,
  updateChecklistItem,
} from './onboarding.service';

/** accounts §7: the onboarding survey and the onboarding checklist calls under /v1/user. */
export async function onboardingRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const onboarding: OnboardingDeps = { db: deps.database.db, clock: deps.clock };
  const { db } = onboarding;
  const guarded = { onRequest: deps.auth.requireAuth };
  const userIdOf = (request: Parameters<typeof principalOf>[0]) => principalOf(request).userId;

  registerRoute(
    app,
    completeOnboardingSurveyRoute,
    async ({ request, body }) => {
      await completeSurvey(db, userIdOf(request), body);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    getOnboardingChecklistRoute,
    async ({ request }) => getChecklist(db, userIdOf(request)),
    guarded,
  );
  registerRoute(
    app,
    initiateOnboardingChecklistRoute,
    async ({ request }) => initiateChecklist(db, userIdOf(request)),
    guarded,
  );
  registerRoute(
    app,
    updateOnboardingChecklistRoute,
    async ({ request, body }) => updateChecklistItem(onboarding, userIdOf(request), body.item_id),
    guarded,
  );
  registerRoute(
    app,
    hideOnboardingChecklistRoute,
    async ({ request }) => hideChecklist(db, userIdOf(request)),
    guarded,
  );
  registerRoute(
    app,
    markOnboardingChecklistCompleteRoute,
    async ({ request }) => markChecklistComplete(db, userIdOf(request)),
    guarded,
  );
  registerRoute(
    app,
    acknowledgeOnboardingChecklistRoute,
    async ({ request }) => acknowledgeChecklist(onboarding, userIdOf(request)),
    guarded,
  );
}

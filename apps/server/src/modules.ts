import type { AppDeps } from './app-deps';
import type { Config } from './config';
import { accountModule } from './modules/account/account.module';
import { agentTestingModule } from './modules/agent-testing/agent-testing.module';
import { agentsModule } from './modules/agents/agents.module';
import { apiKeysModule } from './modules/api-keys/api-keys.module';
import { audioNativeModule } from './modules/audio-native/audio-native.module';
import { authModule } from './modules/auth/auth.module';
import { billingModule } from './modules/billing/billing.module';
import { consentModule } from './modules/consent/consent.module';
import { conversationsModule } from './modules/conversations/conversations.module';
import { creditsModule } from './modules/credits/credits.module';
import { dialogueModule } from './modules/dialogue/dialogue.module';
import { dubbingModule } from './modules/dubbing/dubbing.module';
import { growthModule } from './modules/growth/growth.module';
import { historyModule } from './modules/history/history.module';
import { knowledgeBaseModule } from './modules/knowledge-base/knowledge-base.module';
import { licencesModule } from './modules/licences/licences.module';
import { mailModule } from './modules/mail/mail.module';
import { meteringModule } from './modules/metering/metering.module';
import { notificationsModule } from './modules/notifications/notifications.module';
import { onboardingModule } from './modules/onboarding/onboarding.module';
import { pronunciationDictionariesModule } from './modules/pronunciation-dictionaries/pronunciation-dictionaries.module';
import { provenanceModule } from './modules/provenance/provenance.module';
import { stsModule } from './modules/speech-to-speech/sts.module';
import { speechToTextModule } from './modules/speech-to-text/speech-to-text.module';
import { studioModule } from './modules/studio/studio.module';
import { systemModule } from './modules/system/system.module';
import { telephonyModule } from './modules/telephony/telephony.module';
import { ttsModule } from './modules/tts/tts.module';
import { usersModule } from './modules/users/users.module';
import { voiceDesignModule } from './modules/voice-design/voice-design.module';
import { voicesModule } from './modules/voices/voices.module';
import { webhooksModule } from './modules/webhooks/webhooks.module';
import { workspacesModule } from './modules/workspaces/workspaces.module';
import { deliverEventJob } from './platform/events/event-bus';
import { bindJob, type JobDefinition, type RunnableJob } from './platform/jobs/job-definition';
import type { ScheduledJob } from './platform/jobs/job-schedules';
import {
  type ModuleManifest,
  type SeedDeps,
  shareableKindsOf,
  type WorkspaceFieldSource,
} from './platform/module';

/**
 * Every server module, by its manifest (issue 17 item 1). The app registers their routes and app hooks in
 * this order, the worker runs their jobs, the event bus subscribes their handlers. A new module is one
 * line here.
 */
export const MODULES: readonly ModuleManifest[] = [
  systemModule,
  licencesModule,
  authModule,
  usersModule,
  accountModule,
  onboardingModule,
  consentModule,
  apiKeysModule,
  voicesModule,
  workspacesModule,
  ttsModule,
  voiceDesignModule,
  stsModule,
  speechToTextModule,
  dialogueModule,
  historyModule,
  provenanceModule,
  billingModule,
  creditsModule,
  meteringModule,
  notificationsModule,
  growthModule,
  mailModule,
  webhooksModule,
  knowledgeBaseModule,
  agentsModule,
  conversationsModule,
  agentTestingModule,
  telephonyModule,
  dubbingModule,
  pronunciationDictionariesModule,
  studioModule,
  audioNativeModule,
];

/**
 * Every job a worker runs, with its dependencies built from the app's (issue 26 item 2): the modules'
 * jobs and the event bus's delivery. `only` keeps those named (a test's worker).
 */
export function workerJobs(app: AppDeps, only?: readonly Pick<JobDefinition, 'name'>[]): RunnableJob[] {
  const all = [
    ...MODULES.flatMap((m) => m.jobs ?? []).map((job) => bindJob(job.definition, job.deps(app))),
    bindJob(deliverEventJob, app.events),
  ];
  if (!only) return all;
  const names = new Set(only.map((definition) => definition.name));
  return all.filter((job) => names.has(job.name));
}

/** The jobs the workers enqueue on a schedule, with their intervals from the config. */
export function jobSchedules(config: Config): ScheduledJob[] {
  return MODULES.flatMap((m) => m.schedules ?? []).map((schedule) => ({
    definition: schedule.definition,
    everyMs: schedule.everyMs(config),
  }));
}

/** The modules' start-up seeding, in order (after the migrations, before anything is served). */
export async function seedModules(deps: SeedDeps): Promise<void> {
  for (const module of MODULES) await module.seed?.(deps);
}

/** The modules' background warm-up of a serving process. */
export function warmModules(deps: AppDeps): void {
  for (const module of MODULES) {
    module
      .warm?.(deps)
      .catch((err: unknown) => deps.logger.warn({ err, module: module.name }, 'warm-up failed'));
  }
}

/** What the modules add to the workspace's document, from their manifests (the workspaces module reads it). */
export const WORKSPACE_FIELDS: readonly WorkspaceFieldSource[] = MODULES.flatMap((m) =>
  m.workspaceFields ? [m.workspaceFields] : [],
);

/** The kinds of resource members share, each with the module that owns it (workspace sharing reads it). */
export const SHAREABLE_KINDS = shareableKindsOf(MODULES);

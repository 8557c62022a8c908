import { accountModule } from './modules/account/account.module';
import { apiKeysModule } from './modules/api-keys/api-keys.module';
import { authModule } from './modules/auth/auth.module';
import { billingModule } from './modules/billing/billing.module';
import { consentModule } from './modules/consent/consent.module';
import { creditsModule } from './modules/credits/credits.module';
import { dialogueModule } from './modules/dialogue/dialogue.module';
import { growthModule } from './modules/growth/growth.module';
import { historyModule } from './modules/history/history.module';
import { licencesModule } from './modules/licences/licences.module';
import { mailModule } from './modules/mail/mail.module';
import { meteringModule } from './modules/metering/metering.module';
import { notificationsModule } from './modules/notifications/notifications.module';
import { onboardingModule } from './modules/onboarding/onboarding.module';
import { provenanceModule } from './modules/provenance/provenance.module';
import { stsModule } from './modules/speech-to-speech/sts.module';
import { speechToTextModule } from './modules/speech-to-text/speech-to-text.module';
import { systemModule } from './modules/system/system.module';
import { ttsModule } from './modules/tts/tts.module';
import { usersModule } from './modules/users/users.module';
import { voicesModule } from './modules/voices/voices.module';
import { webhooksModule } from './modules/webhooks/webhooks.module';
import { workspacesModule } from './modules/workspaces/workspaces.module';
import { deliverEventJob } from './platform/events/event-bus';
import type { JobDefinition } from './platform/jobs/job-definition';
import { type ModuleManifest, shareableKindsOf } from './platform/module';

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
];

/** Every job the worker runs: the modules' and the event bus's delivery. */
// biome-ignore lint/suspicious/noExplicitAny: jobs of every payload type; each is parsed by its own schema.
export const registeredJobs: JobDefinition<any>[] = [
  ...MODULES.flatMap((m) => m.jobs ?? []),
  deliverEventJob,
];

/** The kinds of resource members share, each with the module that owns it (workspace sharing reads it). */
export const SHAREABLE_KINDS = shareableKindsOf(MODULES);

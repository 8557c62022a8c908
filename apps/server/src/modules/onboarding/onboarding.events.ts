import type { OnboardingChecklistItemId } from '@parla/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import {
  apiKeyCreated,
  dubCreated,
  generationStarted,
  referralLinkCreated,
  voiceAdded,
} from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { completeChecklistStep, type StepLogger } from './onboarding.service';

/** Which checklist item a generation's kind completes (accounts §4); speech to text has none. */
const GENERATION_STEP: Partial<Record<string, OnboardingChecklistItemId>> = {
  text_to_speech: 'generate_text_to_speech',
  dialogue: 'generate_text_to_speech',
  speech_to_speech: 'generate_speech_to_speech',
};

/** Which checklist item a voice's arrival completes: a library copy, a designed voice; clones none. */
const VOICE_STEP: Partial<Record<string, OnboardingChecklistItemId>> = {
  library: 'add_voice_to_voice_lab',
  design: 'design_voice',
};

/**
 * The onboarding checklist's triggers (accounts §4), from the events of the modules where things happen
 * (issue 17: no module calls into onboarding). Light handlers: an item completes once, right after the
 * action committed, and a failure is logged, never the action's.
 */
export function subscribeOnboarding(bus: EventBus, deps: { db: Db; logger: StepLogger; clock: Clock }): void {
  bus.on(generationStarted, 'onboarding.generation-started', async (event) => {
    const step = GENERATION_STEP[event.kind];
    if (step) await completeChecklistStep(deps, event.userId, step);
  });
  bus.on(apiKeyCreated, 'onboarding.api-key-created', (event) =>
    // accounts §4 "API key revealed": the creation's answer is the one time the key is shown.
    completeChecklistStep(deps, event.userId, 'generate_api_key'),
  );
  bus.on(voiceAdded, 'onboarding.voice-added', async (event) => {
    const step = VOICE_STEP[event.source];
    if (step) await completeChecklistStep(deps, event.userId, step);
  });
  bus.on(dubCreated, 'onboarding.dub-created', (event) =>
    completeChecklistStep(deps, event.userId, 'create_dub'),
  );
  bus.on(referralLinkCreated, 'onboarding.referral-link-created', (event) =>
    completeChecklistStep(deps, event.userId, 'join_affiliate'),
  );
}

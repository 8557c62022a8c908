import {
  ONBOARDING_CHECKLIST_ITEMS,
  type OnboardingChecklistItemId,
  type OnboardingChecklistResponse,
  type OnboardingSurveyRequest,
} from '@parla/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { getUser, setFirstNameIfEmpty } from '../users';
import { toOnboardingChecklistResponse, toUserOnboarding, type UserOnboarding } from './onboarding.present';
import {
  acknowledgeStoredItems,
  type ChecklistState,
  completeStoredItem,
  findOnboarding,
  getChecklistState,
  hideStoredChecklist,
  insertChecklist,
  insertPendingOnboarding,
  markStoredChecklistComplete,
  saveSurvey,
} from './onboarding.store';

/*
 * Onboarding (accounts §3, §4, §7): the survey a new account fills in at /app/onboarding, and the
 * checklist whose items complete once each, server-side, on their trigger events:
 *   generate_text_to_speech   speech synthesis started (tts.service, dialogue.service)
 *   generate_speech_to_speech speech to speech started (sts.service)
 *   add_voice_to_voice_lab    a library voice added (voices.routes, add shared voice)
 *   design_voice              a designed voice created from a preview (voices.routes, text-to-voice)
 *   create_dub                a dub created: dubbing does not exist yet; it calls completeDubStep
 *   join_affiliate            the referral link made (users.service getReferralLink)
 *   generate_api_key          an API key created, the one time it is shown (api-keys.routes)
 */

export interface OnboardingDeps {
  db: Db;
  clock: Clock;
}

const notStarted = () => new AppError('conflict', 'Your onboarding checklist has not been started yet.');

const userGone = () => new AppError('unauthorized', 'Your session has ended. Please sign in again.');

/** An account made by sign-up takes the survey at /app/onboarding (accounts §3 is_onboarding_completed). */
export async function startOnboarding(db: Db, userId: string): Promise<void> {
  await insertPendingOnboarding(db, userId);
}

/** What `GET /v1/user` shows of a user's onboarding. */
export async function userOnboardingOf(db: Db, userId: string): Promise<UserOnboarding> {
  return toUserOnboarding(await findOnboarding(db, userId));
}

/** `POST /v1/user/onboarding-survey-complete`: keeps the answers; onboarding is done; fills an empty name. */
export async function completeSurvey(db: Db, userId: string, input: OnboardingSurveyRequest): Promise<void> {
  if (!(await getUser(db, userId))) throw userGone();
  await db.transaction(async (tx) => {
    await saveSurvey(tx, userId, {
      first_name: input.first_name,
      role: input.role,
      subrole: input.subrole || null,
      timezone: input.timezone,
      source: input.source || null,
    });
    await setFirstNameIfEmpty(tx, userId, input.first_name);
  });
}

/** The user's checklist; a user without an onboarding row has none started (and is onboarded). */
async function requireState(db: Db, userId: string): Promise<ChecklistState> {
  const state = await getChecklistState(db, userId);
  if (state) return state;
  if (!(await getUser(db, userId))) throw userGone();
  return { checklist: null, completed: true };
}

/** The checklist fetch. */
export async function getChecklist(db: Db, userId: string): Promise<OnboardingChecklistResponse> {
  return toOnboardingChecklistResponse(await requireState(db, userId));
}

/** `initiate`: a new checklist with every item open; a started one stays as it is (its progress too). */
export async function initiateChecklist(db: Db, userId: string): Promise<OnboardingChecklistResponse> {
  await insertChecklist(db, userId, {
    checklist_id: newId(),
    items: ONBOARDING_CHECKLIST_ITEMS.map((id) => ({ id, completed_at: null })),
    hidden: false,
  });
  return getChecklist(db, userId);
}

/**
 * Completes one item if the checklist is started and the item open; a no-op otherwise. Atomic: of any
 * number of calls at once, one completes the item. Answers whether this call completed it.
 */
export async function completeChecklistItem(
  db: Db,
  userId: string,
  itemId: OnboardingChecklistItemId,
  now: Date = new Date(),
): Promise<boolean> {
  return completeStoredItem(db, userId, itemId, toUnixSeconds(now));
}

/** What a trigger site logs a failure with: the app's logger or the request's. */
export type StepLogger = Pick<FastifyBaseLogger, 'warn'>;

/**
 * A trigger site's one call (accounts §4 "each once, on its trigger event"): completes the item and never
 * throws, so a checklist problem never fails the generation, key or voice that triggered it; it is logged.
 */
export async function completeChecklistStep(
  deps: { db: Db; logger: StepLogger; clock?: Clock },
  userId: string,
  itemId: OnboardingChecklistItemId,
): Promise<void> {
  try {
    await completeChecklistItem(deps.db, userId, itemId, deps.clock?.now());
  } catch (error) {
    deps.logger.warn({ err: error, itemId }, 'an onboarding checklist step could not be recorded');
  }
}

/** Runs `work`, then completes the step it triggers (for a trigger known where the call is handled). */
export async function withChecklistStep<T>(
  deps: { db: Db; logger: StepLogger; clock?: Clock },
  userId: string,
  itemId: OnboardingChecklistItemId,
  work: Promise<T>,
): Promise<T> {
  const result = await work;
  await completeChecklistStep(deps, userId, itemId);
  return result;
}

/**
 * accounts §4 create_dub ("dub created"): dubbing is not built yet. Its service calls this once a dub is
 * created, the way the other trigger sites call completeChecklistStep.
 */
export function completeDubStep(deps: { db: Db; logger: StepLogger; clock?: Clock }, userId: string) {
  return completeChecklistStep(deps, userId, 'create_dub');
}

/** `update` (item_id): completes the item by hand; a completed item stays as it is. */
export async function updateChecklistItem(
  deps: OnboardingDeps,
  userId: string,
  itemId: OnboardingChecklistItemId,
): Promise<OnboardingChecklistResponse & { newly_completed: boolean }> {
  const newlyCompleted = await completeChecklistItem(deps.db, userId, itemId, deps.clock.now());
  const state = await requireState(deps.db, userId);
  if (!state.checklist) throw notStarted();
  return { ...toOnboardingChecklistResponse(state), newly_completed: newlyCompleted };
}

/** `hide`: the checklist no longer shows (its items still complete). */
export async function hideChecklist(db: Db, userId: string): Promise<OnboardingChecklistResponse> {
  const state = await hideStoredChecklist(db, userId);
  if (!state) throw (await getUser(db, userId)) ? notStarted() : userGone();
  return toOnboardingChecklistResponse(state);
}

/** `mark-complete`: is_onboarding_checklist_completed becomes true. */
export async function markChecklistComplete(db: Db, userId: string): Promise<OnboardingChecklistResponse> {
  const state = await markStoredChecklistComplete(db, userId);
  if (!state) throw (await getUser(db, userId)) ? notStarted() : userGone();
  return toOnboardingChecklistResponse(state);
}

/** The completions not handed out before, each handed out once (the client congratulates on them). */
export async function acknowledgeChecklist(
  deps: OnboardingDeps,
  userId: string,
): Promise<OnboardingChecklistResponse & { acknowledged: OnboardingChecklistItemId[] }> {
  const result = (await acknowledgeStoredItems(deps.db, userId, toUnixSeconds(deps.clock.now()))) ?? {
    state: await requireState(deps.db, userId),
    acknowledged: [],
  };
  const known = new Set<string>(ONBOARDING_CHECKLIST_ITEMS);
  return {
    ...toOnboardingChecklistResponse(result.state),
    acknowledged: result.acknowledged.filter((id): id is OnboardingChecklistItemId => known.has(id)),
  };
}

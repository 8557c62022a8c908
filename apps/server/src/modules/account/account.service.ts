import { createHash, randomInt } from 'node:crypto';
import type { ExtendedSubscriptionResponse, ReferralRecord, UserResponse } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { userDeleted, workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { latestLiveKeyPreview } from '../api-keys';
import { type AccountActionDeps, mailProductUpdatesConfirmation, secondFactorOf } from '../auth';
import { subscriptionBilling, subscriptionOf } from '../billing';
import { editUserPrivacy, userConsentOf } from '../consent';
import type { GeoLocation } from '../consent/consent.tables';
import { ensureReferralLinkCode, recordSignupReferral, referralLinkCodeOf } from '../growth';
import { creditsUsedOf } from '../metering';
import { userOnboardingOf } from '../onboarding';
import { deleteUser as deleteUserRow, getUser, requireUser, updateUser } from '../users';
import { voiceUsageOf, workspaceVoiceIds } from '../voices';
import { deleteWorkspace, lockWorkspacesOwnedBy, memberRoleOf } from '../workspaces';
import { type PlanUsage, toSubscription, toUserDocument } from './account.present';
import { touchUserDevice } from './account.store';
import { requireSensitiveAction } from './sensitive-actions.service';

/** What the workspace's plan allows and what it used: billing's plan, metering's credits, voices' counts. */
async function planUsageOf(db: Db, plan: PlanUsage['plan']): Promise<PlanUsage> {
  const [creditsUsed, voices] = await Promise.all([
    creditsUsedOf({ db }, plan.workspace.id),
    voiceUsageOf(db, plan.workspace.id),
  ]);
  return { plan, creditsUsed, voices };
}

/** `GET /v1/user/subscription`: the subscription with its next invoice, open invoices and pending change. */
export async function getSubscription(db: Db, workspaceId: string): Promise<ExtendedSubscriptionResponse> {
  const { state, ...billing } = await subscriptionBilling(db, workspaceId);
  const owner = await getUser(db, state.workspace.ownerId);
  return { ...toSubscription(await planUsageOf(db, state), owner), ...billing };
}

/** `GET /v1/user`: the user document of accounts §3 with the public API's fields. */
export async function getUserDocument(
  db: Db,
  principal: { userId: string; workspaceId: string },
  features: { feedbackEnabled: boolean; ttsVideoGeneration: boolean } = {
    feedbackEnabled: true,
    ttsVideoGeneration: true,
  },
): Promise<UserResponse> {
  const user = await requireUser(db, principal.userId);
  // The workspace and its subscription (subscriptionOf refuses a workspace that is gone).
  const plan = await subscriptionOf(db, principal.workspaceId);
  const role = await memberRoleOf(db, plan.workspace.id, user.id);
  if (!role) throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  // Each module answers for its part of the document, read at once.
  const [usage, onboarding, consent, secondFactor, referralLinkCode, keyPreview] = await Promise.all([
    planUsageOf(db, plan),
    userOnboardingOf(db, user.id),
    userConsentOf(db, user.id),
    secondFactorOf(db, user.id),
    referralLinkCodeOf(db, user.id),
    latestLiveKeyPreview(db, user.id),
  ]);
  return toUserDocument({
    user,
    usage,
    role,
    onboarding,
    consent,
    secondFactor,
    referralLinkCode,
    keyPreview,
    features,
  });
}

/**
 * accounts §3 "User metadata edit". The character-limit extension is a workspace admin's decision, so
 * those two fields need the admin role. Opting in to product updates mails the opt-out link.
 */
export async function editUserMetadata(
  deps: AccountActionDeps,
  principal: { userId: string; workspaceId: string },
  input: {
    agrees_to_product_updates?: boolean | undefined;
    geo_location?: GeoLocation | undefined;
    ccpa_opt_out?: boolean | undefined;
    allowed_to_extend_character_limit?: boolean | undefined;
    max_character_limit_extension?: number | null | undefined;
  },
): Promise<void> {
  const user = await requireUser(deps.db, principal.userId);
  const touchesLimit =
    input.allowed_to_extend_character_limit !== undefined ||
    input.max_character_limit_extension !== undefined;
  if (touchesLimit && (await memberRoleOf(deps.db, principal.workspaceId, user.id)) !== 'admin') {
    throw new AppError('forbidden', 'Only workspace admins can change the character limit extension.');
  }
  const set: Parameters<typeof updateUser>[2] = {};
  if (input.agrees_to_product_updates !== undefined)
    set.agreesToProductUpdates = input.agrees_to_product_updates;
  if (input.allowed_to_extend_character_limit !== undefined) {
    set.allowedToExtendCharacterLimit = input.allowed_to_extend_character_limit;
  }
  if (input.max_character_limit_extension !== undefined) {
    set.maxCharacterLimitExtension = input.max_character_limit_extension;
  }
  // The location and the CCPA opt-out are the consent module's.
  await editUserPrivacy(deps.db, user.id, input);
  if (Object.keys(set).length === 0) return;
  await updateUser(deps.db, user.id, set);
  if (input.agrees_to_product_updates && !user.agreesToProductUpdates) {
    await mailProductUpdatesConfirmation(deps, user);
  }
}

export async function editUser(
  db: Db,
  userId: string,
  input: { first_name?: string | undefined; locale?: string | undefined },
): Promise<void> {
  const set: Parameters<typeof updateUser>[2] = {};
  if (input.first_name !== undefined) set.firstName = input.first_name;
  if (input.locale !== undefined) set.locale = input.locale;
  if (Object.keys(set).length > 0) await updateUser(db, userId, set);
}

export async function dismissModerationWarning(db: Db, userId: string): Promise<void> {
  await updateUser(db, userId, { moderationWarningDismissed: true });
}

/**
 * accounts §7 post-registration-user-setup: keeps where the account came from (pid, xid) and who referred
 * it (a live referral record of someone else's link, accounts §3, §9).
 */
export async function recordSignupSource(
  db: Db,
  userId: string,
  input: {
    pid?: string | undefined;
    xid?: string | undefined;
    gcp_marketplace_jwt?: string | undefined;
    referral?: ReferralRecord | undefined;
  },
  now: Date = new Date(),
): Promise<void> {
  const source: Record<string, string> = {};
  if (input.pid) source.pid = input.pid;
  if (input.xid) source.xid = input.xid;
  if (input.gcp_marketplace_jwt) source.gcp_marketplace = 'jwt';
  // The referral is judged while the account is still new (a referrer is kept only then).
  await recordSignupReferral(db, userId, { source, referral: input.referral }, now);
  await updateUser(db, userId, { isNewUser: false });
}

/** A number in [0, 1) that stays the same for a user: for client-side sampling (`GET /v1/user/rand`). */
export function stableRandomOf(userId: string): number {
  const digest = createHash('sha256').update(`rand:${userId}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

const ADJECTIVES = [
  'Amber',
  'Bright',
  'Calm',
  'Clever',
  'Gentle',
  'Golden',
  'Lively',
  'Mellow',
  'Quiet',
  'Silver',
  'Swift',
  'Velvet',
  'Warm',
  'Wild',
  'Witty',
  'Brave',
];
const ANIMALS = [
  'Badger',
  'Crane',
  'Dolphin',
  'Falcon',
  'Fox',
  'Heron',
  'Lark',
  'Lynx',
  'Otter',
  'Owl',
  'Panda',
  'Robin',
  'Seal',
  'Swan',
  'Tiger',
  'Wren',
];

/** A public name suggestion, e.g. "Mellow Otter 42". */
export function generateName(): string {
  const pick = (list: string[]) => list[randomInt(list.length)] ?? list[0];
  return `${pick(ADJECTIVES)} ${pick(ANIMALS)} ${randomInt(10, 100)}`;
}

/** Remembers a device (as a hash); answers whether it is new for this user. */
export async function recordDeviceFingerprint(db: Db, userId: string, fingerprint: string): Promise<boolean> {
  const fingerprintHash = createHash('sha256').update(fingerprint).digest('hex');
  return touchUserDevice(db, userId, fingerprintHash);
}

/**
 * The referral link, made on first ask (accounts §3 referral_link_code, the growth module's); making it
 * completes the checklist's join_affiliate.
 */
export async function getReferralLink(
  deps: { db: Db; events: EventBus },
  publicUrl: string,
  userId: string,
): Promise<string> {
  await requireUser(deps.db, userId);
  const code = await ensureReferralLinkCode(deps, userId);
  return `${publicUrl}/?via=${encodeURIComponent(code)}`;
}

/**
 * `DELETE /v1/user/delete` with a verified sensitive-action code: removes the account, its sign-ins,
 * keys and codes, and the workspaces it owns with their data. A workspace with other members must be
 * handed over first, so nobody else loses their work. The user's items in other workspaces stay (their
 * user becomes null), and so do their files. The files of the deleted workspaces (history audio, share
 * videos, voice files) and the library copies of their voices are the business of the modules that keep
 * them: `workspace.deleted` tells them, delivered once the deletion has committed (a failed deletion
 * keeps every file).
 */
export async function deleteUser(
  deps: AccountActionDeps & { events: EventBus },
  userId: string,
  sensitiveActionCode: string | undefined,
): Promise<void> {
  const user = await requireUser(deps.db, userId);
  // One transaction: the membership check, the code, the deletion and its events stand or fall together.
  await deps.events.transaction(async (tx, events) => {
    // Locked, so no member can join these workspaces before the cascade.
    const owned = await lockWorkspacesOwnedBy(tx, user.id);
    for (const { workspace, hasOtherMembers } of owned) {
      if (hasOtherMembers) {
        throw new AppError(
          'conflict',
          `The workspace "${workspace.name}" has other members. Transfer its ownership or remove them first.`,
        );
      }
    }
    await requireSensitiveAction({ ...deps, db: tx }, user, sensitiveActionCode);
    for (const { workspace } of owned) {
      // Read before the cascade takes the rows: the voices module needs them to clean up after.
      const voiceIds = await workspaceVoiceIds(tx, workspace.id);
      await deleteWorkspace(tx, workspace.id);
      await events.publish(workspaceDeleted, { workspaceId: workspace.id, ownerId: user.id, voiceIds });
    }
    await deleteUserRow(tx, user.id);
    await events.publish(userDeleted, { userId: user.id });
  });
}

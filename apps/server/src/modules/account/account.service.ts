import { createHash, randomInt } from 'node:crypto';
import type { ExtendedSubscriptionResponse, ReferralRecord, UserResponse } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { referralLinkCreated, userDeleted, workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import { latestLiveKeyPreview } from '../api-keys';
import { type AccountActionDeps, mailProductUpdatesConfirmation } from '../auth';
import { loadBillingState, subscriptionBilling } from '../billing';
import { referralCodeToKeep } from '../growth';
import { getUser, requireUser, updateUser } from '../users';
import type { GeoLocation, users } from '../users/users.tables';
import { getMemberRole } from '../workspaces';
import { toSubscription, toUserDocument } from './account.present';
import {
  claimReferralLinkCode,
  deleteUserRow,
  deleteWorkspaceRow,
  hasOtherMember,
  lockOwnedWorkspaces,
  touchUserDevice,
  voiceSlotsOf,
  workspaceVoiceIds,
} from './account.store';
import { requireSensitiveAction } from './sensitive-actions.service';

/** `GET /v1/user/subscription`: the subscription with its next invoice, open invoices and pending change. */
export async function getSubscription(db: Db, workspaceId: string): Promise<ExtendedSubscriptionResponse> {
  const { state, ...billing } = await subscriptionBilling(db, workspaceId);
  const owner = await getUser(db, state.workspace.ownerId);
  const slots = await voiceSlotsOf(db, workspaceId);
  return { ...toSubscription(state.workspace, owner, state.sub, slots), ...billing };
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
  // The workspace and its subscription in one read (loadBillingState refuses a workspace that is gone).
  const { workspace, sub } = await loadBillingState(db, principal.workspaceId);
  const role = await getMemberRole(db, workspace.id, user.id);
  if (!role) throw new AppError('unauthorized', 'You are no longer a member of this workspace.');
  return toUserDocument({
    user,
    workspace,
    sub,
    role,
    slots: await voiceSlotsOf(db, workspace.id),
    keyPreview: await latestLiveKeyPreview(db, user.id),
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
  if (touchesLimit && (await getMemberRole(deps.db, principal.workspaceId, user.id)) !== 'admin') {
    throw new AppError('forbidden', 'Only workspace admins can change the character limit extension.');
  }
  const set: Partial<typeof users.$inferInsert> = {};
  if (input.agrees_to_product_updates !== undefined)
    set.agreesToProductUpdates = input.agrees_to_product_updates;
  if (input.geo_location !== undefined) set.geoLocation = input.geo_location;
  if (input.ccpa_opt_out !== undefined) set.ccpaOptOut = input.ccpa_opt_out;
  if (input.allowed_to_extend_character_limit !== undefined) {
    set.allowedToExtendCharacterLimit = input.allowed_to_extend_character_limit;
  }
  if (input.max_character_limit_extension !== undefined) {
    set.maxCharacterLimitExtension = input.max_character_limit_extension;
  }
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
  const set: Partial<typeof users.$inferInsert> = {};
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
  const referredByCode = await referralCodeToKeep(db, userId, input.referral, now);
  await updateUser(db, userId, {
    signupSource: source,
    isNewUser: false,
    ...(referredByCode ? { referredByCode } : {}),
  });
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
 * The referral link, made on first ask (accounts §3 referral_link_code); making it completes the
 * checklist's join_affiliate (accounts §4 "affiliate link generated").
 */
export async function getReferralLink(
  deps: { db: Db; events: EventBus },
  publicUrl: string,
  userId: string,
): Promise<string> {
  const { db } = deps;
  const user = await requireUser(db, userId);
  let code = user.referralLinkCode;
  if (!code) {
    code = newId(10).toLowerCase();
    if (await claimReferralLinkCode(db, userId, code)) {
      await deps.events.publish(referralLinkCreated, { userId });
    } else {
      code = (await requireUser(db, userId)).referralLinkCode ?? code;
    }
  }
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
    const owned = await lockOwnedWorkspaces(tx, user.id);
    for (const workspace of owned) {
      if (await hasOtherMember(tx, workspace.id, user.id)) {
        throw new AppError(
          'conflict',
          `The workspace "${workspace.name}" has other members. Transfer its ownership or remove them first.`,
        );
      }
    }
    await requireSensitiveAction({ ...deps, db: tx }, user, sensitiveActionCode);
    for (const workspace of owned) {
      // Read before the cascade takes the rows: the voices module needs them to clean up after.
      const voiceIds = await workspaceVoiceIds(tx, workspace.id);
      await deleteWorkspaceRow(tx, workspace.id);
      await events.publish(workspaceDeleted, { workspaceId: workspace.id, ownerId: user.id, voiceIds });
    }
    await deleteUserRow(tx, user.id);
    await events.publish(userDeleted, { userId: user.id });
  });
}

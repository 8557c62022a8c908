import { createHash, randomInt } from 'node:crypto';
import {
  type ExtendedSubscriptionResponse,
  isEnterpriseTier,
  maxVoiceAddEdits,
  type ReferralRecord,
  type SubscriptionResponse,
  seatTypeOf,
  termsAgreedToOf,
  tierLimits,
  USER_FIELDS_NOT_YET_IN_USE,
  type UserResponse,
} from '@parla/contracts';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { toUnixSeconds } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { referralLinkCreated } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import type { Storage } from '../../platform/storage/storage';
import { apiKeys } from '../api-keys/api-keys.tables';
import { type AccountActionDeps, mailProductUpdatesConfirmation } from '../auth';
import { defaultSubscription, loadBillingState, type SubscriptionRow, subscriptionBilling } from '../billing';
import { referralCodeToKeep } from '../growth';
import { deleteWorkspaceShareVideos } from '../history';
import { historyItems } from '../history/history.tables';
import { toUserOnboarding } from '../onboarding';
import { requireUser } from '../users';
import { type GeoLocation, type UserRow, userDevices, users } from '../users/users.tables';
import { deleteWorkspaceVoiceFiles, retireWorkspaceVoices } from '../voices';
import { voices } from '../voices/voices.tables';
import { getMemberRole } from '../workspaces';
import { type WorkspaceRow, workspaceMembers, workspaces } from '../workspaces/workspaces.tables';
import { requireSensitiveAction } from './sensitive-actions.service';

/** The workspace's own voices (voice_slots_used) and professional clones among them. */
export interface VoiceSlots {
  used: number;
  professional: number;
}

export async function voiceSlotsOf(db: Db, workspaceId: string): Promise<VoiceSlots> {
  const [row] = await db
    .select({
      used: sql<number>`count(*)::int`,
      professional: sql<number>`(count(*) filter (where ${voices.category} = 'professional'))::int`,
    })
    .from(voices)
    .where(eq(voices.workspaceId, workspaceId));
  return { used: row?.used ?? 0, professional: row?.professional ?? 0 };
}

/** The public API's SubscriptionResponse for a workspace (accounts §3 Subscription, §9 limits). */
export function toSubscription(
  workspace: WorkspaceRow,
  user?: UserRow,
  sub: SubscriptionRow = defaultSubscription(workspace.id, workspace.tier),
  slots: VoiceSlots = { used: 0, professional: 0 },
): SubscriptionResponse {
  const limits = tierLimits[workspace.tier];
  const enterprise = isEnterpriseTier(workspace.tier);
  const allowedToExtend = user?.allowedToExtendCharacterLimit ?? false;
  return {
    tier: workspace.tier,
    character_count: workspace.characterCount,
    character_limit: limits.characterLimit,
    max_character_limit_extension: user?.maxCharacterLimitExtension ?? null,
    max_credit_limit_extension: enterprise ? 'unlimited' : (user?.maxCharacterLimitExtension ?? 0),
    can_extend_character_limit: enterprise || (workspace.tier !== 'free' && allowedToExtend),
    allowed_to_extend_character_limit: allowedToExtend,
    next_character_count_reset_unix: workspace.nextCharacterCountResetAt
      ? toUnixSeconds(workspace.nextCharacterCountResetAt)
      : null,
    voice_slots_used: slots.used,
    professional_voice_slots_used: slots.professional,
    professional_voice_slots_used_in_workspace: slots.professional,
    voice_limit: limits.voiceLimit,
    max_voice_add_edits: maxVoiceAddEdits(limits.voiceLimit),
    voice_add_edit_counter: workspace.voiceAddEditCount,
    professional_voice_limit: limits.professionalVoiceLimit,
    can_extend_voice_limit: false,
    can_use_instant_voice_cloning: limits.canUseInstantVoiceCloning,
    can_use_professional_voice_cloning: limits.canUseProfessionalVoiceCloning,
    currency: sub.currency,
    current_overage: { amount: '0.00', currency: sub.currency },
    status: sub.status,
    billing_period: sub.billingPeriod,
    character_refresh_period: 'monthly_period',
  };
}

/** `GET /v1/user/subscription`: the subscription with its next invoice, open invoices and pending change. */
export async function getSubscription(db: Db, workspaceId: string): Promise<ExtendedSubscriptionResponse> {
  const { state, ...billing } = await subscriptionBilling(db, workspaceId);
  const [owner] = await db.select().from(users).where(eq(users.id, state.workspace.ownerId));
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
  const [key] = await db
    .select({ preview: apiKeys.preview })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.disabledAt)))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  const createdAt = toUnixSeconds(user.createdAt);
  return {
    user_id: user.id,
    workspace_id: workspace.id,
    subscription: toSubscription(workspace, user, sub, await voiceSlotsOf(db, workspace.id)),
    is_new_user: user.isNewUser,
    can_use_delayed_payment_methods: false,
    is_onboarding_completed: user.isOnboardingCompleted,
    is_onboarding_checklist_completed: user.isOnboardingChecklistCompleted,
    first_name: user.firstName,
    is_api_key_hashed: true,
    xi_api_key_preview: key?.preview ?? null,
    referral_link_code: user.referralLinkCode,
    created_at: createdAt,
    created_at_unix: createdAt,
    seat_type: seatTypeOf(role),
    email: user.email,
    email_verified: user.emailVerifiedAt !== null,
    public_user_id: user.publicUserId,
    agrees_to_product_updates: user.agreesToProductUpdates,
    ccpa_opt_out: user.ccpaOptOut,
    geo_location: user.geoLocation ?? null,
    totp_mfa_factor: user.totpSecret ? { enabled: user.totpEnabledAt !== null } : null,
    sms_mfa_factor: null,
    has_backup_code: user.backupCodeHash !== null,
    moderation_warning_dismissed: user.moderationWarningDismissed,
    is_producer: user.isProducer,
    is_in_probation: user.isInProbation,
    accepted_bipa_terms: user.acceptedBipaTerms,
    locale: user.locale,
    session_inactivity_timeout: workspace.sessionInactivityTimeout,
    ...USER_FIELDS_NOT_YET_IN_USE,
    ...toUserOnboarding(user),
    terms_agreed_to: termsAgreedToOf(user.termsAgreedTo),
    feature_configs: {
      feedback_enabled: features.feedbackEnabled,
      tts_video_generation: features.ttsVideoGeneration,
    },
  };
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
  await deps.db.update(users).set(set).where(eq(users.id, user.id));
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
  if (Object.keys(set).length > 0) await db.update(users).set(set).where(eq(users.id, userId));
}

export async function dismissModerationWarning(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ moderationWarningDismissed: true }).where(eq(users.id, userId));
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
  await db
    .update(users)
    .set({ signupSource: source, isNewUser: false, ...(referredByCode ? { referredByCode } : {}) })
    .where(eq(users.id, userId));
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
  const [row] = await db
    .insert(userDevices)
    .values({ userId, fingerprintHash })
    .onConflictDoUpdate({
      target: [userDevices.userId, userDevices.fingerprintHash],
      set: { lastSeenAt: sql`now()` },
    })
    .returning({ firstSeenAt: userDevices.firstSeenAt, lastSeenAt: userDevices.lastSeenAt });
  return row !== undefined && row.firstSeenAt.getTime() === row.lastSeenAt.getTime();
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
    const [row] = await db
      .update(users)
      .set({ referralLinkCode: code })
      .where(and(eq(users.id, userId), isNull(users.referralLinkCode)))
      .returning({ code: users.referralLinkCode });
    if (row) await deps.events.publish(referralLinkCreated, { userId });
    code = row?.code ?? (await requireUser(db, userId)).referralLinkCode ?? code;
  }
  return `${publicUrl}/?via=${encodeURIComponent(code)}`;
}

/**
 * `DELETE /v1/user/delete` with a verified sensitive-action code: removes the account, its sign-ins,
 * keys and codes, and the workspaces it owns with their data, their history's audio files and share videos. A
 * workspace with other members must be handed over first, so nobody else loses their work. The user's
 * items in other workspaces stay (their user becomes null), and so do their files.
 */
export async function deleteUser(
  deps: AccountActionDeps & { storage: Storage },
  userId: string,
  sensitiveActionCode: string | undefined,
): Promise<void> {
  const user = await requireUser(deps.db, userId);
  // One transaction: the membership check, the code and the deletion stand or fall together.
  const { audioKeys, workspaceIds, voiceIds } = await deps.db.transaction(async (tx) => {
    // Locked, so no history item can be added to these workspaces between reading the keys and the cascade.
    const owned = await tx.select().from(workspaces).where(eq(workspaces.ownerId, user.id)).for('update');
    for (const workspace of owned) {
      const [other] = await tx
        .select({ userId: workspaceMembers.userId })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), ne(workspaceMembers.userId, user.id)))
        .limit(1);
      if (other) {
        throw new AppError(
          'conflict',
          `The workspace "${workspace.name}" has other members. Transfer its ownership or remove them first.`,
        );
      }
    }
    await requireSensitiveAction({ ...deps, db: tx }, user, sensitiveActionCode);
    const ownedIds = owned.map((workspace) => workspace.id);
    // History items go with their workspace (cascade); the files they point at do not.
    const doomed =
      ownedIds.length === 0
        ? []
        : await tx
            .select({ audioKey: historyItems.audioKey })
            .from(historyItems)
            .where(inArray(historyItems.workspaceId, ownedIds));
    const voiceIds = await retireWorkspaceVoices(tx, ownedIds);
    for (const id of ownedIds) await tx.delete(workspaces).where(eq(workspaces.id, id));
    await tx.delete(users).where(eq(users.id, user.id));
    return { audioKeys: doomed.map((row) => row.audioKey), workspaceIds: ownedIds, voiceIds };
  });
  // After the commit, so a failed deletion keeps every file. The account is gone either way: a file that
  // cannot be removed is logged, not reported to the user.
  for (const key of audioKeys) {
    try {
      await deps.storage.delete(key);
    } catch (error) {
      deps.logger.error({ err: error, key }, 'audio file of a deleted account could not be removed');
    }
  }
  for (const workspaceId of workspaceIds) {
    await deleteWorkspaceShareVideos(deps.storage, workspaceId).catch((error: unknown) =>
      deps.logger.error(
        { err: error, workspaceId },
        'share videos of a deleted account could not be removed',
      ),
    );
    await deleteWorkspaceVoiceFiles(deps.storage, workspaceId, voiceIds).catch((error: unknown) =>
      deps.logger.error({ err: error, workspaceId }, 'voice files of a deleted account could not be removed'),
    );
  }
}

import { z } from 'zod';
import { defineEvent } from './event-bus';

/*
 * The domain events, in one catalogue (issue 17 item 2). A module publishes and subscribes by importing
 * from here — never from the other module — so side effects never make two modules depend on each other.
 * The names are the ones webhooks will send. Published today:
 */

/** A generation began: its credits are reserved and its work started (onboarding's first steps). */
export const generationStarted = defineEvent(
  'generation.started',
  z.object({
    userId: z.string(),
    workspaceId: z.string(),
    kind: z.enum(['text_to_speech', 'dialogue', 'speech_to_speech', 'speech_to_text', 'dubbing', 'studio']),
  }),
);

/**
 * A generation finished and its credits were kept (metering: the history item written, or the work settled
 * with nothing kept): what it was, what it cost, and its history item when it has one.
 */
export const generationCompleted = defineEvent(
  'generation.completed',
  z.object({
    userId: z.string(),
    workspaceId: z.string(),
    kind: z.enum(['text_to_speech', 'dialogue', 'speech_to_speech', 'speech_to_text', 'dubbing', 'studio']),
    credits: z.number().int(),
    modelId: z.string(),
    historyItemId: z.string().nullable(),
  }),
);

/** A voice joined a workspace: an instant or professional clone, a designed voice, a library copy. */
export const voiceAdded = defineEvent(
  'voice.added',
  z.object({
    userId: z.string(),
    workspaceId: z.string(),
    voiceId: z.string(),
    source: z.enum(['instant_clone', 'professional_clone', 'design', 'library']),
  }),
);

/** A workspace's own voice was deleted (its samples and previews go; library copies of it stop working). */
export const voiceRemoved = defineEvent(
  'voice.removed',
  z.object({ userId: z.string(), workspaceId: z.string(), voiceId: z.string() }),
);

/** An API key was made (and shown, the one time it is). */
export const apiKeyCreated = defineEvent(
  'api_key.created',
  z.object({ userId: z.string(), workspaceId: z.string(), keyId: z.string() }),
);

/** A user's referral link was made, the first time they asked for it. */
export const referralLinkCreated = defineEvent('referral_link.created', z.object({ userId: z.string() }));

/** A spend took a workspace past 90% of its period's credits (credits.service LOW_CREDITS_SHARE). */
export const creditsRunningLow = defineEvent(
  'credits.running_low',
  z.object({ workspaceId: z.string(), ownerId: z.string(), limit: z.number(), used: z.number() }),
);

/** Invitations to a workspace went out by mail (accounts §3): invitees with an account are told too. */
export const workspaceInvitationsSent = defineEvent(
  'workspace.invitations_sent',
  z.object({
    workspaceId: z.string(),
    workspaceName: z.string(),
    inviter: z.string(),
    emails: z.array(z.string()),
  }),
);

/**
 * A workspace's credits start afresh (billing: a new plan, a renewal, the monthly refresh of free and
 * annual plans). Published in the transaction that makes it so; the modules that count per period reset
 * their counts in that same transaction (credits its balance, voices its add/edit count).
 */
export const creditPeriodStarted = defineEvent(
  'credits.period_started',
  z.object({ workspaceId: z.string(), atUnixMs: z.number() }),
);

/**
 * A member left a workspace or was removed (their seat, groups and shares there are gone): the modules that
 * keep what they held there end it in the same transaction (api-keys: their keys for it stop working).
 */
export const workspaceMemberRemoved = defineEvent(
  'workspace.member_removed',
  z.object({ workspaceId: z.string(), userId: z.string(), atUnixMs: z.number() }),
);

/**
 * A workspace's plan changed tier (billing: a checkout, an upgrade, a downgrade or cancellation that took
 * effect, the end of a plan); published in the transaction that changed it.
 */
export const subscriptionChanged = defineEvent(
  'subscription.changed',
  z.object({ workspaceId: z.string(), previousTier: z.string(), tier: z.string() }),
);

/** A renewal's charge failed: the subscription is past due, generation stops until it is paid. */
export const subscriptionPaymentFailed = defineEvent(
  'subscription.payment_failed',
  z.object({ workspaceId: z.string(), ownerId: z.string() }),
);

/**
 * A user deleted their account (accounts §3 "Delete user"): the user row and its sign-ins, keys and codes
 * are gone; the workspaces it owned each published `workspace.deleted` in the same transaction.
 */
export const userDeleted = defineEvent('user.deleted', z.object({ userId: z.string() }));

/**
 * A workspace was deleted with its rows (they cascade). The modules that keep files or rows outside the
 * cascade clean up after it: history its audio and share videos, voices its files and the library copies
 * other workspaces made of its voices. `voiceIds` are the workspace's own voices, read in the deleting
 * transaction (their rows are gone once it commits).
 */
export const workspaceDeleted = defineEvent(
  'workspace.deleted',
  z.object({ workspaceId: z.string(), ownerId: z.string(), voiceIds: z.array(z.string()) }),
);

/**
 * A transcription finished (speech to text, issue 19): `transcription` is the public API's transcript as
 * `GET /v1/speech-to-text/transcripts/{id}` answers it (snake_case wire shape), `webhookMetadata` what
 * the request passed as `webhook_metadata`. `webhook` is true when the request asked for delivery to the
 * workspace's webhooks (`webhook=true`, optionally one `webhookId`).
 */
export const transcriptionCompleted = defineEvent(
  'transcription.completed',
  z.object({
    workspaceId: z.string(),
    userId: z.string(),
    transcriptionId: z.string(),
    requestId: z.string(),
    webhook: z.boolean(),
    webhookId: z.string().nullable(),
    webhookMetadata: z.unknown().nullable(),
    transcription: z.record(z.string(), z.unknown()),
  }),
);

/** A transcription failed: `error` is the message its owner sees. */
export const transcriptionFailed = defineEvent(
  'transcription.failed',
  z.object({
    workspaceId: z.string(),
    userId: z.string(),
    transcriptionId: z.string(),
    requestId: z.string(),
    webhook: z.boolean(),
    webhookId: z.string().nullable(),
    webhookMetadata: z.unknown().nullable(),
    error: z.string(),
  }),
);

/**
 * A conversation with an agent ended and was kept (issue 28 item 5): `conversation` is what
 * `GET /v1/convai/conversations/{id}` answers, which the post-call webhook carries.
 */
export const conversationEnded = defineEvent(
  'conversation.ended',
  z.object({
    workspaceId: z.string(),
    agentId: z.string(),
    conversationId: z.string(),
    conversation: z.record(z.string(), z.unknown()),
    /** The webhook the workspace's Conversational AI settings send post-call events to; null: all subscribed. */
    postCallWebhookId: z.string().nullable().optional(),
  }),
);

/**
 * A webhook was switched off by the server after deliveries failed in a row (issue 19 item 5): its
 * workspace's admins (`adminIds`, read when it happened) are told under the bell.
 */
export const webhookAutoDisabled = defineEvent(
  'webhook.auto_disabled',
  z.object({
    workspaceId: z.string(),
    webhookId: z.string(),
    name: z.string(),
    failures: z.number().int(),
    adminIds: z.array(z.string()),
  }),
);

/** A dub was created (dubbing): the onboarding checklist's create_dub (accounts §4). */
export const dubCreated = defineEvent(
  'dub.created',
  z.object({ userId: z.string(), workspaceId: z.string(), dubbingId: z.string() }),
);

/**
 * A Studio conversion ended (issue 30): its snapshots, or why it failed. `callbackWebhookId` is the
 * workspace webhook whose address the project's callback_url is, which gets the public API's
 * project_conversion_status / chapter_conversion_status body (signed with that webhook's secret).
 */
export const studioConversionStatus = defineEvent(
  'studio.conversion_status',
  z.object({
    workspaceId: z.string(),
    projectId: z.string(),
    chapterId: z.string().nullable(),
    requestId: z.string(),
    conversionStatus: z.enum(['success', 'error']),
    projectSnapshotId: z.string().nullable(),
    chapterSnapshotId: z.string().nullable(),
    errorDetails: z.string().nullable(),
    callbackWebhookId: z.string().nullable(),
  }),
);

/** The catalogue's names a webhook may be told of (each is published; webhooks delivers those naming a workspace). */
export const WEBHOOK_EVENT_NAMES = [
  'generation.started',
  'generation.completed',
  'voice.added',
  'voice.removed',
  'api_key.created',
  'workspace.member_removed',
  'subscription.changed',
  'subscription.payment_failed',
  'credits.running_low',
  'user.deleted',
  'workspace.deleted',
  'transcription.completed',
  'transcription.failed',
  'conversation.ended',
  'studio.conversion_status',
] as const;

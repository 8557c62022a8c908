import { PREMADE_VOICES, tierLimits } from '@parla/contracts';
import type { Db } from '../../platform/db/client';
import { AppError, invalid } from '../../platform/errors';
import { voiceAdded } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import { newId } from '../../platform/ids';
import type { JobDefinition } from '../../platform/jobs/job-definition';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { Storage } from '../../platform/storage/storage';
import type { DenoiseProvider } from '../../providers/denoise/denoise-provider';
import { getOwnVoice, takeVoiceSlot, type VoiceCaller } from './own-voices.service';
import { baseVoiceFor, voiceNotFound } from './speaking-voice';
import type { ModelAvailability } from './voices.service';
import { countWorkspaceVoices, insertVoice, updateVoice, workspaceTier } from './voices.store';

/*
 * Professional voice clones (issue 7 item 3), over the same voices and samples as instant clones: create
 * an empty professional voice, add long samples, optionally separate their speakers (VAD + clustering,
 * a job) and select the owner's, prove the voice is the owner's by reading a captcha aloud (checked by
 * transcription and by how close the reader sounds to the samples), then train (a job that profiles the
 * selected speech of every sample). Until trained the voice cannot speak.
 *
 * This file holds what they share and the voice itself; samples, separation, verification and training
 * are in pvc-samples, pvc-separation, pvc-verification and pvc-training.service.ts.
 */

export interface PvcDeps {
  db: Db;
  storage: Storage;
  denoise: DenoiseProvider;
  queue: JobQueue;
  /** Which models a training may name (the external one only when configured). */
  models: ModelAvailability;
  separateJob: JobDefinition<PvcJobPayload>;
  trainJob: JobDefinition<PvcJobPayload>;
}

export interface PvcJobPayload {
  workspaceId: string;
  voiceId: string;
  sampleId?: string | undefined;
}

/** The rate a sample is decoded at for separation, training and previews. */
export const WORK_RATE = 16_000;

/**
 * One of the workspace's professional clones the caller may change (editor or more on it); 404 for other
 * voices and other workspaces.
 */
export async function getPvc(db: Db, caller: VoiceCaller, voiceId: string) {
  const found = await getOwnVoice(db, caller, voiceId, 'editor');
  if (found.row.category !== 'professional') throw voiceNotFound(voiceId);
  return found;
}

/** The plan allows a professional clone (from Creator) and has a professional slot left. */
async function assertProfessionalSlot(tx: Db, workspaceId: string): Promise<void> {
  const limits = tierLimits[(await workspaceTier(tx, workspaceId)) ?? 'free'];
  if (!limits.canUseProfessionalVoiceCloning)
    throw new AppError(
      'voice_cloning_not_allowed',
      'Professional voice cloning is available from the Creator plan. Upgrade to create a professional clone.',
    );
  if ((await countWorkspaceVoices(tx, workspaceId, 'professional')) >= limits.professionalVoiceLimit)
    throw new AppError(
      'voice_limit_reached',
      `Your plan allows ${limits.professionalVoiceLimit} professional voice clone${limits.professionalVoiceLimit === 1 ? '' : 's'}. Delete one or upgrade to add another.`,
    );
}

const languageOf = (language: string) => {
  const code = language.toLowerCase().slice(0, 2);
  return PREMADE_VOICES.some((v) => v.language === code) ? code : undefined;
};

const cleanLabels = (labels: Record<string, string | null | undefined> | null | undefined) =>
  Object.fromEntries(
    Object.entries(labels ?? {}).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
  );

/** `POST /v1/voices/pvc`. */
export async function createPvc(
  deps: { db: Db; events: EventBus },
  caller: VoiceCaller,
  body: {
    name: string;
    language: string;
    description?: string | null | undefined;
    labels?: Record<string, string | null | undefined> | null | undefined;
  },
): Promise<{ voice_id: string }> {
  const language = languageOf(body.language);
  if (!language) throw invalid('language', `Parla's engines do not speak the language "${body.language}".`);
  const labels = cleanLabels(body.labels);
  const id = newId();
  await deps.events.transaction(async (tx, events) => {
    // The workspace row's lock first, so two creates at once count the professional clones in turn.
    await takeVoiceSlot(tx, caller.workspaceId, 'add');
    await assertProfessionalSlot(tx, caller.workspaceId);
    await insertVoice(tx, {
      id,
      workspaceId: caller.workspaceId,
      ownerUserId: caller.userId,
      name: body.name,
      description: body.description ?? null,
      labels: { ...labels, language },
      category: 'professional',
      language,
      baseVoiceId: baseVoiceFor(null, language, labels.gender).voice_id,
      profile: null,
      fineTuningState: 'not_started',
      requiresVerification: true,
    });
    await events.publish(voiceAdded, {
      userId: caller.userId,
      workspaceId: caller.workspaceId,
      voiceId: id,
      source: 'professional_clone',
    });
  });
  return { voice_id: id };
}

/** `POST /v1/voices/pvc/{id}`: name, language, description, labels. */
export async function editPvc(
  db: Db,
  caller: VoiceCaller,
  voiceId: string,
  body: {
    name?: string | undefined;
    language?: string | undefined;
    description?: string | null | undefined;
    labels?: Record<string, string | null | undefined> | null | undefined;
  },
): Promise<{ voice_id: string }> {
  const { row } = await getPvc(db, caller, voiceId);
  const language = body.language === undefined ? row.language : languageOf(body.language);
  if (!language) throw invalid('language', `Parla's engines do not speak the language "${body.language}".`);
  const labels: Record<string, string> = body.labels
    ? { ...cleanLabels(body.labels), language }
    : { ...row.labels, language };
  await updateVoice(db, row.id, {
    name: body.name ?? row.name,
    description: body.description === undefined ? row.description : body.description,
    labels,
    language,
    baseVoiceId:
      language === row.language && !body.labels
        ? row.baseVoiceId
        : baseVoiceFor(row.profile?.pitch.medianHz ?? null, language, labels.gender).voice_id,
  });
  return { voice_id: row.id };
}

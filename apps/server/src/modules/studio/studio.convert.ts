import { type CharacterAlignment, encodeWav, parseWav, Resampler } from '@parla/audio';
import { type PronunciationRule, STUDIO_HEADING_PAUSE_MS, STUDIO_PARAGRAPH_PAUSE_MS } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { studioConversionStatus } from '../../platform/events/catalog';
import { newId } from '../../platform/ids';
import { withScratchDir } from '../../platform/scratch-dirs';
import { type Budget, openBudget, runMetered } from '../metering';
import { creditCost, prepareSpeech, renderSpeech, type SpeechPlan } from '../tts';
import { findWorkspaceWebhookAt } from '../webhooks';
import {
  CHAPTER_RATE,
  ChapterWriter,
  fileStream,
  finishChapter,
  snapshotAcxKey,
  snapshotWavKey,
} from './studio.audio';
import type { StudioDeps } from './studio.deps';
import { projectRules as pronunciationRulesOf } from './studio.dictionaries';
import {
  blockAlignmentKey,
  blockAudioKey,
  blockHash,
  blockModelOf,
  blockRules,
  projectFolder,
} from './studio.rules';
import {
  findProject,
  insertChapterSnapshot,
  insertProjectSnapshot,
  listBlocks,
  listChapterSnapshots,
  listChapters,
  setBlockHash,
  setConversionProgress,
  updateChapters,
  updateProject,
} from './studio.store';
import type { StudioBlockRow, StudioChapterRow, StudioProjectRow } from './studio.tables';

/*
 * A conversion (issue 30 item 2): every block of the chosen chapters spoken through text to speech's
 * pipeline (tts's `prepareSpeech` — the block's voice, its model or the project's, its settings, the
 * same checks as POST /v1/text-to-speech — and `renderSpeech`), charged through metering like text to
 * speech (the model's credits per character of what is spoken, one reservation for the conversion; each
 * block's share kept once its audio is stored, the rest refunded on failure), with the project's
 * pronunciation-dictionary rules that touch each block's text. A block whose hash (studio.rules.ts) has
 * audio in storage is not spoken again, and blocks of one run with the same hash are spoken (and charged)
 * once. Each chapter's audio is then the blocks in order with a pause after each (longer after a heading),
 * written to disk block by block, mastered for ACX when the project asks for normalisation, and stored as
 * mp3 with its WAV and ACX report (studio.audio.ts); the snapshots of the chapters and of the project are
 * recorded with the project back to `default` in the transaction that keeps the credits.
 */

/** Blocks spoken at once in a conversion. */
const BLOCKS_AT_ONCE = 2;

/** A run that found every concurrency slot of the plan taken: the job tries again later. */
export class ConversionDeferred extends Error {
  override name = 'ConversionDeferred';
}

export interface ConversionPayload {
  projectId: string;
  workspaceId: string;
  chapterIds: string[];
  scope: 'project' | 'chapter';
  userId: string;
  apiKeyId: string | null;
  requestId: string;
}

interface PlannedBlock {
  chapter: StudioChapterRow;
  block: StudioBlockRow;
  hash: string;
  /** The rules of the project's dictionaries that touch the block's text (studio.rules.ts blockRules). */
  rules: PronunciationRule[];
  /**
   * One plan per node; none when the block is not spoken by this run: its audio is already in storage, or
   * an earlier block of the run has the same hash (it is spoken there, once).
   */
  plans: SpeechPlan[] | null;
  /** What speaking it costs (its nodes' credits; 0 when it is not spoken). */
  credits: number;
  /** Its audio was in storage when the run was planned. */
  stored: boolean;
  /** The later blocks of the run with the same hash: they take this block's audio once it is spoken. */
  twins: PlannedBlock[];
}

const callerOf = (p: ConversionPayload): RequestCaller => ({
  userId: p.userId,
  workspaceId: p.workspaceId,
  apiKeyId: p.apiKeyId ?? undefined,
  requestId: p.requestId,
});

/** Every block of the chapters with its hash, and the speech plans of those not in storage. */
async function planBlocks(
  deps: StudioDeps,
  caller: RequestCaller,
  project: StudioProjectRow,
  chapters: StudioChapterRow[],
): Promise<PlannedBlock[]> {
  // Resolved once per conversion: a dictionary gone since it was set fails the conversion (its 404's words).
  const projectRules = await pronunciationRulesOf(deps, project);
  const planned: PlannedBlock[] = [];
  // Identical blocks (a refrain, a repeated heading: same text, voices, model, settings and touching rules)
  // are spoken and charged once per run; the later ones take the first one's audio.
  const firstOfHash = new Map<string, PlannedBlock>();
  for (const chapter of chapters) {
    for (const block of await listBlocks(deps.db, chapter.id)) {
      const rules = blockRules(block, projectRules);
      const hash = blockHash(project, block, projectRules);
      const first = firstOfHash.get(hash);
      if (first) {
        const twin = {
          chapter,
          block,
          hash,
          rules,
          plans: null,
          credits: 0,
          stored: first.stored,
          twins: [],
        };
        if (!first.stored) first.twins.push(twin);
        planned.push(twin);
        continue;
      }
      const stored = Boolean(await deps.storage.stat(blockAudioKey(project.workspaceId, project.id, hash)));
      let plans: SpeechPlan[] | null = null;
      if (!stored) {
        plans = [];
        for (const node of block.nodes) {
          if (!node.text.trim()) continue;
          plans.push(
            await prepareSpeech(deps.tts, caller, {
              voiceId: node.voice_id,
              // The block's rules, never the workspace's default list ([] is none).
              pronunciation: rules,
              body: {
                text: node.text,
                model_id: blockModelOf(project, block),
                voice_settings: block.voiceSettings ?? null,
                apply_text_normalization:
                  project.applyTextNormalization === 'apply_english' ? 'on' : project.applyTextNormalization,
              },
            }),
          );
        }
      }
      const credits = (plans ?? []).reduce((sum, plan) => sum + creditCost(plan.model, plan.text.length), 0);
      const item: PlannedBlock = { chapter, block, hash, rules, plans, credits, stored, twins: [] };
      firstOfHash.set(hash, item);
      planned.push(item);
    }
  }
  return planned;
}

/** Joins pieces of audio at the first one's rate (a block's nodes may be in voices of different engines). */
function joinAtRate(pieces: { sampleRate: number; samples: Int16Array }[]): {
  sampleRate: number;
  samples: Int16Array;
} {
  const rate = pieces[0]?.sampleRate ?? CHAPTER_RATE;
  const parts = pieces.map((p) => resampled(p.samples, p.sampleRate, rate));
  const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { sampleRate: rate, samples };
}

function resampled(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const resampler = new Resampler(from, to);
  const head = resampler.push(samples);
  const tail = resampler.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** Shifts an alignment by `offset` seconds and joins it to `into`. */
function appendAlignment(into: CharacterAlignment, piece: CharacterAlignment, offset: number): void {
  into.characters.push(...piece.characters);
  into.character_start_times_seconds.push(...piece.character_start_times_seconds.map((t) => t + offset));
  into.character_end_times_seconds.push(...piece.character_end_times_seconds.map((t) => t + offset));
}

/**
 * Speaks one block (its nodes in order) and keeps its audio and alignment under its hash, and keeps the
 * block's credits of the conversion's reservation (`settlePart`): audio kept in the block cache is audio paid
 * for, whatever happens to the rest of the conversion (a later block failing refunds only what was not
 * spoken; decision 25, "Studio projects"). When the credits cannot be kept (the reservation's lease ran out
 * and the sweep refunded it), the audio goes too.
 */
async function speakBlock(
  deps: StudioDeps,
  project: StudioProjectRow,
  item: PlannedBlock,
  signal: AbortSignal,
  budget: Budget | undefined,
): Promise<void> {
  const pieces: { sampleRate: number; samples: Int16Array }[] = [];
  const alignment: CharacterAlignment = {
    characters: [],
    character_start_times_seconds: [],
    character_end_times_seconds: [],
  };
  let offset = 0;
  for (const plan of item.plans ?? []) {
    signal.throwIfAborted();
    // The plan's request carries the block's rules (prepareSpeech put them on `pronunciation`).
    const speech = await renderSpeech(deps.tts.engines, plan.request, {
      tenant: project.workspaceId,
      signal,
    });
    pieces.push(speech);
    appendAlignment(alignment, speech.alignment, offset);
    offset += speech.samples.length / speech.sampleRate;
  }
  const audio = joinAtRate(pieces);
  const audioKey = blockAudioKey(project.workspaceId, project.id, item.hash);
  const alignmentKey = blockAlignmentKey(project.workspaceId, project.id, item.hash);
  await deps.storage.put(alignmentKey, Buffer.from(JSON.stringify(alignment)));
  // The audio last: its presence is what says the block is done (planBlocks checks it).
  await deps.storage.put(
    audioKey,
    encodeWav({ sampleRate: audio.sampleRate, channels: 1, samples: audio.samples }),
  );
  // Charged once stored, so a failed store charges nothing; a crash between the two leaves one block's
  // audio unpaid (the sweep refunds the reservation's rest), the price of never charging for lost audio.
  try {
    await budget?.settlePart(item.credits);
  } catch (error) {
    await deps.storage.delete(audioKey);
    await deps.storage.delete(alignmentKey);
    throw error;
  }
  await setBlockHash(deps.db, item.block.id, item.hash);
}

/**
 * A chapter's audio: its blocks in order, each followed by its pause, resampled to 44.1 kHz and written
 * to a WAV file as they are read (studio.audio.ts), mastered when the project asks for volume
 * normalisation, encoded to the snapshot's mp3; the mp3, the WAV and the ACX report go to storage from
 * their files. Returns the chapter's duration and alignment (shifted by the head's room tone if any).
 */
async function assembleChapter(
  deps: StudioDeps,
  project: StudioProjectRow,
  blocks: PlannedBlock[],
  key: string,
): Promise<{ durationSecs: number; alignment: CharacterAlignment }> {
  return withScratchDir('studio-chapter-', async (dir) => {
    const raw = await ChapterWriter.create(dir);
    const alignment: CharacterAlignment = {
      characters: [],
      character_start_times_seconds: [],
      character_end_times_seconds: [],
    };
    for (const item of blocks) {
      const wav = await deps.storage.get(blockAudioKey(project.workspaceId, project.id, item.hash));
      if (!wav) throw new Error(`block ${item.block.id} has no audio in storage`);
      const audio = parseWav(wav);
      const samples = resampled(audio.samples, audio.sampleRate, CHAPTER_RATE);
      const json = await deps.storage.get(blockAlignmentKey(project.workspaceId, project.id, item.hash));
      if (json)
        appendAlignment(
          alignment,
          JSON.parse(json.toString('utf8')) as CharacterAlignment,
          raw.sampleCount / CHAPTER_RATE,
        );
      await raw.write(samples);
      const pauseMs = item.block.subType === 'p' ? STUDIO_PARAGRAPH_PAUSE_MS : STUDIO_HEADING_PAUSE_MS;
      await raw.write(new Int16Array(Math.round((CHAPTER_RATE * pauseMs) / 1000)));
    }
    if (raw.sampleCount === 0) await raw.write(new Int16Array(CHAPTER_RATE / 10));
    const done = await finishChapter(dir, raw, {
      normalize: project.volumeNormalization || project.acxVolumeNormalization,
      preset: project.qualityPreset,
    });
    await deps.storage.put(snapshotWavKey(key), fileStream(done.wavFile));
    await deps.storage.put(snapshotAcxKey(key), Buffer.from(JSON.stringify(done.report)));
    // The mp3 last: the snapshot row that names it is written after every chapter is in storage.
    await deps.storage.put(key, fileStream(done.mp3File));
    const shifted: CharacterAlignment = {
      characters: [],
      character_start_times_seconds: [],
      character_end_times_seconds: [],
    };
    appendAlignment(shifted, alignment, done.offsetSecs);
    return { durationSecs: done.durationSecs, alignment: shifted };
  });
}

/** Runs a conversion to the end; returns when it is done, failed, or the project is gone. */
export async function runConversion(
  deps: StudioDeps,
  payload: ConversionPayload,
  job: { signal: AbortSignal; lastAttempt: boolean; progress(value: number): Promise<void> },
): Promise<void> {
  const project = await findProject(deps.db, payload.workspaceId, payload.projectId);
  // Deleted before this run (perhaps while an earlier one, stopped, was writing): nothing of it may stay.
  if (!project) return removeProjectFiles(deps, payload.workspaceId, payload.projectId);
  if (project.state !== 'converting') return;
  const caller = callerOf(payload);
  const chapters = (await listChapters(deps.db, project.id)).filter((c) => payload.chapterIds.includes(c.id));
  let planned: PlannedBlock[];
  try {
    planned = await planBlocks(deps, caller, project, chapters);
  } catch (error) {
    await failConversion(deps, payload, project, chapters, error);
    return;
  }
  const todo = planned.filter((p) => p.plans !== null);
  const credits = todo.reduce((sum, p) => sum + p.credits, 0);
  let budget: Budget | undefined;
  if (credits > 0) {
    try {
      budget = await openBudget(deps.tts, caller, {
        kind: 'studio',
        credits,
        modelId: project.defaultModelId,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'too_many_concurrent_requests' && !job.lastAttempt)
        throw new ConversionDeferred('every concurrency slot of the plan is taken; trying again later');
      await failConversion(deps, payload, project, chapters, error);
      return;
    }
  }
  const work = async (cancel: AbortSignal) => {
    const signal = AbortSignal.any([cancel, job.signal]);
    // Progress: speaking is most of the work; each chapter's assembly the rest.
    const steps = todo.length + chapters.length;
    let done = 0;
    const step = async (touched: Iterable<StudioChapterRow>) => {
      done += 1;
      await job.progress(done / steps);
      for (const chapter of touched) {
        const ofChapter = planned.filter((p) => p.chapter.id === chapter.id);
        const left = ofChapter.filter((p) => !p.stored && !spoken.has(p.block.id)).length;
        await setConversionProgress(
          deps.db,
          chapter.id,
          ofChapter.length === 0 ? 1 : 0.9 * (1 - left / ofChapter.length),
        );
      }
    };
    const spoken = new Set<string>();
    // Reused audio (an edit undone, a block copied): the block is converted again without a word spoken.
    for (const item of planned)
      if (item.stored && item.block.convertedHash !== item.hash)
        await setBlockHash(deps.db, item.block.id, item.hash);
    // Two blocks at a time: each block's sentences already fill the pool, but a block's last sentence
    // would leave the other engine child idle until the next block starts (a paragraph is 3–7 sentences).
    const failed = new AbortController();
    const speaking = AbortSignal.any([signal, failed.signal]);
    let next = 0;
    let failure: { error: unknown } | undefined;
    // Every speaker has stopped before the run goes on or fails: no block is still being written when
    // the conversion is failed, its credits refunded, or a deleted project's folder removed.
    await Promise.all(
      Array.from({ length: Math.min(BLOCKS_AT_ONCE, todo.length) }, async () => {
        while (next < todo.length && !failure) {
          const item = todo[next++] as PlannedBlock;
          try {
            await speakBlock(deps, project, item, speaking, budget);
            spoken.add(item.block.id);
            for (const twin of item.twins) {
              await setBlockHash(deps.db, twin.block.id, twin.hash);
              spoken.add(twin.block.id);
            }
            await assertStillConverting(deps, payload);
            await step(new Set([item.chapter, ...item.twins.map((twin) => twin.chapter)]));
          } catch (error) {
            failure ??= { error };
            failed.abort(error);
          }
        }
      }),
    );
    if (failure) throw failure.error;
    const now = deps.clock.now();
    const snapshots: {
      id: string;
      chapter: StudioChapterRow;
      key: string;
      durationSecs: number;
      alignment: CharacterAlignment;
    }[] = [];
    for (const chapter of chapters) {
      signal.throwIfAborted();
      await assertStillConverting(deps, payload);
      const id = newId();
      const key = `${projectFolder(project.workspaceId, project.id)}snapshots/${id}.mp3`;
      const made = await assembleChapter(
        deps,
        project,
        planned.filter((p) => p.chapter.id === chapter.id),
        key,
      );
      snapshots.push({ id, chapter, key, ...made });
      await step([]);
    }
    const projectSnapshotId = newId();
    const callbackWebhookId = await callbackWebhookOf(deps, project);
    await deps.events.transaction(async (tx, events) => {
      assertConverting(payload, await findProject(tx, project.workspaceId, project.id, true));
      for (const s of snapshots)
        await insertChapterSnapshot(tx, {
          id: s.id,
          projectId: project.id,
          chapterId: s.chapter.id,
          workspaceId: project.workspaceId,
          name: `${s.chapter.name} — ${now.toISOString()}`,
          audioKey: s.key,
          durationSecs: s.durationSecs,
          alignments: [s.alignment],
          createdAt: now,
        });
      // The project's snapshot: every chapter's newest audio, in the chapters' order — this run's for the
      // chapters it converted, the last one kept for the others (a review found a chapter's conversion made
      // the project's latest snapshot that chapter alone, which Audio Native then played as the article).
      const book: { id: string; durationSecs: number }[] = [];
      for (const chapter of await listChapters(tx, project.id)) {
        const fresh = snapshots.find((s) => s.chapter.id === chapter.id);
        const [kept] = fresh ? [] : await listChapterSnapshots(tx, chapter.id);
        const newest = fresh ?? kept;
        if (newest) book.push({ id: newest.id, durationSecs: newest.durationSecs });
      }
      await insertProjectSnapshot(tx, {
        id: projectSnapshotId,
        projectId: project.id,
        workspaceId: project.workspaceId,
        name: `${project.name} — ${now.toISOString()}`,
        chapterSnapshotIds: book.map((s) => s.id),
        durationSecs: book.reduce((sum, s) => sum + s.durationSecs, 0),
        createdAt: now,
      });
      await updateChapters(
        tx,
        chapters.map((c) => c.id),
        {
          state: 'default',
          conversionProgress: 1,
          lastConversionAt: now,
          lastConversionError: null,
        },
      );
      await updateProject(tx, project.id, {
        state: 'default',
        convertingChapterIds: [],
        latestSnapshotId: projectSnapshotId,
        lastConversionAt: now,
      });
      if (budget) await budget.settleIn(tx);
      for (const status of statusEvents(payload, { projectSnapshotId, snapshots, callbackWebhookId }))
        await events.publish(studioConversionStatus, status);
    });
    if (budget) await budget.completed(null);
  };
  try {
    if (budget) await runMetered(budget, work, (error) => error);
    else await work(new AbortController().signal);
  } catch (error) {
    // The worker stopping (or losing the job's lease): refunded; the job runs again and resumes.
    if (job.signal.aborted) throw error;
    // Deleted while it converted: what was not spoken was refunded; what this run wrote is removed (the
    // delete removed the folder, but blocks were stored after it). Nobody is left to tell.
    if (!(await findProject(deps.db, project.workspaceId, project.id)))
      return removeProjectFiles(deps, project.workspaceId, project.id);
    // Ended elsewhere (its job given up as exhausted while this run, which had lost it, still spoke): the
    // user was told then; this run neither records its audio as the conversion's nor fails it twice.
    if (error instanceof ConversionEnded) return;
    await failConversion(deps, payload, project, chapters, error);
  }
}

/** A conversion's project was deleted while it ran. */
class ProjectDeleted extends AppError {
  constructor() {
    super('resource_not_found', 'The project was deleted.');
  }
}

/** A conversion ended by someone else while this run went on (abandonConversion, or a newer conversion). */
class ConversionEnded extends Error {
  override name = 'ConversionEnded';
}

/** The project still converting exactly what this run converts (else ProjectDeleted or ConversionEnded). */
function assertConverting(payload: ConversionPayload, project: StudioProjectRow | undefined): void {
  if (!project) throw new ProjectDeleted();
  if (project.state !== 'converting' || !sameIds(project.convertingChapterIds, payload.chapterIds))
    throw new ConversionEnded('the conversion was ended while this run went on');
}

/** Stops the run once its project is gone or its conversion ended (after each block, before each chapter). */
async function assertStillConverting(deps: StudioDeps, payload: ConversionPayload): Promise<void> {
  assertConverting(payload, await findProject(deps.db, payload.workspaceId, payload.projectId));
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** Every file of a deleted project (its blocks and snapshots). */
async function removeProjectFiles(deps: StudioDeps, workspaceId: string, projectId: string): Promise<void> {
  for (const key of await deps.storage.list(projectFolder(workspaceId, projectId)))
    await deps.storage.delete(key);
}

/**
 * A conversion whose job failed for good (the job worker's `onExhausted`: its last attempt threw, or the
 * process running it died during it): without this the project stayed `converting` forever, refusing every
 * edit and every new conversion. The project and the chapters it converted go back to `default` with the
 * error the user sees, and the conversion's status is told as for any failure. The credits need nothing
 * here: an attempt that threw refunded what it had not spoken (runMetered); a dead process's reservation is
 * refunded by the sweep once its lease runs out; the blocks stored were paid for as they were stored.
 */
export async function abandonConversion(
  deps: StudioDeps,
  payload: ConversionPayload,
  failure: { error: string },
): Promise<void> {
  const project = await findProject(deps.db, payload.workspaceId, payload.projectId);
  // Only this conversion's state: a project already back to `default`, or gone, is left as it is.
  if (project?.state !== 'converting' || !sameIds(project.convertingChapterIds, payload.chapterIds)) return;
  const chapters = (await listChapters(deps.db, project.id)).filter((c) => payload.chapterIds.includes(c.id));
  await failConversion(deps, payload, project, chapters, new Error(failure.error));
}

/** Ends a conversion that failed: the project and its chapters back to `default`, the reason kept. */
async function failConversion(
  deps: StudioDeps,
  payload: ConversionPayload,
  project: StudioProjectRow,
  chapters: StudioChapterRow[],
  error: unknown,
): Promise<void> {
  const message =
    error instanceof AppError
      ? error.message
      : 'The conversion failed on the server. Only the blocks already spoken were charged; converting again speaks the rest.';
  if (!(error instanceof AppError))
    deps.logger.error({ err: error, projectId: project.id }, 'studio conversion failed');
  await updateChapters(
    deps.db,
    chapters.map((c) => c.id),
    {
      state: 'default',
      conversionProgress: null,
      lastConversionError: message,
    },
  );
  await updateProject(deps.db, project.id, { state: 'default', convertingChapterIds: [] });
  const callbackWebhookId = await callbackWebhookOf(deps, project);
  for (const status of statusEvents(payload, { error: message, callbackWebhookId }))
    await deps.events.publish(studioConversionStatus, status);
}

/** The workspace webhook the project's callback_url names (still there and active), or null. */
async function callbackWebhookOf(deps: StudioDeps, project: StudioProjectRow): Promise<string | null> {
  if (!project.callbackUrl) return null;
  return (await findWorkspaceWebhookAt(deps, project.workspaceId, project.callbackUrl)) ?? null;
}

/** The `studio.conversion_status` events of a conversion: one for a project, one per chapter asked for. */
function statusEvents(
  payload: ConversionPayload,
  outcome: {
    projectSnapshotId?: string;
    snapshots?: { id: string; chapter: { id: string } }[];
    error?: string;
    callbackWebhookId: string | null;
  },
) {
  const common = {
    workspaceId: payload.workspaceId,
    projectId: payload.projectId,
    requestId: payload.requestId,
    conversionStatus: outcome.error === undefined ? ('success' as const) : ('error' as const),
    errorDetails: outcome.error ?? null,
    callbackWebhookId: outcome.callbackWebhookId,
  };
  if (payload.scope === 'project')
    return [
      {
        ...common,
        chapterId: null,
        projectSnapshotId: outcome.projectSnapshotId ?? null,
        chapterSnapshotId: null,
      },
    ];
  return payload.chapterIds.map((chapterId) => ({
    ...common,
    chapterId,
    projectSnapshotId: null,
    chapterSnapshotId: outcome.snapshots?.find((s) => s.chapter.id === chapterId)?.id ?? null,
  }));
}

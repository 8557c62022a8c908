import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { findSttLanguage, type RenderType } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { withScratchDir } from '../../platform/scratch-dirs';
import { type Budget, openBudget, runMetered } from '../metering';
import { renderSpeech } from '../tts';
import { parseSegmentsCsv } from './dubbing.csv';
import type { DubbingDeps } from './dubbing.deps';
import { dubFolder } from './dubbing.files';
import { sourceModelFor } from './dubbing.languages';
import { decodeWav, encodeWav, extractSpeech, fitClip, renderLanguage } from './dubbing.media';
import { maskProfanity } from './dubbing.profanity';
import { cutSegments } from './dubbing.segments';
import {
  ensureSegmentLanguages,
  findDub,
  insertRender,
  insertSegments,
  insertSpeakers,
  latestOutput,
  listSegmentLanguages,
  listSegments,
  listSpeakers,
  updateDub,
  updateSegmentLanguage,
  updateSpeaker,
} from './dubbing.store';
import type { DubRow } from './dubbing.tables';
import { speakerProfile, voiceFor } from './dubbing.voices';

/*
 * The dub's job (issue 29 "the pipeline"): a job with stages, progress, and resume after a crash. Each
 * stage keeps its result in the dub's rows before the next starts — the segments and speakers, each
 * segment's translation, each clip in storage — so a run after a crash starts at the first thing not done
 * and never does finished work twice. Credits: reserved when a run starts (the plan's concurrency slot
 * with them), settled with the dub marked dubbed, refunded on failure; a crash's reservation is refunded by
 * the lease sweep and the next run reserves again, so a dub is charged once.
 */

/** The metering model id of a dub (the usage chart's group). */
export const DUBBING_MODEL_ID = 'parla_dubbing_v1';

/** A run that found every concurrency slot of the plan taken: the job tries again later. */
export class DubDeferred extends Error {
  override name = 'DubDeferred';
}

/** The caller a dub's work runs as: its creator in its workspace. */
export function callerOfDub(dub: DubRow): RequestCaller {
  return {
    userId: dub.userId ?? '',
    workspaceId: dub.workspaceId,
    apiKeyId: dub.apiKeyId ?? undefined,
    requestId: dub.requestId,
  };
}

/** Where the stages' share of the progress bar starts. */
const STAGE_START = {
  preparing: 0,
  transcribing: 0.03,
  translating: 0.3,
  speaking: 0.35,
  mixing: 0.9,
} as const;

/** A progress writer that writes at most every half second (and always at a stage change). */
function progressOf(deps: Pick<DubbingDeps, 'db'>, dubId: string, report: (value: number) => Promise<void>) {
  let last = 0;
  return async (
    stage: keyof typeof STAGE_START,
    share: number,
    message: string,
    force = false,
  ): Promise<void> => {
    const now = Date.now();
    if (!force && now - last < 500) return;
    last = now;
    const stages = Object.keys(STAGE_START) as (keyof typeof STAGE_START)[];
    const next = stages[stages.indexOf(stage) + 1];
    const end = next ? STAGE_START[next] : 0.99;
    const value = STAGE_START[stage] + (end - STAGE_START[stage]) * Math.min(1, Math.max(0, share));
    await updateDub(deps.db, dubId, { stage, progress: value, progressMessage: message });
    await report(value).catch(() => undefined);
  };
}

/** Fetches the dub's stored source to a scratch file. */
export async function sourceFile(
  deps: Pick<DubbingDeps, 'storage'>,
  dub: DubRow,
  dir: string,
): Promise<string> {
  const file = path.join(dir, path.basename(dub.input.key));
  const stream = await deps.storage.stream(dub.input.key);
  if (!stream) throw new AppError('resource_not_found', 'The source of this dub is gone.');
  await pipeline(stream, createWriteStream(file, { mode: 0o600 }));
  return file;
}

/** Stage 1: the segments and speakers (from the CSV in manual mode, else from the transcript). */
async function findSegments(
  deps: DubbingDeps,
  dub: DubRow,
  files: { source: string; speech: string },
  signal: AbortSignal,
  progress: ReturnType<typeof progressOf>,
): Promise<void> {
  const speech = await decodeWav(files.speech);
  let cut: {
    speaker: string;
    start: number;
    end: number;
    text: string;
    words: { text: string; start: number; end: number }[];
  }[];
  let translations: Record<string, Record<number, string>> = {};
  let language = dub.sourceLanguage;
  if (dub.options.mode === 'manual' && dub.csvKey) {
    const csv = await deps.storage.get(dub.csvKey);
    if (!csv) throw new AppError('resource_not_found', 'The CSV of this dub is gone.');
    const parsed = parseSegmentsCsv(csv.toString('utf8'), dub.targetLanguages[0] ?? '');
    cut = parsed.segments;
    translations = parsed.translations;
  } else {
    const model = sourceModelFor(deps, dub.sourceLanguage ?? undefined);
    if (!model)
      throw new AppError(
        'unsupported_language',
        `Parla cannot transcribe ${dub.sourceLanguage} on this installation.`,
      );
    await progress('transcribing', 0, 'Transcribing the source', true);
    const heard = await deps.stt.transcribeFile({
      file: files.speech,
      model,
      timestamps: 'word',
      tenant: dub.workspaceId,
      signal,
      ...(dub.sourceLanguage ? { language: dub.sourceLanguage } : {}),
      diarize: dub.options.numSpeakers > 0 ? { numSpeakers: dub.options.numSpeakers } : {},
      onProgress: (f) =>
        void progress('transcribing', f * 0.9, 'Transcribing the source').catch(() => undefined),
    });
    language ??= toIso1(heard.languageCode);
    cut = cutSegments(heard.segments);
  }
  if (cut.length === 0) throw new AppError('bad_request', 'No speech was found in the source to dub.');
  if (language && dub.targetLanguages.includes(language))
    throw new AppError(
      'bad_request',
      `The source is already in ${language}: choose another target language.`,
    );
  await progress('transcribing', 0.95, 'Matching voices to speakers', true);
  const names = [...new Set(cut.map((s) => s.speaker))];
  const speakers = names.map((name, position) => ({
    id: newId(),
    dubId: dub.id,
    position,
    name: `Speaker ${position + 1}`,
    profile: speakerProfile(
      speech,
      cut.filter((s) => s.speaker === name),
    ),
    voices: {},
    matched: {},
    tuning: {},
  }));
  const idOf = new Map(names.map((name, i) => [name, speakers[i]?.id ?? '']));
  const segments = cut.map((s) => ({
    id: newId(),
    dubId: dub.id,
    speakerId: idOf.get(s.speaker) ?? '',
    startTime: s.start,
    endTime: s.end,
    text: dub.options.useProfanityFilter ? maskProfanity(s.text) : s.text,
    words: s.words,
  }));
  await deps.db.transaction(async (tx) => {
    await insertSpeakers(tx, speakers);
    await insertSegments(tx, segments);
    await ensureSegmentLanguages(
      tx,
      dub.targetLanguages.flatMap((lang) =>
        segments.map((s, i) => ({
          segmentId: s.id,
          dubId: dub.id,
          language: lang,
          text: translations[lang]?.[i] ?? null,
          startTime: s.startTime,
          endTime: s.endTime,
        })),
      ),
    );
    await updateDub(tx, dub.id, { sourceLanguage: language ?? 'en', stage: 'translating' });
  });
}

/** ISO 639-3 (what the recogniser reports) → the 639-1 code dubbing uses (the speech-to-text language list). */
function toIso1(code: string): string {
  return findSttLanguage(code)?.iso1 ?? (code.length === 2 ? code : 'en');
}

/** Stage 2: translates every segment not translated yet into `languages` (all targets by default). */
export async function translateMissing(
  deps: DubbingDeps,
  dub: DubRow,
  signal: AbortSignal,
  only?: { segmentIds?: string[]; languages?: string[]; force?: boolean },
): Promise<void> {
  const source = dub.sourceLanguage ?? 'en';
  const segments = await listSegments(deps.db, dub.id);
  const rows = await listSegmentLanguages(deps.db, dub.id);
  const textOf = new Map(segments.map((s) => [s.id, s.text]));
  for (const language of only?.languages ?? dub.targetLanguages) {
    const todo = rows.filter(
      (r) =>
        r.language === language &&
        (only?.force || r.text === null) &&
        (!only?.segmentIds || only.segmentIds.includes(r.segmentId)),
    );
    if (todo.length === 0) continue;
    const { texts } = await deps.translation.translate({
      texts: todo.map((r) => textOf.get(r.segmentId) ?? ''),
      source,
      target: language,
      signal,
    });
    await deps.db.transaction(async (tx) => {
      for (const [i, row] of todo.entries()) {
        const text = texts[i] ?? '';
        await updateSegmentLanguage(tx, row.segmentId, language, {
          text: dub.options.useProfanityFilter ? maskProfanity(text) : text,
          audioStale: true,
        });
      }
    });
  }
}

/** Stage 3: speaks every segment whose clip is missing or stale (in `only`'s segments and languages). */
export async function speakMissing(
  deps: DubbingDeps,
  dub: DubRow,
  signal: AbortSignal,
  onProgress: (done: number, total: number) => Promise<void> = async () => undefined,
  only?: { segmentIds?: string[]; languages?: string[] },
): Promise<number> {
  const caller = callerOfDub(dub);
  const speakers = await listSpeakers(deps.db, dub.id);
  const segments = await listSegments(deps.db, dub.id);
  const rows = await listSegmentLanguages(deps.db, dub.id);
  const languages = only?.languages ?? dub.targetLanguages;
  const todo = rows.filter(
    (r) =>
      languages.includes(r.language) &&
      (r.audioKey === null || r.audioStale) &&
      (!only?.segmentIds || only.segmentIds.includes(r.segmentId)),
  );
  const segmentOf = new Map(segments.map((s) => [s.id, s]));
  const voices = new Map<string, Awaited<ReturnType<typeof voiceFor>>>();
  let done = 0;
  for (const row of todo) {
    signal.throwIfAborted();
    const segment = segmentOf.get(row.segmentId);
    const speaker = speakers.find((s) => s.id === segment?.speakerId) ?? speakers[0];
    if (!segment || !speaker) continue;
    const key = `${speaker.id}:${row.language}`;
    let voice = voices.get(key);
    if (!voice) {
      voice = await voiceFor(deps, caller, speaker, row.language, dub.options.disableVoiceCloning);
      voices.set(key, voice);
      if (speaker.matched[row.language] !== voice.voiceId) {
        speaker.matched = { ...speaker.matched, [row.language]: voice.voiceId };
        await updateSpeaker(deps.db, dub.id, speaker.id, { matched: speaker.matched });
      }
    }
    const text = (row.text ?? '').trim();
    const clipKey = `${dubFolder(dub.workspaceId, dub.id)}clips/${row.segmentId}-${row.language}.wav`;
    if (!text) {
      await updateSegmentLanguage(deps.db, row.segmentId, row.language, {
        audioKey: null,
        audioStale: false,
      });
      continue;
    }
    const speech = await renderSpeech(
      deps.engines,
      {
        text,
        voice: voice.rendition,
        settings: {
          speed: 1,
          stability: speaker.tuning.stability ?? 0.5,
          style: speaker.tuning.style ?? 0,
          useSpeakerBoost: true,
        },
        normalize: row.language === 'en',
        timbre: voice.timbre,
      },
      { tenant: dub.workspaceId, signal },
    );
    const slot = Math.max(0.2, row.endTime - row.startTime);
    const fitted = await fitClip(speech, slot);
    await deps.storage.put(clipKey, encodeWav(fitted.pcm, fitted.sampleRate));
    await updateSegmentLanguage(deps.db, row.segmentId, row.language, {
      audioKey: clipKey,
      audioStale: false,
      tempo: fitted.tempo,
      overflowSec: fitted.overflowSec,
    });
    done += 1;
    await onProgress(done, todo.length);
  }
  return done;
}

/** Stage 4 (and the editor's renders): one language of the dub as a file of `type`, stored. */
export async function renderToStorage(
  deps: DubbingDeps,
  dub: DubRow,
  language: string,
  type: RenderType,
  key: string,
  signal: AbortSignal,
): Promise<{ contentType: string; durationSec: number }> {
  return withScratchDir('dub-render-', async (dir) => {
    const source = await sourceFile(deps, dub, dir);
    const speakers = await listSpeakers(deps.db, dub.id);
    const segments = await listSegments(deps.db, dub.id);
    const rows = (await listSegmentLanguages(deps.db, dub.id)).filter((r) => r.language === language);
    const speakerOf = new Map(segments.map((s) => [s.id, s.speakerId]));
    const clips: { startSec: number; file: string; speaker: string; segmentId: string }[] = [];
    for (const row of rows) {
      if (!row.audioKey) continue;
      const file = path.join(dir, `clip-${row.segmentId}.wav`);
      const data = await deps.storage.get(row.audioKey);
      if (!data) continue;
      await fs.writeFile(file, data);
      const speakerId = speakerOf.get(row.segmentId) ?? '';
      clips.push({
        startSec: row.startTime,
        file,
        speaker: speakers.find((s) => s.id === speakerId)?.name ?? 'Speaker',
        segmentId: row.segmentId,
      });
    }
    const out = path.join(dir, `render-${type}`);
    const made = await renderLanguage({
      source,
      isVideo: dub.input.kind === 'video',
      durationSec: dub.input.durationSec,
      clips,
      drop: dub.options.dropBackgroundAudio,
      watermark: dub.options.watermark,
      type,
      out,
    });
    signal.throwIfAborted();
    await deps.storage.put(key, createReadStream(made.file));
    return { contentType: made.contentType, durationSec: made.durationSec };
  });
}

/** The default output of a language: the video with the new track for a video, mp3 for audio. */
export const defaultOutputType = (dub: DubRow): RenderType => (dub.input.kind === 'video' ? 'mp4' : 'mp3');

/** Runs a dub to the end from wherever it stands. Returns when it is dubbed, failed, or gone. */
export async function runDub(
  deps: DubbingDeps,
  payload: { dubId: string; workspaceId: string },
  job: { signal: AbortSignal; lastAttempt: boolean; progress(value: number): Promise<void> },
): Promise<void> {
  const first = await findDub(deps.db, payload.workspaceId, payload.dubId);
  if (first?.status !== 'dubbing') return;
  const caller = callerOfDub(first);
  let budget: Budget;
  try {
    budget = await openBudget(deps, caller, {
      kind: 'dubbing',
      credits: first.credits,
      modelId: DUBBING_MODEL_ID,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'too_many_concurrent_requests' && !job.lastAttempt)
      throw new DubDeferred('every concurrency slot of the plan is taken; trying again later');
    await failDub(deps, first, error);
    return;
  }
  const progress = progressOf(deps, first.id, job.progress);
  try {
    await runMetered(
      budget,
      async (cancel) => {
        const signal = AbortSignal.any([cancel, job.signal]);
        await withScratchDir('dub-', async (dir) => {
          let dub = first;
          const source = await sourceFile(deps, dub, dir);
          await progress('preparing', 0.5, 'Preparing the source', true);
          const speech = path.join(dir, 'speech.wav');
          await extractSpeech(source, speech);
          if ((await listSegments(deps.db, dub.id)).length === 0) {
            await findSegments(deps, dub, { source, speech }, signal, progress);
          }
          dub = (await findDub(deps.db, dub.workspaceId, dub.id)) ?? dub;
          await progress('translating', 0, 'Translating', true);
          await translateMissing(deps, dub, signal);
          await progress('speaking', 0, 'Speaking the translation', true);
          await speakMissing(deps, dub, signal, (done, total) =>
            progress('speaking', done / total, `Speaking segment ${done} of ${total}`),
          );
          await progress('mixing', 0, 'Mixing and rendering', true);
          for (const [i, language] of dub.targetLanguages.entries()) {
            const type = defaultOutputType(dub);
            // Rendered already by a run that stopped after it (a crash in this stage): not made twice.
            const made = await latestOutput(deps.db, dub.id, language, type);
            if (made?.automatic && made.version === dub.version) continue;
            const id = newId();
            const key = `${dubFolder(dub.workspaceId, dub.id)}renders/${id}.${type}`;
            const output = await renderToStorage(deps, dub, language, type, key, signal);
            await insertRender(deps.db, {
              id,
              dubId: dub.id,
              language,
              type,
              status: 'complete',
              automatic: true,
              version: dub.version,
              key,
              contentType: output.contentType,
              durationSec: output.durationSec,
            });
            await progress('mixing', (i + 1) / dub.targetLanguages.length, 'Mixing and rendering', true);
          }
          // Finished once: the status moves from dubbing to dubbed in the transaction that keeps the credits.
          await deps.db.transaction(async (tx) => {
            const now = await findDub(tx, dub.workspaceId, dub.id);
            if (now?.status !== 'dubbing') throw new AppError('resource_not_found', 'The dub was deleted.');
            await updateDub(tx, dub.id, {
              status: 'dubbed',
              stage: 'done',
              progress: 1,
              progressMessage: 'Dubbed',
              completedAt: deps.clock.now(),
            });
            await budget.settleIn(tx);
          });
          await budget.completed(null);
        });
      },
      (error) => error,
    );
  } catch (error) {
    // The worker stopping (or losing the job's lease): refunded; the job runs again and resumes.
    if (job.signal.aborted) throw error;
    const now = await findDub(deps.db, first.workspaceId, first.id);
    if (!now) return;
    await failDub(deps, now, error);
  }
}

/**
 * The dub's job gave up (its last attempt failed, or its process died during it: jobs' `onExhausted`): a dub
 * still `dubbing` is failed, so it does not stay "dubbing" for ever. Its credits were reserved by the run
 * that died, and that reservation is refunded when its lease runs out (metering's lease sweep).
 */
export async function abandonDub(deps: DubbingDeps, payload: { dubId: string; workspaceId: string }) {
  const dub = await findDub(deps.db, payload.workspaceId, payload.dubId);
  if (dub?.status === 'dubbing') await failDub(deps, dub, new Error('the dub job gave up'));
}

/** Marks a dub failed with a sentence for its owner; its credits were refunded (`refunded`). */
async function failDub(deps: DubbingDeps, dub: DubRow, error: unknown): Promise<void> {
  const message =
    error instanceof AppError ? error.message : 'The dub failed on the server. Its credits were refunded.';
  if (!(error instanceof AppError)) deps.logger.error({ err: error, dubId: dub.id }, 'dub failed');
  await updateDub(deps.db, dub.id, {
    status: 'failed',
    error: message,
    refunded: true,
    progressMessage: 'Failed',
    completedAt: deps.clock.now(),
  });
}

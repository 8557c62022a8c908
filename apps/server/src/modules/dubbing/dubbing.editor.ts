import path from 'node:path';
import type { DubbingResource, RenderType } from '@parla/contracts';
import { dubbingCredits } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, invalid, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { withScratchDir } from '../../platform/scratch-dirs';
import { chargeGeneration } from '../metering';
import { resolveSpeakingVoice } from '../voices';
import type { DubbingDeps } from './dubbing.deps';
import { renderJob } from './dubbing.jobs';
import { sourceModelFor, targetProblem } from './dubbing.languages';
import { cutAudio } from './dubbing.media';
import { DUBBING_MODEL_ID, sourceFile, speakMissing, translateMissing } from './dubbing.pipeline';
import { toDubbingResource } from './dubbing.present';
import { dubOf } from './dubbing.service';
import {
  bumpVersion,
  deleteSegment,
  ensureSegmentLanguages,
  insertRender,
  insertSegments,
  insertSpeakers,
  listRenders,
  listSegmentLanguages,
  listSegments,
  listSpeakers,
  markStale,
  updateDub,
  updateSegment,
  updateSegmentLanguage,
  updateSpeaker,
} from './dubbing.store';
import type { DubRow } from './dubbing.tables';
import { similarVoices } from './dubbing.voices';

/*
 * The dubbing editor's calls (`/v1/dubbing/resource/{id}/…`, the SDK's `dubbing.resource`): every change
 * answers the resource's new version. A change of a segment's text, times or voice marks its clip stale;
 * `dub` speaks again only the stale clips asked for, so re-dubbing one edited segment speaks that one
 * segment (issue 29's performance target). Edits are included in the dub's price; a language added
 * later is charged as a dub into it is (per minute of source).
 */

/** How much sound either side of a segment `transcribe` hears it with. */
const TRANSCRIBE_MARGIN_SEC = 0.3;

/** A dub the editor may change: made, not being made. */
async function editable(
  deps: Pick<DubbingDeps, 'db'>,
  caller: RequestCaller,
  dubId: string,
): Promise<DubRow> {
  const dub = await dubOf(deps, caller, dubId);
  if (dub.status === 'dubbing')
    throw new AppError('conflict', 'The dub is still being made: edit it once it is dubbed.');
  return dub;
}

export async function getResource(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
): Promise<DubbingResource> {
  const dub = await dubOf(deps, caller, dubId);
  const [speakers, segments, languages, renders] = await Promise.all([
    listSpeakers(deps.db, dub.id),
    listSegments(deps.db, dub.id),
    listSegmentLanguages(deps.db, dub.id),
    listRenders(deps.db, dub.id),
  ]);
  return toDubbingResource(deps.publicUrl, dub, { speakers, segments, languages, renders });
}

/** The segments a call names (all when the list is empty), each checked to be the dub's. */
async function segmentsNamed(deps: Pick<DubbingDeps, 'db'>, dub: DubRow, ids: string[]) {
  const all = await listSegments(deps.db, dub.id);
  if (ids.length === 0) return all;
  const known = new Set(all.map((s) => s.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw notFound(`The segment ${unknown}`);
  return all.filter((s) => ids.includes(s.id));
}

function languagesNamed(dub: DubRow, languages: string[] | null | undefined): string[] {
  if (!languages || languages.length === 0) return dub.targetLanguages;
  const unknown = languages.find((l) => !dub.targetLanguages.includes(l));
  if (unknown) throw invalid('languages', `The dub has no target language "${unknown}": add it first.`);
  return languages;
}

/** `POST …/transcribe`: hears the segments again from the source (their text and word times). */
export async function transcribeSegments(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  body: { segments: string[] },
  signal: AbortSignal,
) {
  const dub = await editable(deps, caller, dubId);
  const segments = await segmentsNamed(deps, dub, body.segments);
  const model = sourceModelFor(deps, dub.sourceLanguage ?? undefined) ?? 'fast';
  await withScratchDir('dub-stt-', async (dir) => {
    const source = await sourceFile(deps, dub, dir);
    for (const segment of segments) {
      const clip = path.join(dir, `${segment.id}.wav`);
      // Heard with a margin either side (a word cut at the clip's edge is lost), then only the words
      // whose middle falls inside the segment are kept.
      const from = Math.max(0, segment.startTime - TRANSCRIBE_MARGIN_SEC);
      const to = Math.min(dub.input.durationSec, segment.endTime + TRANSCRIBE_MARGIN_SEC);
      await cutAudio(source, clip, from, to);
      const heard = await deps.stt.transcribeFile({
        file: clip,
        model,
        timestamps: 'word',
        tenant: dub.workspaceId,
        signal,
        ...(dub.sourceLanguage ? { language: dub.sourceLanguage } : {}),
      });
      const words = heard.segments
        .flatMap((s) => s.words)
        .map((w) => ({ text: w.text.trim(), start: w.start + from, end: w.end + from }))
        .filter(
          (w) =>
            w.text && (w.start + w.end) / 2 >= segment.startTime && (w.start + w.end) / 2 <= segment.endTime,
        );
      await updateSegment(deps.db, dub.id, segment.id, { text: words.map((w) => w.text).join(' '), words });
    }
  });
  return { version: await bumpVersion(deps.db, dub.id) };
}

/** `POST …/translate`: translates the segments again (all when none are named) into the languages. */
export async function translateSegments(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  body: { segments: string[]; languages?: string[] | null | undefined },
  signal: AbortSignal,
) {
  const dub = await editable(deps, caller, dubId);
  const segments = await segmentsNamed(deps, dub, body.segments);
  await translateMissing(deps, dub, signal, {
    segmentIds: segments.map((s) => s.id),
    languages: languagesNamed(dub, body.languages),
    force: true,
  });
  return { version: await bumpVersion(deps.db, dub.id) };
}

/**
 * `POST …/dub`: speaks the named segments again (every stale one when none are named) in the languages.
 * Only those clips are made again; a render then mixes them in.
 */
export async function dubSegments(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  body: { segments: string[]; languages?: string[] | null | undefined },
  signal: AbortSignal,
): Promise<{ version: number; spoken: number }> {
  const dub = await editable(deps, caller, dubId);
  const languages = languagesNamed(dub, body.languages);
  const segments = await segmentsNamed(deps, dub, body.segments);
  if (body.segments.length > 0)
    await markStale(
      deps.db,
      segments.map((s) => s.id),
      languages,
    );
  await translateMissing(deps, dub, signal, { segmentIds: segments.map((s) => s.id), languages });
  const spoken = await speakMissing(deps, dub, signal, undefined, {
    segmentIds: segments.map((s) => s.id),
    languages,
  });
  return { version: await bumpVersion(deps.db, dub.id), spoken };
}

/** `POST …/render/{language}`: a render job; its row in `renders` says processing until it is stored. */
export async function startRender(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  language: string,
  body: { render_type: RenderType },
) {
  const dub = await editable(deps, caller, dubId);
  if (!dub.targetLanguages.includes(language))
    throw new AppError('resource_not_found', `The dub has no target language "${language}".`);
  if (body.render_type === 'aaf' || body.render_type === 'zip')
    throw invalid(
      'render_type',
      `Parla does not render ${body.render_type}: choose mp4, aac, mp3, wav, tracks_zip or clips_zip.`,
    );
  if (body.render_type === 'mp4' && dub.input.kind === 'audio')
    throw invalid('render_type', 'This dub has no video: choose aac, mp3 or wav.');
  const version = await bumpVersion(deps.db, dub.id);
  const id = newId();
  await insertRender(deps.db, {
    id,
    dubId: dub.id,
    language,
    type: body.render_type,
    status: 'processing',
    version,
  });
  await deps.queue.enqueue(renderJob, { dubId: dub.id, workspaceId: dub.workspaceId, renderId: id });
  return { version, render_id: id };
}

/** `POST …/language`: adds a target language, charged as a dub into it; the next `translate`/`dub` fills it. */
export async function addLanguage(deps: DubbingDeps, caller: RequestCaller, dubId: string, language: string) {
  const dub = await editable(deps, caller, dubId);
  if (dub.targetLanguages.includes(language) || language === dub.sourceLanguage)
    throw new AppError('conflict', `The dub already has ${language}.`);
  if (dub.targetLanguages.length >= 10)
    throw new AppError('bad_request', 'A dub has at most 10 target languages.');
  const problem = targetProblem(deps, dub.sourceLanguage ?? undefined, language);
  if (problem) throw new AppError('unsupported_language', problem);
  const credits = dubbingCredits(dub.input.durationSec, 1, dub.options.watermark);
  await chargeGeneration(
    deps,
    caller,
    { kind: 'dubbing', credits, modelId: DUBBING_MODEL_ID },
    async (budget) => {
      const segments = await listSegments(deps.db, dub.id);
      await deps.db.transaction(async (tx) => {
        await ensureSegmentLanguages(
          tx,
          segments.map((s) => ({
            segmentId: s.id,
            dubId: dub.id,
            language,
            text: null,
            startTime: s.startTime,
            endTime: s.endTime,
          })),
        );
        await updateDub(tx, dub.id, {
          targetLanguages: [...dub.targetLanguages, language],
          credits: dub.credits + credits,
        });
        await budget.settleIn(tx);
      });
      await budget.completed(null);
    },
    (error) => error,
  );
  return { version: await bumpVersion(deps.db, dub.id) };
}

/** `POST …/migrate-segments`: moves segments to another speaker (their clips are spoken again). */
export async function migrateSegments(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  body: { segment_ids: string[]; speaker_id: string },
) {
  const dub = await editable(deps, caller, dubId);
  const speakers = await listSpeakers(deps.db, dub.id);
  if (!speakers.some((s) => s.id === body.speaker_id)) throw notFound('The speaker');
  const segments = await segmentsNamed(deps, dub, body.segment_ids);
  for (const s of segments) await updateSegment(deps.db, dub.id, s.id, { speakerId: body.speaker_id });
  await markStale(
    deps.db,
    segments.map((s) => s.id),
  );
  return { version: await bumpVersion(deps.db, dub.id) };
}

/** `PATCH …/segment/{segment}/{language}`: the source's or a translation's text, or the times. */
export async function patchSegment(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  segmentId: string,
  language: string,
  body: { start_time?: number | null; end_time?: number | null; text?: string | null },
) {
  const dub = await editable(deps, caller, dubId);
  const [segment] = await segmentsNamed(deps, dub, [segmentId]);
  if (!segment) throw notFound('The segment');
  const start = body.start_time ?? segment.startTime;
  const end = body.end_time ?? segment.endTime;
  if (end <= start) throw invalid('end_time', 'end_time must be after start_time.');
  if (end > dub.input.durationSec + 0.5) throw invalid('end_time', 'end_time is past the end of the source.');
  const source = dub.sourceLanguage ?? dub.sourceLangRequested;
  if (language === source) {
    await updateSegment(deps.db, dub.id, segment.id, {
      startTime: start,
      endTime: end,
      ...(body.text != null ? { text: body.text } : {}),
    });
    if (body.start_time != null || body.end_time != null) {
      const rows = (await listSegmentLanguages(deps.db, dub.id)).filter((r) => r.segmentId === segment.id);
      for (const r of rows)
        await updateSegmentLanguage(deps.db, segment.id, r.language, {
          startTime: start,
          endTime: end,
          audioStale: true,
        });
    }
  } else if (dub.targetLanguages.includes(language)) {
    await updateSegmentLanguage(deps.db, segment.id, language, {
      ...(body.text != null ? { text: body.text } : {}),
      ...(body.start_time != null ? { startTime: start } : {}),
      ...(body.end_time != null ? { endTime: end } : {}),
      audioStale: true,
    });
  } else throw new AppError('resource_not_found', `The dub has no language "${language}".`);
  return { version: await bumpVersion(deps.db, dub.id) };
}

export async function removeSegment(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  segmentId: string,
) {
  const dub = await editable(deps, caller, dubId);
  if (!(await deleteSegment(deps.db, dub.id, segmentId))) throw notFound('The segment');
  return { version: await bumpVersion(deps.db, dub.id) };
}

interface SpeakerBody {
  speaker_name?: string | null | undefined;
  voice_id?: string | null | undefined;
  voice_stability?: number | null | undefined;
  voice_similarity?: number | null | undefined;
  voice_style?: number | null | undefined;
}

const tuningOf = (
  body: SpeakerBody,
  before: { stability?: number; similarity?: number; style?: number } = {},
) => ({
  ...before,
  ...(body.voice_stability != null ? { stability: body.voice_stability } : {}),
  ...(body.voice_similarity != null ? { similarity: body.voice_similarity } : {}),
  ...(body.voice_style != null ? { style: body.voice_style } : {}),
});

export async function createSpeaker(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  body: SpeakerBody,
) {
  const dub = await editable(deps, caller, dubId);
  if (body.voice_id) await resolveSpeakingVoice(deps.db, caller, body.voice_id);
  const speakers = await listSpeakers(deps.db, dub.id);
  const id = newId();
  await insertSpeakers(deps.db, [
    {
      id,
      dubId: dub.id,
      position: speakers.length,
      name: body.speaker_name ?? `Speaker ${speakers.length + 1}`,
      profile: null,
      voices: body.voice_id
        ? Object.fromEntries(dub.targetLanguages.map((l) => [l, body.voice_id as string]))
        : {},
      matched: {},
      tuning: tuningOf(body),
    },
  ]);
  return { version: await bumpVersion(deps.db, dub.id), speaker_id: id };
}

/** `PATCH …/speaker/{id}`: its name, its voice (in the languages named, else all) and the voice's tuning. */
export async function patchSpeaker(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  speakerId: string,
  body: SpeakerBody & { languages?: string[] | null | undefined },
) {
  const dub = await editable(deps, caller, dubId);
  const speaker = (await listSpeakers(deps.db, dub.id)).find((s) => s.id === speakerId);
  if (!speaker) throw notFound('The speaker');
  const languages = languagesNamed(dub, body.languages);
  if (body.voice_id) await resolveSpeakingVoice(deps.db, caller, body.voice_id);
  const voices = body.voice_id
    ? { ...speaker.voices, ...Object.fromEntries(languages.map((l) => [l, body.voice_id as string])) }
    : speaker.voices;
  await updateSpeaker(deps.db, dub.id, speaker.id, {
    ...(body.speaker_name ? { name: body.speaker_name } : {}),
    voices,
    tuning: tuningOf(body, speaker.tuning),
  });
  const changesSound =
    body.voice_id != null ||
    body.voice_stability != null ||
    body.voice_similarity != null ||
    body.voice_style != null;
  if (changesSound) {
    const segments = (await listSegments(deps.db, dub.id)).filter((s) => s.speakerId === speaker.id);
    await markStale(
      deps.db,
      segments.map((s) => s.id),
      languages,
    );
  }
  return { version: await bumpVersion(deps.db, dub.id) };
}

export async function speakerSimilarVoices(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  speakerId: string,
) {
  const dub = await dubOf(deps, caller, dubId);
  const speaker = (await listSpeakers(deps.db, dub.id)).find((s) => s.id === speakerId);
  if (!speaker) throw notFound('The speaker');
  const language = dub.targetLanguages[0] ?? 'en';
  return {
    voices: similarVoices(language, speaker).map((v) => ({
      voice_id: v.voice_id,
      name: v.name,
      category: 'premade',
      description: v.description ?? null,
      preview_url: `${deps.publicUrl}/v1/voices/${v.voice_id}/preview`,
    })),
  };
}

/** `POST …/speaker/{id}/segment`: a new segment of a speaker, with its text and translations if given. */
export async function createSegment(
  deps: DubbingDeps,
  caller: RequestCaller,
  dubId: string,
  speakerId: string,
  body: {
    start_time: number;
    end_time: number;
    text?: string | null;
    translations?: Record<string, string> | null;
  },
) {
  const dub = await editable(deps, caller, dubId);
  if (!(await listSpeakers(deps.db, dub.id)).some((s) => s.id === speakerId)) throw notFound('The speaker');
  if (body.end_time > dub.input.durationSec + 0.5)
    throw invalid('end_time', 'end_time is past the end of the source.');
  const unknown = Object.keys(body.translations ?? {}).find((l) => !dub.targetLanguages.includes(l));
  if (unknown) throw invalid('translations', `The dub has no target language "${unknown}".`);
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await insertSegments(tx, [
      {
        id,
        dubId: dub.id,
        speakerId,
        startTime: body.start_time,
        endTime: body.end_time,
        text: body.text ?? '',
        words: [],
      },
    ]);
    await ensureSegmentLanguages(
      tx,
      dub.targetLanguages.map((language) => ({
        segmentId: id,
        dubId: dub.id,
        language,
        text: body.translations?.[language] ?? null,
        startTime: body.start_time,
        endTime: body.end_time,
      })),
    );
  });
  return { version: await bumpVersion(deps.db, dub.id), new_segment: id };
}

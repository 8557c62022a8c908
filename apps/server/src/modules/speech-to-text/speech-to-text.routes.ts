import fs from 'node:fs/promises';
import {
  createTranscriptRoute,
  deleteTranscriptRoute,
  exportTranscriptRoute,
  ForcedAlignmentFields,
  forcedAlignmentRoute,
  getTranscriptAudioRoute,
  getTranscriptDetailsRoute,
  getTranscriptRoute,
  listTranscriptsRoute,
  OpenAiTranscriptionFields,
  openAiTranscriptionRoute,
  SpeechToTextFields,
  STT_MAX_UPLOAD_BYTES,
  speechToTextRoute,
  updateTranscriptRoute,
} from '@parla/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { callerOf } from '../../platform/auth-guard';
import { acceptMultipart, readMultipartToDisk } from '../../platform/multipart';
import { socketRoute } from '../../platform/realtime/websocket';
import { registerRoute } from '../../platform/route';
import { makeScratchDir } from '../../platform/scratch-dirs';
import { attachmentDisposition, sendStoredFile } from '../../platform/storage/send-file';
import { alignNow } from './forced-alignment.service';
import { openAiTranscription } from './openai-transcriptions';
import { reportPdfFontProblem } from './pdf-writer';
import { transcribeJob } from './speech-to-text.jobs';
import { type SttDeps, startTranscription, transcribeNow } from './speech-to-text.service';
import { openRealtimeTranscription } from './stt-realtime';
import { sttDepsOf } from './transcription.service';
import {
  deleteTranscript,
  exportFileName,
  exportTranscript,
  listTranscripts,
  readTranscript,
  transcriptAudio,
  transcriptDetails,
  updateTranscript,
} from './transcripts.service';

/** Aborted when the client goes away before its answer was sent (its work is cancelled and refunded). */
function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

/** Runs `use` with a scratch folder for the request's upload, removed however it ends. */
async function withUploadDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeScratchDir('stt-');
  try {
    return await use(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The speech-to-text calls (issue 19): the public API's, the page's private ones, and OpenAI's. */
export async function speechToTextRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await acceptMultipart(app, STT_MAX_UPLOAD_BYTES);
  // The PDF exports need Debian's DejaVu fonts; without them they fall back to Helvetica (said once).
  reportPdfFontProblem(deps.logger);
  const db = deps.database.db;
  const stt: SttDeps = { ...sttDepsOf(deps), transcribeJob };
  const guarded = { onRequest: deps.auth.requireAuth };

  // Realtime transcription (issue 20): a WebSocket that authenticates itself (token, key or Bearer).
  socketRoute(app, '/v1/speech-to-text/realtime', (ws, request) =>
    openRealtimeTranscription(deps, ws, request),
  );

  const readForm = (request: FastifyRequest, dir: string) =>
    readMultipartToDisk(request, 'file', SpeechToTextFields, dir);

  registerRoute(
    app,
    speechToTextRoute,
    async ({ request, reply, query }) =>
      withUploadDir(async (dir) => {
        const signal = clientGone(reply);
        const form = await readForm(request, dir);
        const caller = callerOf(request);
        const input = { ...form, dir };
        if (form.fields.webhook) {
          const { transcriptionId } = await startTranscription(stt, caller, input, signal);
          reply.status(202);
          return {
            message: 'Request processed successfully',
            request_id: caller.requestId,
            transcription_id: transcriptionId,
          };
        }
        return transcribeNow(stt, caller, input, query.enable_logging, signal);
      }),
    guarded,
  );

  registerRoute(
    app,
    createTranscriptRoute,
    async ({ request, reply }) =>
      withUploadDir(async (dir) => {
        const signal = clientGone(reply);
        const form = await readForm(request, dir);
        const { transcriptionId } = await startTranscription(
          stt,
          callerOf(request),
          { ...form, dir },
          signal,
        );
        return { transcription_id: transcriptionId, status: 'processing' as const };
      }),
    guarded,
  );

  registerRoute(
    app,
    listTranscriptsRoute,
    async ({ request, query }) => listTranscripts(db, callerOf(request), query),
    guarded,
  );
  registerRoute(
    app,
    getTranscriptRoute,
    async ({ request, params }) => readTranscript(db, callerOf(request), params.transcription_id),
    guarded,
  );
  registerRoute(
    app,
    getTranscriptDetailsRoute,
    async ({ request, params }) => transcriptDetails(db, callerOf(request), params.transcription_id),
    guarded,
  );
  registerRoute(
    app,
    updateTranscriptRoute,
    async ({ request, params, body }) =>
      updateTranscript(db, callerOf(request), params.transcription_id, body),
    guarded,
  );
  registerRoute(
    app,
    deleteTranscriptRoute,
    async ({ request, params }) => {
      await deleteTranscript({ db, storage: deps.storage }, callerOf(request), params.transcription_id);
      return { status: 'ok' as const };
    },
    guarded,
  );
  registerRoute(
    app,
    getTranscriptAudioRoute,
    async ({ request, reply, params }) => {
      const audio = await transcriptAudio(
        { db, storage: deps.storage },
        callerOf(request),
        params.transcription_id,
      );
      reply.header('content-disposition', attachmentDisposition(exportFileName(audio.name, 'mp3'), 'inline'));
      return sendStoredFile(request, reply, deps.storage, {
        key: audio.key,
        size: audio.size,
        contentType: 'audio/mpeg',
        // Private: the audio is the workspace's; the browser may keep it, shared caches may not.
        cacheControl: 'private, max-age=3600',
      });
    },
    guarded,
  );
  registerRoute(
    app,
    exportTranscriptRoute,
    async ({ request, reply, params, query }) => {
      const file = await exportTranscript(db, callerOf(request), params.transcription_id, query);
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'private, no-store');
      return file.body;
    },
    guarded,
  );

  registerRoute(
    app,
    openAiTranscriptionRoute,
    async ({ request, reply }) =>
      withUploadDir(async (dir) => {
        const signal = clientGone(reply);
        const form = await readMultipartToDisk(request, 'file', OpenAiTranscriptionFields, dir);
        const result = await openAiTranscription(stt, callerOf(request), { ...form, dir }, signal);
        reply.header('content-type', result.contentType);
        return result.body;
      }),
    guarded,
  );

  registerRoute(
    app,
    forcedAlignmentRoute,
    async ({ request, reply }) =>
      withUploadDir(async (dir) => {
        const signal = clientGone(reply);
        const form = await readMultipartToDisk(request, 'file', ForcedAlignmentFields, dir);
        return alignNow(stt, callerOf(request), form, signal);
      }),
    guarded,
  );
}

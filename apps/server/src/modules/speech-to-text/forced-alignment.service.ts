import {
  type ForcedAlignmentFields,
  type ForcedAlignmentResponse,
  STT_MAX_UPLOAD_BYTES,
  STT_MIN_SECONDS,
  speechToTextCost,
  sttMessages,
} from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import { AppError, invalid } from '../../platform/errors';
import { measureDecodedSeconds, probeUploadFile } from '../../platform/media/probe-upload';
import type { DiskUpload } from '../../platform/multipart';
import { checkAlignmentLimits, MAX_ALIGNMENT_SECONDS } from '../../providers/stt/stt-provider';
import { assertAffordable, openBudget, runMetered } from '../metering';
import { type SttDeps, toSttClientError } from './speech-to-text.service';

/**
 * `POST /v1/forced-alignment` (the SDK's `forcedAlignment.create`): where each word and character of a
 * known text is in a recording. The upload is checked by content and its limits (at most 10 minutes and
 * 5,000 words: the alignment's bound) before anything is spent; it costs what transcribing it would (1
 * credit per started second of the sound that decodes), under a budget that a failure, audio without
 * speech (the provider refuses to align a text to it) or the client going away refunds. Nothing is kept.
 */
export async function alignNow(
  deps: SttDeps,
  caller: RequestCaller,
  input: { fields: ForcedAlignmentFields; file: DiskUpload | undefined },
  signal: AbortSignal,
): Promise<ForcedAlignmentResponse> {
  if (!input.file) throw invalid('file', 'Field required');
  const probe = await probeUploadFile(input.file.path, input.file.bytes, {
    maxBytes: STT_MAX_UPLOAD_BYTES,
    maxSeconds: MAX_ALIGNMENT_SECONDS,
  });
  if (!probe.hasAudio) throw invalid('file', 'The file has no sound to align.');
  // Billed by the sound that decodes, never by the length a header claims (issue 26 item 9).
  const seconds = await measureDecodedSeconds(input.file.path, probe, { maxSeconds: MAX_ALIGNMENT_SECONDS });
  if (seconds < STT_MIN_SECONDS) throw new AppError('bad_request', sttMessages.tooShort);
  checkAlignmentLimits(seconds, input.fields.text);
  const credits = speechToTextCost(seconds);
  await assertAffordable(deps, caller, credits, 'mp3_44100_128');
  const budget = await openBudget(deps, caller, {
    kind: 'speech_to_text',
    credits,
    modelId: 'parla_stt_v1',
  });
  const file = input.file.path;
  return runMetered(
    budget,
    async (cancel) => {
      const aligned = await deps.stt.align({
        file,
        text: input.fields.text,
        tenant: caller.workspaceId,
        signal: AbortSignal.any([cancel, signal]),
      });
      await budget.settle();
      return aligned;
    },
    (error) => (signal.aborted ? error : toSttClientError(deps, error)),
  );
}

import type { Db } from '../../platform/db/client';
import { creditPeriodStarted, workspaceDeleted } from '../../platform/events/catalog';
import type { EventBus } from '../../platform/events/event-bus';
import type { Storage } from '../../platform/storage/storage';
import { deleteWorkspaceVoiceFiles } from './voice-files';
import { disableCopiesOfVoices, resetVoiceAddEdits } from './voices.store';

/**
 * The clean-up after a workspace's deletion (issue 17: the deleting module publishes, voices cleans up its
 * own; its voice rows go by cascade):
 *   - the library copies other workspaces made of its voices stop working (§5 copied_disabled) inside the
 *     deleting transaction, so no copy of a deleted voice is usable for a moment, as before events;
 *   - its voices' files go (samples, verification documents, design previews, previews) twice, on purpose:
 *     right after the commit, so the deletion answers with the files gone as it always did, and as a job,
 *     so a crash between the commit and that first pass still does it. Deleting is idempotent.
 */
export function subscribeVoices(bus: EventBus, deps: { storage: Storage }): void {
  bus.on(
    workspaceDeleted,
    'voices.workspace-deleted.copies',
    async (event, tx: Db) => {
      if (event.voiceIds.length > 0) await disableCopiesOfVoices(tx, event.voiceIds);
    },
    { inTransaction: true },
  );
  const deleteFiles = (event: { workspaceId: string; voiceIds: string[] }) =>
    deleteWorkspaceVoiceFiles(deps.storage, event.workspaceId, event.voiceIds);
  bus.on(workspaceDeleted, 'voices.workspace-deleted', deleteFiles);
  bus.on(workspaceDeleted, 'voices.workspace-deleted.durable', deleteFiles, { durable: true });
  // accounts §9: the voice adds and edits are counted per credit period.
  bus.on(
    creditPeriodStarted,
    'voices.period-started',
    (event, tx: Db) => resetVoiceAddEdits(tx, event.workspaceId),
    { inTransaction: true },
  );
}

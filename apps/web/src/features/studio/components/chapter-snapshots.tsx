import type { StudioChapterWithContent, StudioProjectExtended } from '@parla/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { DownloadIcon, PlayIcon } from '../../../ui/icons';
import { LoadError } from '../../../ui/load-error';
import { downloadChapterSnapshot } from '../api/studio-api';

export interface ChapterSnapshotsProps {
  project: StudioProjectExtended;
  chapter: StudioChapterWithContent;
  snapshots: UseQueryResult<{
    snapshots: { chapter_snapshot_id: string; created_at_unix: number; name: string }[];
  }>;
  onPlay: (snapshotId: string) => Promise<void>;
}

/**
 * The chapter's snapshots (one per conversion), newest first: each played in the bottom player or
 * downloaded as MP3. There is no restore: the API keeps a snapshot's audio, not the text it was made from.
 */
export function ChapterSnapshots({ project, chapter, snapshots, onPlay }: ChapterSnapshotsProps) {
  const id = useId();
  const { toast, toastError } = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  const list = snapshots.data?.snapshots ?? [];
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2">
      <h3 id={`${id}-heading`} className="text-sm font-semibold">
        Snapshots
      </h3>
      {snapshots.isError ? (
        <LoadError error={snapshots.error} onRetry={() => void snapshots.refetch()} />
      ) : snapshots.isPending ? (
        <p className="text-sm text-fg-muted">Loading snapshots…</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-fg-muted">
          None yet. Each conversion of the chapter keeps its audio here, to play or download.
        </p>
      ) : (
        <ul
          aria-label="Chapter snapshots"
          className="flex flex-col divide-y divide-line rounded-lg border border-line"
        >
          {list.map((snapshot, index) => {
            const when = formatDate(fromUnixSeconds(snapshot.created_at_unix));
            return (
              <li
                key={snapshot.chapter_snapshot_id}
                className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm"
              >
                <span className="min-w-0 flex-1 truncate">
                  {when}
                  {index === 0 && <span className="ml-2 text-xs text-fg-muted">latest</span>}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Play the snapshot of ${when}`}
                  disabled={busy !== null}
                  onClick={() => {
                    setBusy(snapshot.chapter_snapshot_id);
                    void onPlay(snapshot.chapter_snapshot_id).finally(() => setBusy(null));
                  }}
                >
                  <PlayIcon /> Play
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Download the snapshot of ${when}`}
                  disabled={busy !== null}
                  onClick={() => {
                    setBusy(snapshot.chapter_snapshot_id);
                    downloadChapterSnapshot(project.project_id, chapter, snapshot.chapter_snapshot_id)
                      .then((fileName) => toast({ title: 'Download started', description: fileName }))
                      .catch((error: unknown) => toastError(error))
                      .finally(() => setBusy(null));
                  }}
                >
                  <DownloadIcon /> Download
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

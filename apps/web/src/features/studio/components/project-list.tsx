import type { StudioProject } from '@parla/contracts';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { TrashIcon } from '../../../ui/icons';
import { LoadError } from '../../../ui/load-error';
import { ProgressBar } from '../../../ui/progress-bar';
import { SkeletonRow } from '../../../ui/skeleton';
import { useDeleteStudioProject, useStudioProjects } from '../api/studio-api';
import { isBusy, STUDIO_STATE_LABELS } from '../studio-rules';
import { ProjectCover } from './project-cover';

/** The path of a project's editor (accounts §2's shape `/app/studio/{id}`). */
export function studioEditorPath(projectId: string): string {
  return `/app/studio/${encodeURIComponent(projectId)}`;
}

/**
 * The workspace's Studio projects (issue 30 item 3): name, state, chapters, last conversion, and the
 * progress while one is imported or converted (the list looks again every 2 s meanwhile).
 */
export function ProjectList({ onCreate }: { onCreate: () => void }) {
  const id = useId();
  const projects = useStudioProjects();
  const remove = useDeleteStudioProject();
  const { toast, toastError } = useToast();
  const [toDelete, setToDelete] = useState<StudioProject | null>(null);
  const items = projects.data?.projects ?? [];

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4">
      <h2 id={`${id}-heading`} className="text-lg font-semibold tracking-tight">
        Your projects
      </h2>
      {projects.isPending ? (
        <div role="status" aria-label="Loading projects" className="flex flex-col gap-2">
          <SkeletonRow lineWidths={['w-2/3', 'w-1/3']} />
          <SkeletonRow lineWidths={['w-1/2', 'w-1/4']} />
        </div>
      ) : projects.isError ? (
        <LoadError error={projects.error} onRetry={() => void projects.refetch()} />
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-line border-dashed py-12 text-center">
          <h3 className="text-base font-semibold">No projects yet</h3>
          <p className="max-w-sm px-4 text-sm text-fg-muted">
            Import a book or an article (EPUB, PDF, Word, HTML, Markdown or text, or a web page) or start from
            an empty page, give each paragraph its voice and turn it into an audiobook.
          </p>
          <Button onClick={onCreate}>Create your first project</Button>
        </div>
      ) : (
        <ul
          aria-label="Projects"
          className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-surface"
        >
          {items.map((project) => (
            <ProjectRow key={project.project_id} project={project} onDelete={() => setToDelete(project)} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this project?"
        description={
          toDelete ? `“${toDelete.name}”, its chapters, audio and snapshots are deleted for good.` : undefined
        }
        confirmLabel="Delete"
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          remove.mutate(toDelete.project_id, {
            onSuccess: () => {
              toast({ title: 'Project deleted', variant: 'success' });
              setToDelete(null);
            },
            onError: (error) => toastError(error),
          });
        }}
      />
    </section>
  );
}

function ProjectRow({ project, onDelete }: { project: StudioProject; onDelete: () => void }) {
  const busy = isBusy(project);
  const chapters = project.chapters_order.length;
  const progress = project.state === 'creating' ? project.creation_meta.creation_progress : null;
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <ProjectCover project={project} className="w-12" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <Link
            to={studioEditorPath(project.project_id)}
            className="truncate font-medium text-fg underline-offset-2 hover:underline focus-visible:underline"
          >
            {project.name}
          </Link>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-muted">
            <Badge tone={busy ? 'accent' : 'neutral'} dot={busy}>
              {STUDIO_STATE_LABELS[project.state]}
            </Badge>
            <span>
              {chapters} {chapters === 1 ? 'chapter' : 'chapters'}
            </span>
            <span>
              {project.last_conversion_date_unix
                ? `Converted ${formatDate(fromUnixSeconds(project.last_conversion_date_unix))}`
                : 'Not converted yet'}
            </span>
          </p>
          {busy && (
            <ProgressBar
              className="max-w-xs"
              label={`${STUDIO_STATE_LABELS[project.state]} ${project.name}`}
              value={progress}
            />
          )}
        </div>
      </div>
      {/* On a phone the buttons go under the name, lined up with it (the cover is 3 rem and a 0.75 rem gap). */}
      <div className="flex shrink-0 items-center gap-1 pl-15 sm:pl-0">
        <Button asChild variant="secondary" size="sm">
          <Link to={studioEditorPath(project.project_id)}>Open</Link>
        </Button>
        <Button variant="ghost" size="icon" aria-label={`Delete ${project.name}`} onClick={onDelete}>
          <TrashIcon />
        </Button>
      </div>
    </li>
  );
}

import type { ModelResponse, StudioProjectExtended, VoiceResponse } from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { TrashIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import {
  useConvertStudioProject,
  useCreateStudioChapter,
  useDeleteStudioChapter,
  useUpdateStudioChapter,
} from '../api/studio-api';
import { progressShare, STUDIO_SHORTCUTS, STUDIO_STATE_LABELS } from '../studio-rules';
import { useStudioProgress } from '../use-studio-progress';
import { ChapterEditor } from './chapter-editor';
import { ExportDialog } from './export-dialog';
import { ProjectCover } from './project-cover';
import { ProjectSettingsDialog } from './project-settings-dialog';

/**
 * One Studio project (issue 30 item 3): its chapters in a sidebar (add, rename, delete), the open chapter's
 * document, conversion of the whole project with its live progress (server-sent events), the export and
 * settings dialogs and the keyboard shortcuts' help.
 */
export function StudioEditor({
  project,
  voices,
  models,
}: {
  project: StudioProjectExtended;
  voices: readonly VoiceResponse[];
  /** The speech models (`GET /v1/models`): the voice pickers offer the voices the model speaks. */
  models: readonly ModelResponse[];
}) {
  const id = useId();
  const { toast, toastError } = useToast();
  const [chapterId, setChapterId] = useState<string | null>(project.chapters[0]?.chapter_id ?? null);
  const [started, setStarted] = useState(false);
  const [dialog, setDialog] = useState<'export' | 'settings' | 'shortcuts' | 'add' | 'rename' | null>(null);
  const [toDelete, setToDelete] = useState<string | null>(null);
  const convert = useConvertStudioProject(project.project_id);
  const removeChapter = useDeleteStudioChapter(project.project_id);

  // The chapter shown stays one of the project's (after a delete, the first).
  useEffect(() => {
    if (!project.chapters.some((c) => c.chapter_id === chapterId))
      setChapterId(project.chapters[0]?.chapter_id ?? null);
  }, [project.chapters, chapterId]);

  const converting = started || project.state === 'converting' || project.state === 'in_queue';
  const progress = useStudioProgress(project.project_id, converting, () => setStarted(false), project.state);
  const event = progress.event;
  const live = converting && event !== null;
  const share = live ? progressShare(event) : null;
  const chapterShare = live && chapterId ? progressShare(event, chapterId) : null;
  const chapterConverting =
    converting &&
    (event?.chapters.some((c) => c.chapter_id === chapterId && c.state === 'converting') ??
      project.project_conversion_chapter_ids_converting.includes(chapterId ?? ''));
  const chapter = project.chapters.find((c) => c.chapter_id === chapterId);

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <nav aria-label="Breadcrumb" className="text-sm text-fg-muted">
          <Link to="/app/studio" className="underline-offset-2 hover:underline">
            Studio
          </Link>
        </nav>
        <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
          <div className="flex min-w-0 items-center gap-4">
            <ProjectCover project={project} className="w-16" />
            <div className="min-w-0">
              <h1 className="break-words text-2xl font-semibold tracking-tight">{project.name}</h1>
              <p className="text-sm text-fg-muted">
                {STUDIO_STATE_LABELS[project.state]} · {project.chapters.length}{' '}
                {project.chapters.length === 1 ? 'chapter' : 'chapters'}
                {project.author ? ` · ${project.author}` : ''}
              </p>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              onClick={() =>
                convert.mutate(undefined, {
                  onSuccess: () => {
                    setStarted(true);
                    toast({
                      title: 'Converting the project',
                      description: 'Only changed paragraphs are spoken again.',
                    });
                  },
                  onError: (error) => toastError(error),
                })
              }
              disabled={converting || convert.isPending || project.chapters.length === 0}
            >
              {converting ? 'Converting…' : 'Convert project'}
            </Button>
            <Button variant="secondary" onClick={() => setDialog('export')}>
              Export
            </Button>
            <Button variant="secondary" onClick={() => setDialog('settings')}>
              Project settings
            </Button>
            <Button variant="ghost" onClick={() => setDialog('shortcuts')}>
              Keyboard shortcuts
            </Button>
          </div>
        </div>
        {converting && <ProgressBar label="Converting the project" value={share} />}
        {progress.error !== null && (
          <p className="text-xs text-fg-muted">
            The live progress stopped; the page shows the result when it loads again.
          </p>
        )}
      </header>

      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <aside aria-labelledby={`${id}-chapters`} className="flex min-w-0 flex-col gap-2">
          <div className="flex items-center justify-between gap-2">
            <h2 id={`${id}-chapters`} className="text-sm font-semibold">
              Chapters
            </h2>
            <Button size="sm" variant="secondary" onClick={() => setDialog('add')}>
              Add chapter
            </Button>
          </div>
          {project.chapters.length === 0 ? (
            <p className="text-sm text-fg-muted">
              {project.state === 'creating'
                ? 'Importing the document…'
                : 'No chapters yet. Add one to start writing.'}
            </p>
          ) : (
            <ul aria-label="Chapters" className="flex max-h-[60vh] flex-col gap-1 overflow-y-auto">
              {project.chapters.map((c, index) => {
                const current = c.chapter_id === chapterId;
                const state = event?.chapters.find((e) => e.chapter_id === c.chapter_id);
                return (
                  <li key={c.chapter_id} className="flex items-center gap-1">
                    <button
                      type="button"
                      aria-current={current ? 'page' : undefined}
                      onClick={() => setChapterId(c.chapter_id)}
                      className={clsx(
                        'min-w-0 flex-1 truncate rounded-md px-2 py-1.5 text-left text-sm',
                        current ? 'bg-subtle font-medium text-fg' : 'text-fg-muted hover:bg-subtle',
                      )}
                    >
                      <span className="mr-1 tabular-nums">{index + 1}.</span>
                      {c.name}
                      {(state?.state ?? c.state) === 'converting' && (
                        <span className="ml-1 text-xs text-accent">
                          {state?.conversion_progress != null
                            ? `${Math.round(state.conversion_progress * 100)} %`
                            : '…'}
                        </span>
                      )}
                    </button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Delete chapter ${c.name}`}
                      onClick={() => setToDelete(c.chapter_id)}
                    >
                      <TrashIcon />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          {chapter && (
            <Button size="sm" variant="ghost" className="self-start" onClick={() => setDialog('rename')}>
              Rename chapter
            </Button>
          )}
        </aside>

        <main className="min-w-0" aria-label={chapter ? `Chapter ${chapter.name}` : 'Chapter'}>
          {chapterId && chapter ? (
            <>
              <h2 className="mb-3 break-words text-lg font-semibold">{chapter.name}</h2>
              <ChapterEditor
                key={chapterId}
                project={project}
                chapterId={chapterId}
                voices={voices}
                models={models}
                converting={chapterConverting}
                progress={chapterShare}
                onConverting={() => setStarted(true)}
              />
            </>
          ) : (
            <p className="text-sm text-fg-muted">Pick or add a chapter.</p>
          )}
        </main>
      </div>

      <ExportDialog
        open={dialog === 'export'}
        onOpenChange={(o) => setDialog(o ? 'export' : null)}
        project={project}
        chapterId={chapterId}
      />
      <ProjectSettingsDialog
        open={dialog === 'settings'}
        onOpenChange={(o) => setDialog(o ? 'settings' : null)}
        project={project}
        voices={voices}
        models={models}
      />
      <Dialog
        open={dialog === 'shortcuts'}
        onOpenChange={(o) => setDialog(o ? 'shortcuts' : null)}
        title="Keyboard shortcuts"
      >
        <dl className="flex flex-col gap-2 text-sm">
          {STUDIO_SHORTCUTS.map((shortcut) => (
            <div key={shortcut.keys} className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
              <dt className="shrink-0 font-mono text-xs sm:w-44">{shortcut.keys}</dt>
              <dd className="text-fg-muted">{shortcut.action}</dd>
            </div>
          ))}
        </dl>
      </Dialog>
      <ChapterNameDialog
        key={`${dialog}-${chapterId}`}
        mode={dialog === 'add' ? 'add' : dialog === 'rename' ? 'rename' : null}
        projectId={project.project_id}
        chapter={chapter ?? null}
        onClose={() => setDialog(null)}
        onAdded={(newId) => setChapterId(newId)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete this chapter?"
        description="Its text, audio and snapshots are deleted for good."
        confirmLabel="Delete"
        tone="danger"
        pending={removeChapter.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          removeChapter.mutate(toDelete, {
            onSuccess: () => setToDelete(null),
            onError: (error) => toastError(error),
          });
        }}
      />
    </div>
  );
}

function ChapterNameDialog({
  mode,
  projectId,
  chapter,
  onClose,
  onAdded,
}: {
  mode: 'add' | 'rename' | null;
  projectId: string;
  chapter: { chapter_id: string; name: string } | null;
  onClose: () => void;
  onAdded: (chapterId: string) => void;
}) {
  const create = useCreateStudioChapter(projectId);
  const update = useUpdateStudioChapter(projectId);
  const [name, setName] = useState(mode === 'rename' ? (chapter?.name ?? '') : '');
  const [problem, setProblem] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem('The chapter needs a name.');
    const onError = (error: unknown) => setProblem(error instanceof Error ? error.message : String(error));
    if (mode === 'add')
      create.mutate(name.trim(), {
        onSuccess: (answer) => {
          onAdded(answer.chapter.chapter_id);
          onClose();
        },
        onError,
      });
    else if (chapter)
      update.mutate({ chapterId: chapter.chapter_id, name: name.trim() }, { onSuccess: onClose, onError });
  };
  return (
    <Dialog
      open={mode !== null}
      onOpenChange={(open) => !open && !pending && onClose()}
      title={mode === 'add' ? 'Add chapter' : 'Rename chapter'}
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Chapter name"
          value={name}
          maxLength={255}
          onChange={(event) => setName(event.target.value)}
        />
        {problem && <FormMessage>{problem}</FormMessage>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {mode === 'add' ? 'Add chapter' : 'Rename'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

import type { StudioProjectExtended } from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses } from '../../../ui/field';
import {
  STUDIO_CHAPTER_EXPORT_FORMATS,
  STUDIO_PROJECT_EXPORT_FORMATS,
  type StudioProjectExportFormat,
  useExportStudio,
} from '../api/studio-api';

const FORMAT_LABELS: Record<StudioProjectExportFormat, string> = {
  m4b: 'M4B audiobook with chapter marks',
  mp3: 'One MP3',
  wav: 'One WAV',
  zip: 'ZIP of one MP3 per chapter',
};

/**
 * The export dialog (issue 30 item 3): the whole book (M4B with chapter marks, one MP3 or WAV, a zip of
 * MP3s) or one chapter (MP3 or WAV), of the last conversion; the server's sentence when it cannot.
 */
export function ExportDialog({
  open,
  onOpenChange,
  project,
  chapterId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project: StudioProjectExtended;
  /** The chapter open in the editor, offered as the alternative to the whole book. */
  chapterId: string | null;
}) {
  const id = useId();
  const { toast } = useToast();
  const run = useExportStudio();
  const [scope, setScope] = useState<'project' | 'chapter'>('project');
  const [format, setFormat] = useState<StudioProjectExportFormat>('m4b');
  const [problem, setProblem] = useState<string | null>(null);
  const chapter = project.chapters.find((c) => c.chapter_id === chapterId);
  const formats = scope === 'chapter' ? STUDIO_CHAPTER_EXPORT_FORMATS : STUDIO_PROJECT_EXPORT_FORMATS;
  const chosen = (formats as readonly string[]).includes(format) ? format : formats[0];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    run.mutate(
      {
        project,
        ...(scope === 'chapter' && chapter ? { chapter } : {}),
        format: chosen,
      },
      {
        onSuccess: (fileName) => {
          toast({ title: 'Download started', description: fileName, variant: 'success' });
          onOpenChange(false);
        },
        onError: (error) => setProblem(getToastMessage(error)),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !run.isPending && onOpenChange(next)}
      title="Export"
      description="The audio of the last conversion. Convert again first if you changed the text since."
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">What</legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === 'project'}
              onChange={() => setScope('project')}
            />
            The whole book
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === 'chapter'}
              disabled={!chapter}
              onChange={() => setScope('chapter')}
            />
            {chapter ? `This chapter: ${chapter.name}` : 'This chapter'}
          </label>
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-format`} className="text-sm font-medium">
            Format
          </label>
          <select
            id={`${id}-format`}
            className={inputClasses}
            value={chosen}
            onChange={(event) => setFormat(event.target.value as StudioProjectExportFormat)}
          >
            {formats.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </div>
        {problem && <FormMessage>{problem}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button
            type="button"
            variant="secondary"
            onClick={() => onOpenChange(false)}
            disabled={run.isPending}
          >
            Cancel
          </Button>
          <Button type="submit" disabled={run.isPending}>
            {run.isPending ? 'Preparing…' : 'Download'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

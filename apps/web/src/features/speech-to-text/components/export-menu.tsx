import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useToast } from '../../../lib/toasts/use-toast';
import { getButtonClasses } from '../../../ui/button';
import { DownloadIcon, SpinnerIcon } from '../../../ui/icons';
import { useExportTranscript } from '../api/export-transcript';
import type { TranscriptExportFormat } from '../api/types';

/** The formats the page offers (issue 19 item 6), with what each is for. */
export const exportChoices: ReadonlyArray<{ format: TranscriptExportFormat; label: string; note: string }> = [
  { format: 'txt', label: 'Plain text', note: '.txt' },
  { format: 'srt', label: 'Subtitles (SRT)', note: '.srt' },
  { format: 'vtt', label: 'Web subtitles (WebVTT)', note: '.vtt' },
  { format: 'docx', label: 'Word document', note: '.docx' },
  { format: 'pdf', label: 'PDF', note: '.pdf' },
  { format: 'json', label: 'JSON with word times', note: '.json' },
];

export interface ExportMenuProps {
  transcriptionId: string;
  name: string;
  /** Speakers were identified: the text exports name them. */
  withSpeakers: boolean;
}

/** Export: the transcript as a file, made by the server (speaker names applied) and downloaded. */
export function ExportMenu({ transcriptionId, name, withSpeakers }: ExportMenuProps) {
  const { toast, toastError } = useToast();
  const exporter = useExportTranscript();
  const start = (format: TranscriptExportFormat) =>
    exporter.mutate(
      {
        transcriptionId,
        format,
        fallbackName: name,
        ...(withSpeakers && format !== 'json' && { includeSpeakers: true }),
        ...((format === 'txt' || format === 'docx' || format === 'pdf') && { includeTimestamps: true }),
      },
      {
        onSuccess: (fileName) => toast({ title: `Downloaded ${fileName}`, variant: 'success' }),
        onError: (error) => toastError(error),
      },
    );
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className={getButtonClasses('secondary', 'sm')} aria-busy={exporter.isPending}>
        {exporter.isPending ? <SpinnerIcon className="motion-safe:animate-spin" /> : <DownloadIcon />}
        Export
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-60 rounded-lg border border-line bg-surface p-1 text-fg shadow-lg dark:shadow-black/40"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-fg-muted">
            Download as
          </DropdownMenu.Label>
          {exportChoices.map((choice) => (
            <DropdownMenu.Item
              key={choice.format}
              disabled={exporter.isPending}
              onSelect={() => start(choice.format)}
              className="flex cursor-pointer items-center justify-between gap-4 rounded-md px-2 py-1.5 text-sm outline-none select-none data-disabled:opacity-50 data-highlighted:bg-subtle"
            >
              {choice.label}
              <span className="text-xs text-fg-muted">{choice.note}</span>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

import {
  type ModelResponse,
  QUALITY_PRESETS,
  type QualityPreset,
  STUDIO_DEFAULT_MODEL_ID,
  STUDIO_DEFAULT_VOICE_ID,
  TARGET_AUDIENCES,
  type VoiceResponse,
} from '@parla/contracts';
import { type FormEvent, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, inputClasses, TextField, textareaClasses } from '../../../ui/field';
import { ProgressBar } from '../../../ui/progress-bar';
import { SegmentedControl } from '../../../ui/segmented-control';
import { Switch } from '../../../ui/switch';
import { type StudioProjectDetails, useCreateStudioProject } from '../api/studio-api';
import { unspeakableVoiceMessage } from '../studio-rules';
import { ModelVoicePicker } from './model-voice-picker';

const NO_DETAILS: StudioProjectDetails = {
  title: '',
  author: '',
  isbn: '',
  description: '',
  genres: '',
  language: '',
  targetAudience: 'all ages',
  matureContent: false,
  acxVolumeNormalization: false,
  volumeNormalization: false,
};

/** The documents a project is made from (parsed on the server, offline). */
export const STUDIO_DOCUMENT_ACCEPT = '.txt,.md,.markdown,.html,.htm,.epub,.pdf,.docx';

type Source = 'document' | 'url' | 'empty';

export const QUALITY_LABELS: Record<QualityPreset, string> = {
  standard: 'Standard (128 kbps)',
  high: 'High (192 kbps)',
  ultra: 'Ultra (highest MP3)',
  ultra_lossless: 'Ultra lossless',
};

export interface NewProjectDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  voices: readonly VoiceResponse[];
  models: readonly ModelResponse[];
  onCreated: (projectId: string) => void;
}

/**
 * A new Studio project (issue 30 item 3): from a document (txt, md, html, epub, pdf, docx), a web page or
 * empty, with its default voices for titles and paragraphs, model and quality. Errors (the plan's limit, a
 * live-moderation voice) show in the server's words.
 */
export function NewProjectDialog({ open, onOpenChange, voices, models, onCreated }: NewProjectDialogProps) {
  const id = useId();
  const create = useCreateStudioProject();
  const [source, setSource] = useState<Source>('document');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [titleVoiceId, setTitleVoiceId] = useState(STUDIO_DEFAULT_VOICE_ID);
  const [paragraphVoiceId, setParagraphVoiceId] = useState(STUDIO_DEFAULT_VOICE_ID);
  const [modelId, setModelId] = useState(STUDIO_DEFAULT_MODEL_ID);
  const [quality, setQuality] = useState<QualityPreset>('standard');
  const [upload, setUpload] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [details, setDetails] = useState<StudioProjectDetails>(NO_DETAILS);
  const detail = (patch: Partial<StudioProjectDetails>) =>
    setDetails((current) => ({ ...current, ...patch }));

  const speaking = models.filter((m) => m.can_do_text_to_speech && !('alias_of' in m && m.alias_of));
  const chosenName = name.trim() || (source === 'document' && file ? file.name.replace(/\.[^.]+$/, '') : '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (source === 'document' && !file) return setProblem('Choose a document to import.');
    if (source === 'url' && !url.trim()) return setProblem('Enter the address of the page to import.');
    if (!chosenName) return setProblem('The project needs a name.');
    // A default voice the model cannot speak would only fail at conversion: it is flagged under its picker.
    if (
      unspeakableVoiceMessage(titleVoiceId, voices, models, modelId) ||
      unspeakableVoiceMessage(paragraphVoiceId, voices, models, modelId)
    )
      return setProblem('Pick title and paragraph voices the chosen model speaks.');
    setUpload(0);
    create.mutate(
      {
        name: chosenName,
        source:
          source === 'document' && file
            ? { kind: 'document', file }
            : source === 'url'
              ? { kind: 'url', url }
              : { kind: 'empty' },
        titleVoiceId,
        paragraphVoiceId,
        modelId,
        qualityPreset: quality,
        details,
        onProgress: setUpload,
      },
      {
        onSuccess: (answer) => {
          setUpload(null);
          setName('');
          setFile(null);
          setUrl('');
          setDetails(NO_DETAILS);
          onOpenChange(false);
          onCreated(answer.project.project_id);
        },
        onError: (error) => {
          setUpload(null);
          setProblem(getToastMessage(error));
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !create.isPending && onOpenChange(next)}
      title="New project"
      description="Import a book or an article, or start from an empty page. Every paragraph keeps its own voice."
      size="lg"
    >
      <form id={`${id}-form`} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <SegmentedControl
          label="Start from"
          options={[
            { value: 'document', label: 'Document' },
            { value: 'url', label: 'Web page' },
            { value: 'empty', label: 'Empty' },
          ]}
          value={source}
          onChange={setSource}
        />
        {source === 'document' && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-file`} className="text-sm font-medium">
              Document file
            </label>
            <input
              id={`${id}-file`}
              type="file"
              accept={STUDIO_DOCUMENT_ACCEPT}
              className="min-w-0 max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-line file:bg-subtle file:px-3 file:py-1.5 file:text-fg"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              aria-describedby={`${id}-file-note`}
            />
            <p id={`${id}-file-note`} className="text-xs text-fg-muted">
              EPUB, PDF, Word (.docx), HTML, Markdown or plain text. Chapters come from the book’s table of
              contents or its headings.
            </p>
          </div>
        )}
        {source === 'url' && (
          <TextField
            label="Page address"
            type="url"
            inputMode="url"
            placeholder="https://example.com/article"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        )}
        <TextField
          label="Name"
          placeholder={source === 'document' && file ? file.name.replace(/\.[^.]+$/, '') : 'My audiobook'}
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={255}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <ModelVoicePicker
            label="Title voice"
            voices={voices}
            models={models}
            modelId={modelId}
            voiceId={titleVoiceId}
            onSelect={(voice) => setTitleVoiceId(voice.voice_id)}
          />
          <ModelVoicePicker
            label="Paragraph voice"
            voices={voices}
            models={models}
            modelId={modelId}
            voiceId={paragraphVoiceId}
            onSelect={(voice) => setParagraphVoiceId(voice.voice_id)}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-model`} className="text-sm font-medium">
              Model
            </label>
            <select
              id={`${id}-model`}
              className={inputClasses}
              value={modelId}
              onChange={(event) => setModelId(event.target.value)}
            >
              {speaking.length === 0 && <option value={modelId}>{modelId}</option>}
              {speaking.map((m) => (
                <option key={m.model_id} value={m.model_id}>
                  {m.name}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-quality`} className="text-sm font-medium">
              Quality
            </label>
            <select
              id={`${id}-quality`}
              className={inputClasses}
              value={quality}
              onChange={(event) => setQuality(event.target.value as QualityPreset)}
            >
              {QUALITY_PRESETS.map((preset) => (
                <option key={preset} value={preset}>
                  {QUALITY_LABELS[preset]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <details className="rounded-lg border border-line p-3">
          <summary className="cursor-pointer text-sm font-medium">Audiobook details</summary>
          <div className="mt-3 flex flex-col gap-3">
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label="Book title"
                value={details.title}
                onChange={(e) => detail({ title: e.target.value })}
              />
              <TextField
                label="Author"
                value={details.author}
                onChange={(e) => detail({ author: e.target.value })}
              />
              <TextField
                label="ISBN"
                value={details.isbn}
                onChange={(e) => detail({ isbn: e.target.value })}
              />
              <TextField
                label="Language"
                placeholder="en"
                value={details.language}
                onChange={(e) => detail({ language: e.target.value })}
              />
              <TextField
                label="Genres"
                description="Separated by commas."
                value={details.genres}
                onChange={(e) => detail({ genres: e.target.value })}
              />
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-audience`} className="text-sm font-medium">
                  Target audience
                </label>
                <select
                  id={`${id}-audience`}
                  className={inputClasses}
                  value={details.targetAudience}
                  onChange={(e) => detail({ targetAudience: e.target.value })}
                >
                  {TARGET_AUDIENCES.map((audience) => (
                    <option key={audience} value={audience}>
                      {audience}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-description`} className="text-sm font-medium">
                Description
              </label>
              <textarea
                id={`${id}-description`}
                className={textareaClasses}
                rows={3}
                value={details.description}
                onChange={(e) => detail({ description: e.target.value })}
              />
            </div>
            <Switch
              label="Mature content"
              checked={details.matureContent}
              onCheckedChange={(checked) => detail({ matureContent: checked })}
            />
            <Switch
              label="ACX normalisation"
              description="Brings each chapter to ACX’s loudness (RMS −23 to −18 dB, peaks at most −3 dB)."
              checked={details.acxVolumeNormalization}
              onCheckedChange={(checked) => detail({ acxVolumeNormalization: checked })}
            />
            <Switch
              label="Volume normalisation"
              checked={details.volumeNormalization}
              onCheckedChange={(checked) => detail({ volumeNormalization: checked })}
            />
          </div>
        </details>
        {upload !== null && source === 'document' && (
          <ProgressBar label="Uploading the document" value={upload} />
        )}
        {problem && <FormMessage>{problem}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button
            type="button"
            variant="secondary"
            disabled={create.isPending}
            onClick={() => onOpenChange(false)}
          >
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create project'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

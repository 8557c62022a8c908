import {
  MAX_PRONUNCIATION_LOCATORS,
  type ModelResponse,
  STUDIO_MAX_COVER_BYTES,
  type StudioProjectExtended,
  type VoiceResponse,
} from '@parla/contracts';
import { clsx } from 'clsx';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { FormMessage, TextField } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { useDictionaries } from '../../pronunciation-dictionaries';
import {
  useDeleteStudioCover,
  useSetStudioDictionaries,
  useUpdateStudioProject,
  useUploadStudioCover,
} from '../api/studio-api';
import { ModelVoicePicker } from './model-voice-picker';
import { QUALITY_LABELS } from './new-project-dialog';
import { ProjectCover } from './project-cover';

/**
 * Project settings (issue 30 item 3), saved with the project's update call (name, default voices, title,
 * author, ISBN, volume normalisation) and its dictionaries call (up to three of the workspace's). What the
 * API sets only when a project is made (quality, description, genres, language, audience, mature content,
 * ACX normalisation) is shown as it is.
 */
export function ProjectSettingsDialog({
  open,
  onOpenChange,
  project,
  voices,
  models,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  project: StudioProjectExtended;
  voices: readonly VoiceResponse[];
  models: readonly ModelResponse[];
}) {
  const id = useId();
  const { toast } = useToast();
  const update = useUpdateStudioProject(project.project_id);
  const setDictionaries = useSetStudioDictionaries(project.project_id);
  const dictionaries = useDictionaries(false);
  const [form, setForm] = useState(() => formOf(project));
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  // Each opening starts from the project as saved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above.
  useEffect(() => {
    if (!open) return;
    setForm(formOf(project));
    setChosen(project.pronunciation_dictionary_locators.map((l) => l.pronunciation_dictionary_id));
    setProblem(null);
  }, [open]);

  const all = dictionaries.data?.pages.flatMap((page) => page.pronunciation_dictionaries) ?? [];
  const set = (patch: Partial<ReturnType<typeof formOf>>) => setForm((current) => ({ ...current, ...patch }));
  const pending = update.isPending || setDictionaries.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      await update.mutateAsync({
        name: form.name,
        default_title_voice_id: form.titleVoiceId,
        default_paragraph_voice_id: form.paragraphVoiceId,
        title: form.title.trim() || null,
        author: form.author.trim() || null,
        isbn_number: form.isbn.trim() || null,
        volume_normalization: form.volumeNormalization,
      });
      const before = project.pronunciation_dictionary_locators.map((l) => l.pronunciation_dictionary_id);
      if (before.join() !== chosen.join())
        await setDictionaries.mutateAsync(
          chosen.map((dictionaryId) => ({
            pronunciation_dictionary_id: dictionaryId,
            version_id: all.find((d) => d.id === dictionaryId)?.latest_version_id ?? null,
          })),
        );
      toast({ title: 'Settings saved', variant: 'success' });
      onOpenChange(false);
    } catch (error) {
      setProblem(getToastMessage(error));
    }
  };

  const fixed: [string, string][] = [
    ['Quality', QUALITY_LABELS[project.quality_preset]],
    ['Description', project.description || '—'],
    ['Genres', project.genres.join(', ') || '—'],
    ['Language', project.language ?? '—'],
    ['Target audience', project.target_audience],
    ['Mature content', project.mature_content ? 'Yes' : 'No'],
    ['ACX normalisation', project.acx_volume_normalization ? 'On' : 'Off'],
  ];

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !pending && onOpenChange(next)}
      title="Project settings"
      size="xl"
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <TextField
          label="Project name"
          value={form.name}
          onChange={(event) => set({ name: event.target.value })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <ModelVoicePicker
            label="Title voice"
            voices={voices}
            models={models}
            modelId={project.default_model_id}
            voiceId={form.titleVoiceId}
            onSelect={(voice) => set({ titleVoiceId: voice.voice_id })}
          />
          <ModelVoicePicker
            label="Paragraph voice"
            voices={voices}
            models={models}
            modelId={project.default_model_id}
            voiceId={form.paragraphVoiceId}
            onSelect={(voice) => set({ paragraphVoiceId: voice.voice_id })}
          />
        </div>
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 text-sm font-semibold">Audiobook</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Title"
              value={form.title}
              onChange={(event) => set({ title: event.target.value })}
            />
            <TextField
              label="Author"
              value={form.author}
              onChange={(event) => set({ author: event.target.value })}
            />
            <TextField
              label="ISBN"
              value={form.isbn}
              onChange={(event) => set({ isbn: event.target.value })}
            />
          </div>
          <CoverField project={project} />
          <Switch
            label="Volume normalisation"
            description="Evens out the loudness of the chapters when they are converted."
            checked={form.volumeNormalization}
            onCheckedChange={(checked) => set({ volumeNormalization: checked })}
          />
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {fixed.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-fg-muted">{name}</dt>
                <dd className="min-w-0 break-words">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="text-xs text-fg-muted">These are set when the project is created.</p>
        </fieldset>
        <fieldset className="flex flex-col gap-2" aria-describedby={`${id}-dict-note`}>
          <legend className="mb-1 text-sm font-semibold">Pronunciation dictionaries</legend>
          <p id={`${id}-dict-note`} className="text-xs text-fg-muted">
            Up to {MAX_PRONUNCIATION_LOCATORS}, applied in order when the project is converted.
          </p>
          {dictionaries.isPending ? (
            <p className="text-sm text-fg-muted">Loading dictionaries…</p>
          ) : all.length === 0 ? (
            <p className="text-sm text-fg-muted">The workspace has no pronunciation dictionaries yet.</p>
          ) : (
            <ul className="flex max-h-40 flex-col gap-1 overflow-y-auto">
              {all.map((dictionary) => {
                const on = chosen.includes(dictionary.id);
                return (
                  <li key={dictionary.id}>
                    <label className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={on}
                        disabled={!on && chosen.length >= MAX_PRONUNCIATION_LOCATORS}
                        onChange={() =>
                          setChosen((current) =>
                            on ? current.filter((d) => d !== dictionary.id) : [...current, dictionary.id],
                          )
                        }
                      />
                      <span className="min-w-0 truncate">{dictionary.name}</span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </fieldset>
        {problem && <FormMessage>{problem}</FormMessage>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving…' : 'Save settings'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The audiobook's cover: uploaded as soon as it is chosen (its own call, not the settings' save), PNG or
 * JPEG up to 10 MB; the server reads the kind from the file's bytes and its refusal shows here.
 */
function CoverField({ project }: { project: StudioProjectExtended }) {
  const id = useId();
  const upload = useUploadStudioCover(project.project_id);
  const remove = useDeleteStudioCover(project.project_id);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = upload.isPending || remove.isPending;
  const choose = (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    if (file.size > STUDIO_MAX_COVER_BYTES)
      return setProblem(
        `The cover image is larger than ${STUDIO_MAX_COVER_BYTES / 1024 / 1024} MB, the most a project takes.`,
      );
    upload.mutate(file, { onError: (error) => setProblem(getToastMessage(error)) });
  };
  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium">
        Cover image
      </span>
      <div className="flex flex-wrap items-center gap-4">
        <ProjectCover
          project={project}
          className="w-24"
          label={project.cover_image_url ? 'The cover image' : 'No cover image yet'}
        />
        <div className="flex min-w-0 flex-col gap-2">
          <div className="flex flex-wrap gap-2">
            <label
              className={clsx(
                'inline-flex h-9 cursor-pointer items-center rounded-md border border-line bg-surface px-3 text-sm font-medium',
                'focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-accent hover:bg-subtle',
                busy && 'pointer-events-none opacity-60',
              )}
            >
              {upload.isPending ? 'Uploading…' : project.cover_image_url ? 'Replace cover' : 'Upload cover'}
              <input
                type="file"
                accept="image/png,image/jpeg"
                className="sr-only"
                aria-describedby={`${id}-note`}
                disabled={busy}
                onChange={(event) => {
                  choose(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
            </label>
            {project.cover_image_url && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                disabled={busy}
                onClick={() =>
                  remove.mutate(undefined, { onError: (error) => setProblem(getToastMessage(error)) })
                }
              >
                Remove cover
              </Button>
            )}
          </div>
          <p id={`${id}-note`} className="text-xs text-fg-muted">
            PNG or JPEG, up to {STUDIO_MAX_COVER_BYTES / 1024 / 1024} MB; square, 2400 × 2400 px for ACX. It
            is the exported book’s cover art.
          </p>
        </div>
      </div>
      {problem && <FormMessage>{problem}</FormMessage>}
    </div>
  );
}

function formOf(project: StudioProjectExtended) {
  return {
    name: project.name,
    titleVoiceId: project.default_title_voice_id,
    paragraphVoiceId: project.default_paragraph_voice_id,
    title: project.title ?? '',
    author: project.author ?? '',
    isbn: project.isbn_number ?? '',
    volumeNormalization: project.volume_normalization,
  };
}

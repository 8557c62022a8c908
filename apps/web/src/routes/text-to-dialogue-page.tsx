import { DEFAULT_DIALOGUE_MODEL_ID, DIALOGUE_MAX_VOICES } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent, KeyboardEvent } from 'react';
import { useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { streamDialogue } from '../features/dialogue/api/stream-dialogue';
import { DialogueEditor } from '../features/dialogue/components/dialogue-editor';
import { countDialogueCharacters, type DraftLine, linesToSend } from '../features/dialogue/dialogue-rules';
import { useStoredDialogue } from '../features/dialogue/use-stored-dialogue';
import { generationPlayback } from '../features/player/player-item';
import { usePlayer } from '../features/player/use-player';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { CatalogueState } from '../features/tts/components/catalogue-state';
import { ModelSelect } from '../features/tts/components/model-select';
import {
  estimateCredits,
  generationFileName,
  isGenerateShortcut,
  modelSpeaksVoice,
  ownModelId,
  ownModels,
  pickStored,
  remainingCredits,
} from '../features/tts/tts-rules';
import { useUser } from '../features/users/api/get-user';
import { useToast } from '../lib/toasts/use-toast';
import { Card } from '../ui/card';
import { CreditCount, formatCredits, GenerateBar } from '../ui/generate-bar';
import { Skeleton } from '../ui/skeleton';

const numbers = new Intl.NumberFormat('en-US');

/** Audio tags the model of audio tags reads (shown as a hint; any [tag] may be written). */
const TAG_EXAMPLES = ['[laughs]', '[whispers]', '[sighs]', '[excited]', '[short pause]'];

/** `/app/speech-synthesis/text-to-dialogue` (history/voices §1, §5): several voices, one conversation. */
export default function TextToDialoguePage() {
  return (
    <RequireSignIn>
      <TextToDialogue />
    </RequireSignIn>
  );
}

function TextToDialogue() {
  const models = useModels();
  const voices = useVoices();
  const user = useUser();
  const player = usePlayer();
  const queryClient = useQueryClient();
  const { toastError } = useToast();
  const [lines, setLines] = useStoredDialogue();
  const [chosenModelId, setChosenModelId] = useState<string | null>(null);

  // Parla's own models; the public API's default (eleven_v3) is the one it is an alias of (audio tags).
  const catalogue = models.data ?? [];
  const modelList = ownModels(catalogue).filter((m) => m.can_do_text_to_speech);
  const voiceList = voices.data ?? [];
  const modelId = pickStored(
    chosenModelId,
    modelList.map((m) => m.model_id),
    ownModelId(catalogue, DEFAULT_DIALOGUE_MODEL_ID),
  );
  const model = modelList.find((m) => m.model_id === modelId);
  const tagsModel = modelList.find((m) => m.model_id === ownModelId(catalogue, DEFAULT_DIALOGUE_MODEL_ID));

  const inputs = linesToSend(lines);
  const characters = countDialogueCharacters(lines);
  const maxCharacters = model?.maximum_text_length_per_request ?? 3000;
  const credits = estimateCredits(inputs.map((line) => line.text).join(''), model);
  const subscription = user.data?.subscription;
  const left = subscription ? remainingCredits(subscription) : undefined;
  const short = left !== undefined && left !== -1 && credits > left;
  const tooLong = characters > maxCharacters;
  const voiceCount = new Set(inputs.map((line) => line.voice_id)).size;
  const tooManyVoices = voiceCount > DIALOGUE_MAX_VOICES;

  const lineProblem = (line: DraftLine): string | undefined => {
    const voice = voiceList.find((v) => v.voice_id === line.voice_id);
    if (!voice) return voices.isSuccess ? 'Choose a voice for this line.' : undefined;
    if (model && !modelSpeaksVoice(model, voice))
      return `${model.name} does not speak the language of ${voice.name}. Pick another voice or model.`;
    return undefined;
  };
  const hasLineProblem = lines.some((line) => line.text.trim() !== '' && lineProblem(line));

  const generate = useMutation({
    mutationFn: async () => {
      if (!model) throw new Error('Choose a model first.');
      const outputFormat = 'mp3_44100_128';
      const started = await streamDialogue({ outputFormat, body: { inputs, model_id: model.model_id } });
      const names = [
        ...new Set(inputs.map((line) => voiceList.find((v) => v.voice_id === line.voice_id)?.name)),
      ]
        .filter(Boolean)
        .join(', ');
      const text = inputs.map((line) => line.text).join('\n');
      player.play(
        ...generationPlayback(started, {
          outputFormat,
          fileName: generationFileName({
            voice_name: 'Dialogue',
            text,
            date_unix: Math.floor(Date.now() / 1000),
          }),
          title: names ? `Dialogue · ${names}` : 'Dialogue',
          text,
          voice: voiceList.find((v) => v.voice_id === inputs[0]?.voice_id),
        }),
      );
    },
    onSuccess: () => {
      // The credits were reserved when the generation started.
      void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
    },
    // toastError reads the message of an HttpError itself (the §8 rules).
    onError: (error) => toastError(error),
  });

  const blocked = inputs.length === 0 || !model || tooLong || short || tooManyVoices || hasLineProblem;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocked && !generate.isPending) generate.mutate();
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (isGenerateShortcut(event.nativeEvent)) {
      event.preventDefault();
      event.currentTarget.requestSubmit();
    }
  };

  const catalogueFailed = models.isError || voices.isError;
  const loading = models.isPending || voices.isPending;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Text to dialogue</h1>
          <p className="text-sm text-fg-muted">
            Write a conversation line by line, give each line a voice, and hear it played as one take.
          </p>
        </div>
        <Link
          to="/app/speech-synthesis/text-to-speech"
          className="text-sm font-medium text-fg-muted hover:text-fg hover:underline"
        >
          One voice? Text to speech →
        </Link>
      </header>

      <form
        className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
        onSubmit={handleSubmit}
        onKeyDown={handleKeyDown}
        aria-label="Generate dialogue"
      >
        <Card className="flex flex-col">
          <CatalogueState
            failed={catalogueFailed}
            pending={loading}
            onRetry={() => {
              void models.refetch();
              void voices.refetch();
            }}
            skeletons={['h-24 w-full', 'h-24 w-full']}
            className="p-5"
          >
            <DialogueEditor lines={lines} onChange={setLines} voices={voiceList} lineProblem={lineProblem} />
          </CatalogueState>
          <GenerateBar
            live
            label="Generate dialogue"
            pendingLabel="Generating…"
            pending={generate.isPending}
            blocked={blocked}
            shortcut
          >
            <span className={tooLong ? 'text-danger' : undefined}>
              {numbers.format(characters)} / {numbers.format(maxCharacters)} characters
            </span>
            <CreditCount left={left} short={short}>
              {formatCredits(credits)}
            </CreditCount>
            <span className={tooManyVoices ? 'text-danger' : undefined}>
              {voiceCount} / {DIALOGUE_MAX_VOICES} voices
            </span>
          </GenerateBar>
          {(tooLong || short || tooManyVoices) && (
            <p role="alert" className="border-t border-line px-5 py-3 text-sm text-danger">
              {tooLong &&
                `The lines are ${numbers.format(characters)} characters long in all; ${model?.name ?? 'this model'} takes at most ${numbers.format(maxCharacters)}. `}
              {short &&
                `This dialogue needs ${numbers.format(credits)} credits and ${numbers.format(left ?? 0)} are left this period. `}
              {tooManyVoices && `A dialogue uses at most ${DIALOGUE_MAX_VOICES} different voices.`}
            </p>
          )}
        </Card>

        <Card className="flex flex-col gap-5 self-start p-5">
          {loading && !catalogueFailed ? (
            <Skeleton className="h-20 w-full" />
          ) : (
            <ModelSelect models={modelList} value={modelId} onChange={setChosenModelId} />
          )}
          <div className="flex flex-col gap-2">
            <h2 className="text-sm font-medium">Audio tags</h2>
            <p className="text-xs text-fg-muted">
              With {tagsModel?.name ?? 'a model that reads audio tags'}, a tag in brackets sets how a line is
              delivered instead of being read aloud.
            </p>
            <ul className="flex flex-wrap gap-1.5" aria-label="Examples of audio tags">
              {TAG_EXAMPLES.map((tag) => (
                <li key={tag}>
                  <code className="rounded-md border border-line bg-subtle px-1.5 py-0.5 text-xs">{tag}</code>
                </li>
              ))}
            </ul>
          </div>
          <p className="text-xs text-fg-muted">
            Your lines stay in this browser until you sign out. Empty lines are left out when you generate.
          </p>
        </Card>
      </form>
    </div>
  );
}

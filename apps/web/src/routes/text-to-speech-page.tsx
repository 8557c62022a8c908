import type { HistoryItemResponse, VoiceResponse } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { generationPlayback, historyItemPlayback } from '../features/player/player-item';
import { usePlayer } from '../features/player/use-player';
import { useDefaultVoiceSettings } from '../features/tts/api/get-default-voice-settings';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { streamSpeech } from '../features/tts/api/stream-speech';
import { CatalogueState } from '../features/tts/components/catalogue-state';
import { LanguageNotice } from '../features/tts/components/language-notice';
import { ModelSelect } from '../features/tts/components/model-select';
import { RecentGenerations } from '../features/tts/components/recent-generations';
import { SpeakAsYouType } from '../features/tts/components/speak-as-you-type';
import { VoiceSettingsPanel } from '../features/tts/components/voice-settings-panel';
import { languageNotice } from '../features/tts/language-notice-rules';
import {
  defaultModelFor,
  defaultVoiceOf,
  type EditableVoiceSettings,
  estimateCredits,
  fallbackVoiceSettings,
  generationFileName,
  isGenerateShortcut,
  modelSpeaksVoice,
  ownModelId,
  ownModels,
  pickStored,
  remainingCredits,
} from '../features/tts/tts-rules';
import { useDetectedLanguage } from '../features/tts/use-detected-language';
import { useSpeakAsYouType } from '../features/tts/use-speak-as-you-type';
import { useTextDraft } from '../features/tts/use-text-draft';
import { useUser } from '../features/users/api/get-user';
import { languageName, VoicePicker } from '../features/voices';
import { readStorage, storageKeys, writeStorage } from '../lib/storage-keys';
import { useToast } from '../lib/toasts/use-toast';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { CreditCount, formatCredits, GenerateBar } from '../ui/generate-bar';

const numbers = new Intl.NumberFormat('en-US');

/** `/app/speech-synthesis/text-to-speech` (history/voices §2 speech synthesis): text in, speech out. */
export default function TextToSpeechPage() {
  return (
    <RequireSignIn>
      <TextToSpeech />
    </RequireSignIn>
  );
}

function TextToSpeech() {
  const models = useModels();
  const voices = useVoices();
  const defaults = useDefaultVoiceSettings();
  const user = useUser();
  const player = usePlayer();
  const queryClient = useQueryClient();
  const { toastError } = useToast();
  const textId = useId();

  const [text, setText] = useTextDraft(user.data?.user_id);
  const [chosenModelId, setChosenModelId] = useState(() => readStorage(storageKeys.selectedModel));
  const [chosenVoiceId, setChosenVoiceId] = useState(() => readStorage(storageKeys.selectedVoice));
  const [editedSettings, setEditedSettings] = useState<EditableVoiceSettings | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [pickerLanguage, setPickerLanguage] = useState<string | undefined>(undefined);
  const [readIn, setReadIn] = useState<string | null>(null);

  // Parla's own models; a choice stored as a public id (before issue 26) is the model it is an alias of.
  const modelList = ownModels(models.data ?? []).filter((m) => m.can_do_text_to_speech);
  const voiceList = voices.data ?? [];
  // A neural voice by default (issue 27), and the neural model when the voice has a neural version.
  const voiceId = pickStored(
    chosenVoiceId,
    voiceList.map((v) => v.voice_id),
    defaultVoiceOf(voiceList)?.voice_id ?? '',
  );
  const voice = voiceList.find((v) => v.voice_id === voiceId);
  const offeredModels = modelList.map((m) => m.model_id);
  const modelId = pickStored(
    ownModelId(models.data ?? [], chosenModelId),
    offeredModels,
    defaultModelFor(offeredModels, voice),
  );
  const model = modelList.find((m) => m.model_id === modelId);
  const serverDefaults = { ...fallbackVoiceSettings, ...withoutNulls(defaults.data ?? {}) };
  const settings = editedSettings ?? serverDefaults;

  const maxLength = model?.maximum_text_length_per_request ?? 10_000;
  const credits = estimateCredits(text, model);
  const subscription = user.data?.subscription;
  const left = subscription ? remainingCredits(subscription) : undefined;
  const short = left !== undefined && left !== -1 && credits > left;
  const languageMismatch = model && voice ? !modelSpeaksVoice(model, voice) : false;
  // issue 18: the text's language against the voice's; "read it in …" holds while the text stays in it.
  const detected = useDetectedLanguage(text);
  const languageCode = readIn && detected?.language === readIn ? readIn : undefined;
  const notice = languageCode ? { kind: 'none' as const } : languageNotice(detected, voice, model);

  const generate = useMutation({
    mutationFn: async () => {
      if (!voice || !model) throw new Error('Choose a voice and a model first.');
      const outputFormat = 'mp3_44100_128';
      const started = await streamSpeech({
        voiceId: voice.voice_id,
        outputFormat,
        body: {
          text,
          model_id: model.model_id,
          voice_settings: settings,
          ...(languageCode ? { language_code: languageCode } : {}),
        },
      });
      player.play(
        ...generationPlayback(started, {
          outputFormat,
          fileName: generationFileName({
            voice_name: voice.name,
            text,
            date_unix: Math.floor(Date.now() / 1000),
          }),
          title: voice.name,
          text,
          voice,
        }),
      );
    },
    onSuccess: () => {
      // The credits were reserved when the generation started.
      void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
    },
    onError: (error) => toastError(error),
  });

  const speakAsYouType = useSpeakAsYouType({
    text,
    voiceId: voice?.voice_id,
    modelId: model?.model_id,
    settings,
  });
  const liveUnavailable =
    !voice || !model
      ? 'Choose a voice and a model first.'
      : languageMismatch
        ? 'Pick a model that speaks the voice’s language first.'
        : typeof WebSocket === 'undefined' || typeof AudioContext === 'undefined'
          ? 'This browser cannot play speech as it arrives.'
          : null;

  const blocked = !text.trim() || !voice || !model || text.length > maxLength || short || languageMismatch;
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
  const selectModel = (id: string) => {
    setChosenModelId(id);
    writeStorage(storageKeys.selectedModel, id);
  };
  const selectVoice = (next: VoiceResponse) => {
    setChosenVoiceId(next.voice_id);
    writeStorage(storageKeys.selectedVoice, next.voice_id);
    setReadIn(null);
  };
  const openPicker = (language?: string) => {
    setPickerLanguage(language);
    setPickerOpen(true);
  };
  const playHistoryItem = (item: HistoryItemResponse) => {
    player.play(...historyItemPlayback(item, generationFileName(item)));
  };

  const catalogueFailed = models.isError || voices.isError;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Text to speech</h1>
        <p className="text-sm text-fg-muted">
          Type or paste text, pick a voice and a model, and hear it spoken as it is generated.{' '}
          <Link to="/app/speech-synthesis/text-to-dialogue" className="font-medium text-fg hover:underline">
            Several voices? Write a dialogue →
          </Link>
        </p>
      </header>

      {/* items-start: the text card keeps its own height instead of growing to the settings column's,
          which pushed its Generate button below the fold at 1440×900 (issue 26 item 7). */}
      <form
        className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
        onSubmit={handleSubmit}
        onKeyDown={handleKeyDown}
        aria-label="Generate speech"
      >
        <Card className="flex flex-col">
          <label htmlFor={textId} className="sr-only">
            Text
          </label>
          <textarea
            id={textId}
            name="text"
            value={text}
            maxLength={maxLength}
            onChange={(event) => setText(event.target.value)}
            placeholder="Start typing here or paste any text you want to turn into lifelike speech…"
            aria-describedby={`${textId}-count`}
            className="min-h-72 w-full flex-1 resize-y rounded-t-xl bg-transparent p-5 text-base leading-7 text-fg placeholder:text-fg-muted/70 focus-visible:outline-none lg:min-h-96"
          />
          <GenerateBar
            countsId={`${textId}-count`}
            label="Generate speech"
            pendingLabel="Generating…"
            pending={generate.isPending}
            blocked={blocked}
            shortcut
          >
            <span>
              {numbers.format(text.length)} / {numbers.format(maxLength)} characters
            </span>
            <CreditCount left={left} short={short}>
              {formatCredits(credits)}
            </CreditCount>
          </GenerateBar>
          <SpeakAsYouType
            status={speakAsYouType.status}
            error={speakAsYouType.error}
            spoken={speakAsYouType.spoken}
            audioSeconds={speakAsYouType.audioSeconds}
            speaking={speakAsYouType.speaking}
            unavailable={liveUnavailable}
            onTurnOn={() => void speakAsYouType.turnOn()}
            onTurnOff={speakAsYouType.turnOff}
          />
          {short && (
            <p role="alert" className="border-t border-line px-5 py-3 text-sm text-danger">
              This text needs {numbers.format(credits)} credits and {numbers.format(left ?? 0)} are left this
              period. Shorten the text or pick a model that costs less.
            </p>
          )}
        </Card>

        <Card className="flex flex-col gap-5 p-5">
          <CatalogueState
            failed={catalogueFailed}
            pending={models.isPending || voices.isPending}
            onRetry={() => {
              void models.refetch();
              void voices.refetch();
            }}
            skeletons={['h-14 w-full', 'h-10 w-full', 'h-48 w-full']}
          >
            <VoicePicker
              voices={voiceList}
              selected={voice}
              onSelect={selectVoice}
              open={pickerOpen}
              onOpenChange={(next) => {
                setPickerOpen(next);
                if (!next) setPickerLanguage(undefined);
              }}
              {...(pickerLanguage ? { presetLanguage: pickerLanguage } : {})}
            />
            <LanguageNotice
              notice={notice}
              voice={voice}
              voices={voiceList}
              onSelect={selectVoice}
              onShowAll={openPicker}
              onReadIn={setReadIn}
            />
            {languageCode && voice && (
              <p className="flex flex-wrap items-center gap-x-2 text-sm text-fg-muted" aria-live="polite">
                {voice.name} reads this text in {languageName(languageCode)}.
                <Button variant="ghost" size="sm" onClick={() => setReadIn(null)}>
                  Undo
                </Button>
              </p>
            )}
            <ModelSelect models={modelList} value={modelId} onChange={selectModel} />
            {languageMismatch && model && voice && (
              <p role="alert" className="text-sm text-danger">
                {model.name} does not speak {voice.name}’s language or has no version of {voice.name}. Pick
                another model or voice.
              </p>
            )}
            <VoiceSettingsPanel
              value={settings}
              onChange={setEditedSettings}
              onReset={() => setEditedSettings(null)}
              model={model}
              voice={voice}
            />
          </CatalogueState>
        </Card>
      </form>

      <RecentGenerations onPlay={playHistoryItem} playingId={player.state.item?.id ?? null} />
    </div>
  );
}

function withoutNulls<T extends Record<string, unknown>>(
  value: T,
): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as Partial<{
    [K in keyof T]: NonNullable<T[K]>;
  }>;
}

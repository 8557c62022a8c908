import { DEFAULT_STS_MODEL_ID, type HistoryItemResponse } from '@parla/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { generationPlayback, historyItemPlayback } from '../features/player/player-item';
import { usePlayer } from '../features/player/use-player';
import { streamSpeechToSpeech } from '../features/sts/api/stream-speech-to-speech';
import { type AudioClip, AudioInput, type AudioInputProps } from '../features/sts/components/audio-input';
import { RecentConversions } from '../features/sts/components/recent-conversions';
import { checkClipLength, estimateConversionCredits } from '../features/sts/sts-rules';
import { useModels } from '../features/tts/api/list-models';
import { useVoices } from '../features/tts/api/list-voices';
import { CatalogueState } from '../features/tts/components/catalogue-state';
import { ModelSelect } from '../features/tts/components/model-select';
import {
  generationFileName,
  ownModelId,
  ownModels,
  pickStored,
  remainingCredits,
} from '../features/tts/tts-rules';
import { useUser } from '../features/users/api/get-user';
import { VoicePicker } from '../features/voices';
import { useToast } from '../lib/toasts/use-toast';
import { Card } from '../ui/card';
import { CreditCount, formatCredits, GenerateBar } from '../ui/generate-bar';
import { Switch } from '../ui/switch';

const numbers = new Intl.NumberFormat('en-US');

/**
 * `/app/speech-synthesis/speech-to-speech` (issue 7 item 7, the voice changer): a recording, chosen or made
 * here, said again in another voice.
 */
export default function SpeechToSpeechPage() {
  return (
    <RequireSignIn>
      <SpeechToSpeech />
    </RequireSignIn>
  );
}

function SpeechToSpeech() {
  const models = useModels();
  const voices = useVoices();
  const user = useUser();
  const player = usePlayer();
  const queryClient = useQueryClient();
  const { toastError } = useToast();

  const [clip, setClip] = useState<AudioClip | null>(null);
  const [chosenModelId, setChosenModelId] = useState<string | null>(null);
  const [chosenVoiceId, setChosenVoiceId] = useState<string | null>(null);
  const [removeNoise, setRemoveNoise] = useState(false);

  // The clip's object URL lives as long as the clip.
  const clipUrl = clip?.url;
  useEffect(() => (clipUrl ? () => URL.revokeObjectURL(clipUrl) : undefined), [clipUrl]);

  // Parla's own voice changer; the public API's default id is an alias of it.
  const catalogue = models.data ?? [];
  const modelList = ownModels(catalogue).filter((m) => m.can_do_voice_conversion);
  const voiceList = voices.data ?? [];
  const modelId = pickStored(
    chosenModelId,
    modelList.map((m) => m.model_id),
    ownModelId(catalogue, DEFAULT_STS_MODEL_ID),
  );
  const model = modelList.find((m) => m.model_id === modelId);
  const voiceId = pickStored(
    chosenVoiceId,
    voiceList.map((v) => v.voice_id),
    voiceList[0]?.voice_id ?? '',
  );
  const voice = voiceList.find((v) => v.voice_id === voiceId);

  const seconds = clip?.seconds ?? null;
  const credits = estimateConversionCredits(seconds);
  const subscription = user.data?.subscription;
  const left = subscription ? remainingCredits(subscription) : undefined;
  const short = credits !== null && left !== undefined && left !== -1 && credits > left;
  const tooLong = checkClipLength(seconds) !== null;

  const convert = useMutation({
    mutationFn: async () => {
      if (!clip || !voice || !model) throw new Error('Choose a recording, a voice and a model first.');
      const outputFormat = 'mp3_44100_128';
      const started = await streamSpeechToSpeech({
        voiceId: voice.voice_id,
        outputFormat,
        audio: clip.blob,
        fileName: clip.fileName,
        fields: { model_id: model.model_id, remove_background_noise: removeNoise },
      });
      player.play(
        ...generationPlayback(started, {
          outputFormat,
          fileName: generationFileName({
            voice_name: voice.name,
            text: 'speech to speech',
            date_unix: Math.floor(Date.now() / 1000),
          }),
          title: `${voice.name} · speech to speech`,
          text: '',
          voice,
          type: 'speech-to-speech',
          // The conversion keeps the input's timing, so it is as long as the input.
          durationMs: clip.seconds === null ? undefined : Math.round(clip.seconds * 1000),
        }),
      );
    },
    onSuccess: () => {
      // The credits were reserved when the conversion started.
      void queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
    },
    onError: (error) => toastError(error),
  });

  const handleClipChange: AudioInputProps['onChange'] = (next) => {
    setClip(next ? { ...next, url: URL.createObjectURL(next.blob) } : null);
  };
  const handleDuration = (measured: number) => {
    setClip((current) =>
      current && current.seconds !== measured ? { ...current, seconds: measured } : current,
    );
  };
  const playHistoryItem = (item: HistoryItemResponse) => {
    player.play(...historyItemPlayback(item, generationFileName({ ...item, text: 'speech to speech' })));
  };

  const blocked = !clip || !voice || !model || short || tooLong;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!blocked && !convert.isPending) convert.mutate();
  };

  const catalogueFailed = models.isError || voices.isError;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Speech to speech</h1>
        <p className="text-sm text-fg-muted">
          Upload or record speech and hear it said again in another voice, with your timing and intonation.{' '}
          <Link to="/app/speech-synthesis/text-to-speech" className="font-medium text-fg hover:underline">
            Start from text? Text to speech →
          </Link>
        </p>
      </header>

      <form
        className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
        onSubmit={handleSubmit}
        aria-label="Convert speech"
      >
        <Card className="flex flex-col">
          <AudioInput
            clip={clip}
            onChange={handleClipChange}
            onDuration={handleDuration}
            disabled={convert.isPending}
          />
          <GenerateBar
            live
            label="Convert"
            pendingLabel="Converting…"
            pending={convert.isPending}
            blocked={blocked}
          >
            <CreditCount left={left} short={short}>
              {credits === null ? '1,000 credits a minute of audio' : formatCredits(credits)}
            </CreditCount>
          </GenerateBar>
          {short && (
            <p role="alert" className="border-t border-line px-5 py-3 text-sm text-danger">
              This recording needs {numbers.format(credits ?? 0)} credits and {numbers.format(left ?? 0)} are
              left this period. Use a shorter clip.
            </p>
          )}
        </Card>

        <Card className="flex flex-col gap-5 self-start p-5">
          <CatalogueState
            failed={catalogueFailed}
            pending={models.isPending || voices.isPending}
            onRetry={() => {
              void models.refetch();
              void voices.refetch();
            }}
            skeletons={['h-14 w-full', 'h-10 w-full']}
          >
            <VoicePicker
              voices={voiceList}
              selected={voice}
              onSelect={(next) => setChosenVoiceId(next.voice_id)}
            />
            {modelList.length === 0 ? (
              <p className="text-sm text-danger">This server offers no speech-to-speech model.</p>
            ) : (
              <ModelSelect
                models={modelList}
                value={modelId}
                onChange={setChosenModelId}
                capability="voice_conversion"
              />
            )}
          </CatalogueState>
          <Switch
            label="Remove background noise"
            checked={removeNoise}
            onCheckedChange={setRemoveNoise}
            description="Cleans the recording before it is converted. Leave it off for a clean studio take."
          />
          <div className="flex flex-col gap-1 rounded-lg bg-subtle/60 p-3 text-xs text-fg-muted">
            <h2 className="text-sm font-medium text-fg">What changes, what stays</h2>
            <p>
              The conversion keeps your recording’s timing and intonation and moves its pitch and tone to the
              target voice’s. It is not a neural voice: your accent and the way you speak stay as they are.
            </p>
          </div>
        </Card>
      </form>

      <RecentConversions onPlay={playHistoryItem} playingId={player.state.item?.id ?? null} />
    </div>
  );
}

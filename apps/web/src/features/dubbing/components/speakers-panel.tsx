import { useId, useState } from 'react';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { SpinnerIcon } from '../../../ui/icons';
import { useSimilarVoices } from '../api/get-similar-voices';
import { useVoiceName } from '../api/get-voice-name';
import type { SpeakerTrack } from '../api/types';
import { useUpdateSpeaker } from '../api/update-speaker';

/** The speakers (issue 29 item 3): rename one, or change its voice in the current language. */
export function SpeakersPanel({
  dubbingId,
  speakers,
  language,
  sourceLanguage,
  languageName,
}: {
  dubbingId: string;
  speakers: SpeakerTrack[];
  language: string;
  sourceLanguage: string;
  languageName: (code: string) => string;
}) {
  return (
    <section
      aria-label="Speakers"
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4"
    >
      <h2 className="text-base font-semibold">Speakers</h2>
      <ul className="flex flex-col divide-y divide-line">
        {speakers.map((speaker) => (
          <SpeakerRow
            key={speaker.id}
            dubbingId={dubbingId}
            speaker={speaker}
            language={language}
            sourceLanguage={sourceLanguage}
            languageName={languageName}
          />
        ))}
      </ul>
    </section>
  );
}

function SpeakerRow({
  dubbingId,
  speaker,
  language,
  sourceLanguage,
  languageName,
}: {
  dubbingId: string;
  speaker: SpeakerTrack;
  language: string;
  sourceLanguage: string;
  languageName: (code: string) => string;
}) {
  const id = useId();
  const { toast, toastError } = useToast();
  const update = useUpdateSpeaker(dubbingId);
  const [name, setName] = useState(speaker.speaker_name);
  const [picking, setPicking] = useState(false);
  const [voiceId, setVoiceId] = useState('');
  const voices = useSimilarVoices(dubbingId, speaker.id, picking);
  const isTarget = language !== sourceLanguage;
  const currentVoice = isTarget ? speaker.voices[language] : undefined;
  const currentVoiceName = useVoiceName(currentVoice);
  const rename = () =>
    update.mutate(
      { speakerId: speaker.id, speakerName: name.trim() },
      {
        onSuccess: () => toast({ title: 'Speaker renamed', variant: 'success' }),
        onError: (error) => toastError(error),
      },
    );
  const changeVoice = () =>
    update.mutate(
      { speakerId: speaker.id, voiceId, languages: [language] },
      {
        onSuccess: () => {
          setPicking(false);
          toast({
            title: 'Voice changed',
            description: 'Re-dub the speaker’s segments to hear it.',
            variant: 'success',
          });
        },
        onError: (error) => toastError(error),
      },
    );
  // The voice's name; while it loads, or when no voice is set, what the voice is for.
  const voiceName = (voice: string | undefined) =>
    voice
      ? (currentVoiceName.data ??
        voices.data?.find((entry) => entry.voice_id === voice)?.name ??
        (currentVoiceName.isPending ? '…' : voice))
      : 'matched to the speaker';
  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0">
      <form
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() && name.trim() !== speaker.speaker_name) rename();
        }}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-xs font-medium text-fg-muted">
            Speaker name
          </label>
          <input
            id={`${id}-name`}
            className={inputClasses}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <Button
          type="submit"
          variant="secondary"
          disabled={!name.trim() || name.trim() === speaker.speaker_name || update.isPending}
          aria-label={`Rename ${speaker.speaker_name}`}
        >
          Rename
        </Button>
      </form>
      {isTarget && (
        <div className="flex flex-col gap-2">
          <p className="text-xs text-fg-muted">
            Voice in {languageName(language)}: <span className="text-fg">{voiceName(currentVoice)}</span>
          </p>
          {!picking ? (
            <Button
              variant="ghost"
              size="sm"
              className="self-start"
              onClick={() => setPicking(true)}
              aria-label={`Change ${speaker.speaker_name}'s voice`}
            >
              Change voice
            </Button>
          ) : voices.isPending ? (
            <p className="flex items-center gap-2 text-xs text-fg-muted">
              <SpinnerIcon className="motion-safe:animate-spin" /> Finding similar voices…
            </p>
          ) : voices.isError ? (
            <p role="alert" className="text-xs text-danger">
              {getToastMessage(voices.error)}
            </p>
          ) : (
            <div className="flex flex-wrap items-end gap-2">
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <label htmlFor={`${id}-voice`} className="text-xs font-medium text-fg-muted">
                  Similar voices
                </label>
                <select
                  id={`${id}-voice`}
                  className={inputClasses}
                  value={voiceId}
                  onChange={(event) => setVoiceId(event.target.value)}
                >
                  <option value="" disabled>
                    Choose a voice
                  </option>
                  {voices.data.map((voice) => (
                    <option key={voice.voice_id} value={voice.voice_id}>
                      {voice.name}
                      {voice.description ? ` — ${voice.description}` : ''}
                    </option>
                  ))}
                </select>
              </div>
              <Button
                size="sm"
                className="h-10"
                disabled={!voiceId || update.isPending}
                onClick={changeVoice}
              >
                Use voice
              </Button>
              <Button variant="ghost" size="sm" className="h-10" onClick={() => setPicking(false)}>
                Cancel
              </Button>
            </div>
          )}
        </div>
      )}
    </li>
  );
}

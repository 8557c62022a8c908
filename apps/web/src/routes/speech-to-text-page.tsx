import { useEffect, useId, useRef, useState } from 'react';
import { RequireSignIn } from '../features/auth/components/require-sign-in';
import { LiveDictation } from '../features/speech-to-text/components/live-dictation';
import { TranscribeForm } from '../features/speech-to-text/components/transcribe-form';
import { TranscriptList } from '../features/speech-to-text/components/transcript-list';

/**
 * `/app/speech-to-text` (issue 19 item 6): upload or record audio or video to transcribe, or dictate live
 * (issue 20 item 6), and the workspace's transcripts with their progress.
 */
export default function SpeechToTextPage() {
  return (
    <RequireSignIn>
      <SpeechToText />
    </RequireSignIn>
  );
}

function SpeechToText() {
  const [started, setStarted] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const liveButtonId = useId();
  // Back from live dictation, the focus returns to the button that opened it.
  const wasLive = useRef(false);
  useEffect(() => {
    if (wasLive.current && !live) document.getElementById(liveButtonId)?.focus();
    wasLive.current = live;
  }, [live, liveButtonId]);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Speech to text</h1>
        <p className="text-sm text-fg-muted">
          Turn a recording into text with word timings: read it along with the audio, name the speakers, and
          export it as text, subtitles or a document. Or dictate live and watch the words appear as you speak.
        </p>
      </header>
      {live ? (
        <LiveDictation onClose={() => setLive(false)} onKept={setStarted} />
      ) : (
        <TranscribeForm
          onStarted={setStarted}
          onLiveDictation={() => setLive(true)}
          liveDictationId={liveButtonId}
        />
      )}
      <TranscriptList highlightId={started} />
    </div>
  );
}

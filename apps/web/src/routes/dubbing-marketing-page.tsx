import { Link } from 'react-router';
import { useDubbingLanguages } from '../features/dubbing/api/get-dubbing-languages';
import { targetAvailability } from '../features/dubbing/dubbing-rules';
import { useAuth } from '../lib/auth/auth-provider';
import { Badge } from '../ui/badge';
import { getButtonClasses } from '../ui/button';
import { Skeleton } from '../ui/skeleton';

const steps: ReadonlyArray<{ title: string; text: string }> = [
  {
    title: 'Hear who says what',
    text: 'The speech is transcribed with the time of every word, the speakers are told apart, and the talk is cut into lines at sentences and pauses.',
  },
  {
    title: 'Translate each line',
    text: 'Offline with Apertium where a language pair exists on this server (through Spanish where there is no direct pair), or with a translation server the operator connects.',
  },
  {
    title: 'Speak it in a matching voice',
    text: 'Each speaker gets a voice matched to their own pitch and timbre, and every line is fitted to the time the original took.',
  },
  {
    title: 'Mix it back',
    text: 'The new speech is laid over the original sound, turned down under it, and put back with the untouched video. Subtitles come with it.',
  },
];

/**
 * `/dubbing` (accounts §2 marketing path; issue 29 item 4): what dubbing does on this server, honest about
 * what works offline; signed in, the languages this installation can dub into now.
 */
export default function DubbingMarketingPage() {
  const { status } = useAuth();
  const signedIn = status === 'signedIn';
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-16 px-4 py-14 sm:px-6 lg:gap-20 lg:py-20">
      <section aria-labelledby="dubbing-title" className="flex max-w-3xl flex-col items-start gap-6">
        <p className="text-sm font-medium text-accent">Dubbing</p>
        <h1 id="dubbing-title" className="text-4xl font-semibold tracking-tight sm:text-6xl">
          Your video, in another language
        </h1>
        <p className="text-lg leading-8 text-fg-muted">
          Upload a video or a recording: Parla transcribes it, translates every line, speaks it again with a
          voice matched to each speaker and mixes it back in time with the picture. Then change any line in
          the dubbing editor and render the video, the audio or the subtitles.
        </p>
        <div className="flex flex-wrap gap-3">
          {signedIn ? (
            <Link to="/app/dubbing" className={getButtonClasses('primary', 'md')}>
              Open dubbing
            </Link>
          ) : (
            <>
              <Link
                to={`/app/sign-up?redirect=${encodeURIComponent('/app/dubbing')}`}
                className={getButtonClasses('primary', 'md')}
              >
                Sign up and dub
              </Link>
              <Link to="/pricing" className={getButtonClasses('ghost', 'md')}>
                See the plans
              </Link>
            </>
          )}
        </div>
      </section>

      <section aria-labelledby="dubbing-how" className="flex flex-col gap-6">
        <h2 id="dubbing-how" className="text-2xl font-semibold tracking-tight">
          How a dub is made
        </h2>
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {steps.map((step, index) => (
            <li
              key={step.title}
              className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-5 shadow-xs"
            >
              <span className="text-sm font-semibold text-accent tabular-nums">{index + 1}</span>
              <h3 className="text-base font-semibold">{step.title}</h3>
              <p className="text-sm text-fg-muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="dubbing-honest" className="grid gap-8 lg:grid-cols-2">
        <div className="flex flex-col gap-4">
          <h2 id="dubbing-honest" className="text-2xl font-semibold tracking-tight">
            What runs offline, and what does not
          </h2>
          <ul className="flex list-disc flex-col gap-2 pl-5 text-fg-muted">
            <li>
              Offline translation comes from Apertium’s language pairs installed on the server: with Debian’s
              pairs, English into Spanish directly, and into Portuguese, French and Italian through Spanish.
              The other dubbing languages need a translation server the operator connects (LibreTranslate or
              an OpenAI-compatible chat model); without one they cannot be chosen.
            </li>
            <li>
              The dubbed speech uses the neural voices of the target language where the server has them.
            </li>
            <li>
              There is no source separation here: the original sound stays, turned down under the new speech,
              or is dropped entirely, music and effects included.
            </li>
            <li>A dub costs 1,000 credits a minute of source for each language; a failed dub is refunded.</li>
          </ul>
          {!signedIn && (
            <p className="text-sm text-fg-muted">
              Signed in, this page lists which of the 29 dubbing languages this server can dub into now.
            </p>
          )}
        </div>
        {signedIn ? <LanguagesHere /> : null}
      </section>
    </div>
  );
}

/** The 29 languages and which of them this server can dub into now (signed in: the API asks for a session). */
function LanguagesHere() {
  const languages = useDubbingLanguages();
  if (languages.isPending)
    return (
      <div className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-5" aria-busy="true">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  if (languages.isError)
    return (
      <p className="rounded-xl border border-line bg-surface p-5 text-sm text-fg-muted">
        The language list could not be loaded.
      </p>
    );
  const entries = languages.data.map((entry) => ({ entry, ...targetAvailability(entry, languages.data) }));
  const available = entries.filter((item) => item.available);
  const missing = entries.filter((item) => !item.available);
  return (
    <div className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-5">
      <h3 className="text-base font-semibold">On this server now</h3>
      <div className="flex flex-col gap-2">
        <p className="text-sm font-medium text-fg">
          Dubs into {available.length} of {entries.length} languages
        </p>
        <ul aria-label="Languages this server dubs into" className="flex flex-wrap gap-1.5">
          {available.map(({ entry, note }) => (
            <li key={entry.code}>
              <Badge tone="success">
                {entry.name}
                {note ? ` · ${note}` : ''}
              </Badge>
            </li>
          ))}
        </ul>
      </div>
      {missing.length > 0 && (
        <div className="flex flex-col gap-1">
          <p className="text-sm font-medium text-fg">Not yet on this server</p>
          <p className="text-sm text-fg-muted">
            {missing.map(({ entry }) => entry.name).join(', ')}: this server has no translation or no voice
            for them yet.
          </p>
        </div>
      )}
    </div>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SystemStatusCard } from '../features/system/components/system-status-card';
import { useAuth } from '../lib/auth/auth-provider';
import { getButtonClasses } from '../ui/button';
import {
  ArrowUpRightIcon,
  DubbingIcon,
  FlaskIcon,
  LibraryIcon,
  MicrophoneIcon,
  ShareIcon,
  SpeakerIcon,
  SpeechBubblesIcon,
  SpeechToTextIcon,
  TextToSpeechIcon,
} from '../ui/icons';

/**
 * What Parla does today, one card each. Only what is built: a product joins this list when its pages
 * exist (no sound effects yet). Every built audio product of the sidebar has its
 * card under its own title (home-page.test.tsx holds the two together: speech to text was missing).
 */
const features: ReadonlyArray<{ title: string; text: string; icon: ReactNode; href?: string }> = [
  {
    title: 'Text to speech',
    text: 'Type or paste text and hear it spoken in natural voices, streamed while it is made.',
    icon: <TextToSpeechIcon />,
  },
  {
    title: 'Text to dialogue',
    text: 'Write a conversation line by line and give every speaker a voice of their own.',
    icon: <SpeechBubblesIcon />,
  },
  {
    title: 'Speech to speech',
    text: 'Record or upload speech and hear it in another voice, keeping your timing and intonation.',
    icon: <MicrophoneIcon />,
  },
  {
    title: 'Speech to text',
    text: 'Transcribe recordings or dictate live, with the time of every word, speakers and subtitles.',
    icon: <SpeechToTextIcon />,
  },
  {
    title: 'Dubbing',
    text: 'Dub a video into another language with voices matched to its speakers, then fix any line. Offline translation (Apertium) covers Spanish, and Portuguese, French and Italian through Spanish; other languages need a translation server.',
    icon: <DubbingIcon />,
    href: '/dubbing',
  },
  {
    title: 'Studio',
    text: 'Turn a book, an article or a script into long-form audio: a voice for each paragraph, converted chapter by chapter and exported as an M4B audiobook, MP3 or WAV.',
    icon: <LibraryIcon />,
  },
  {
    title: 'Audio Native',
    text: 'Put a player on your own site that reads your article aloud, in your colours, and see how many listen and for how long.',
    icon: <SpeakerIcon />,
  },
  {
    title: 'Pronunciation dictionaries',
    text: 'Teach every voice the names and acronyms it gets wrong, as other words or as IPA or ARPAbet sounds.',
    icon: <TextToSpeechIcon />,
  },
  {
    title: 'Voice cloning and design',
    text: 'Make a voice from a short recording, or describe one in words and keep the take you like.',
    icon: <FlaskIcon />,
  },
  {
    title: 'Voice library',
    text: 'Share your voices with other people on this server and add the voices they share.',
    icon: <LibraryIcon />,
  },
  {
    title: 'History and sharing',
    text: 'Every generation is kept to play again, rate, download, or share as a public link.',
    icon: <ShareIcon />,
  },
];

/**
 * The landing page (issue 18): what Parla does and the way in (sign up, or into the app when signed in),
 * what is built, the API for developers, and this server's health further down.
 */
export default function HomePage() {
  const { status } = useAuth();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-16 px-4 py-14 sm:px-6 lg:gap-20 lg:py-20">
      <section aria-labelledby="home-title" className="flex max-w-3xl flex-col items-start gap-6">
        <p className="text-sm font-medium text-accent">Parla · voice AI you run yourself</p>
        <h1 id="home-title" className="text-4xl font-semibold tracking-tight sm:text-6xl">
          Turn text into natural speech
        </h1>
        <p className="text-lg leading-8 text-fg-muted">
          Parla speaks your text in premade, cloned and designed voices, converts recordings into other
          voices, turns speech into text, dubs videos into other languages, and keeps every generation to
          play, download and share. It runs on your own server with real offline engines, and its API follows
          the ElevenLabs API, so the official SDKs work by changing only the base URL.
        </p>
        <div className="flex flex-wrap gap-3">
          {/* The way in shows at once; a visitor's session answer comes only after the sign-out delay. */}
          {status === 'signedIn' ? (
            <Link to="/app/home" className={getButtonClasses('primary', 'md')}>
              Open Parla
            </Link>
          ) : (
            <>
              <Link to="/app/sign-up" className={getButtonClasses('primary', 'md')}>
                Sign up free
              </Link>
              <Link to="/app/sign-in" className={getButtonClasses('secondary', 'md')}>
                Sign in
              </Link>
            </>
          )}
          <Link to="/pricing" className={getButtonClasses('ghost', 'md')}>
            See the plans
          </Link>
        </div>
      </section>

      <section aria-labelledby="features-title" className="flex flex-col gap-6">
        <h2 id="features-title" className="text-2xl font-semibold tracking-tight">
          What you can do with Parla
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => (
            <li
              key={feature.title}
              className="flex gap-4 rounded-xl border border-line bg-surface p-5 shadow-xs"
            >
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-subtle text-xl text-fg">
                {feature.icon}
              </span>
              <div className="flex min-w-0 flex-col gap-1">
                <h3 className="text-base font-semibold">{feature.title}</h3>
                <p className="text-sm text-fg-muted">{feature.text}</p>
                {feature.href && (
                  <Link
                    to={feature.href}
                    className="self-start text-sm font-medium text-accent hover:underline"
                    aria-label={`More about ${feature.title.toLowerCase()}`}
                  >
                    Learn more
                  </Link>
                )}
              </div>
            </li>
          ))}
        </ul>
      </section>

      <div className="grid grid-cols-1 items-start gap-10 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <section aria-labelledby="developers-title" className="flex max-w-2xl flex-col items-start gap-4">
          <h2 id="developers-title" className="text-2xl font-semibold tracking-tight">
            For developers
          </h2>
          <p className="text-fg-muted">
            Create an API key in the app and call Parla from your own code: the paths, fields, audio formats
            and errors follow the ElevenLabs public API, and an OpenAI-compatible speech endpoint sits beside
            it.
          </p>
          <div className="flex flex-wrap gap-3">
            <a href="/docs" className={getButtonClasses('secondary', 'md')}>
              API reference
              <ArrowUpRightIcon />
            </a>
            <a href="/openapi.json" className={getButtonClasses('ghost', 'md')}>
              OpenAPI document
            </a>
          </div>
        </section>
        <SystemStatusCard />
      </div>
    </div>
  );
}

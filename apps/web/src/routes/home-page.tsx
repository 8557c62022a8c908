import { ChecklistWidget } from '../features/onboarding/components/checklist-widget';
import { SystemStatusCard } from '../features/system/components/system-status-card';
import { getButtonClasses } from '../ui/button';
import { ArrowUpRightIcon } from '../ui/icons';

/** The landing page: what Parla is, where the API reference lives, and whether this server is healthy. */
export default function HomePage() {
  return (
    <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start lg:py-24">
      <section aria-labelledby="home-title" className="max-w-2xl">
        <p className="text-sm font-medium text-accent">Self-hostable voice and audio AI</p>
        <h1 id="home-title" className="mt-3 text-5xl font-semibold tracking-tight sm:text-6xl">
          Parla
        </h1>
        <p className="mt-6 text-lg leading-8 text-fg-muted">
          Parla is a voice and audio AI platform you run yourself: it turns text into natural speech and
          speech into text, clones and designs voices, dubs audio into other languages, generates sound
          effects and lifts voices out of noise, with real offline engines on a single machine and a database,
          job queue and file store that scale out when you need them. Its API follows the ElevenLabs public
          API, so the official SDKs and existing integrations work by changing only the base URL.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <a href="/docs" className={getButtonClasses('primary', 'md')}>
            API reference
            <ArrowUpRightIcon />
          </a>
          <a href="/openapi.json" className={getButtonClasses('secondary', 'md')}>
            OpenAPI document
          </a>
        </div>
      </section>
      <div className="flex flex-col gap-6">
        <ChecklistWidget />
        <SystemStatusCard />
      </div>
    </div>
  );
}

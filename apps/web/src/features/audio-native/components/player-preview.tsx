import { useEffect, useState } from 'react';

/** The settings a preview shows (the ones being edited, not yet saved). */
export interface PreviewSettings {
  title: string;
  author: string;
  small: boolean;
  textColor: string;
  backgroundColor: string;
}

declare global {
  interface Window {
    ParlaAudioNative?: { scan: () => void };
  }
}

/** Loads Parla's own /audio-native.js once (the same script the embed snippet loads on other sites). */
function useEmbedScript(): boolean {
  const [ready, setReady] = useState(() => typeof window !== 'undefined' && Boolean(window.ParlaAudioNative));
  useEffect(() => {
    if (ready) return;
    const existing = document.querySelector<HTMLScriptElement>('script[data-parla-audio-native]');
    const script = existing ?? document.createElement('script');
    const done = () => setReady(true);
    script.addEventListener('load', done);
    if (!existing) {
      script.src = '/audio-native.js';
      script.async = true;
      script.dataset.parlaAudioNative = 'true';
      document.head.appendChild(script);
    }
    return () => script.removeEventListener('load', done);
  }, [ready]);
  return ready;
}

/**
 * The real embeddable player, drawn with the settings being edited: each change makes a fresh element for
 * the script to mount (data-preview: it shows these settings and reports nothing to the analytics).
 */
export function PlayerPreview({ projectId, settings }: { projectId: string; settings: PreviewSettings }) {
  const ready = useEmbedScript();
  const key = JSON.stringify(settings);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key is a new element to mount.
  useEffect(() => {
    if (ready) window.ParlaAudioNative?.scan();
  }, [ready, key]);
  return (
    <section aria-label="Player preview" className="flex flex-col gap-2">
      <h2 className="text-sm font-medium text-fg">Preview</h2>
      <div
        key={key}
        className="parla-audio-native"
        data-project-id={projectId}
        data-preview="true"
        data-title={settings.title}
        data-author={settings.author}
        data-small={String(settings.small)}
        data-text-color={settings.textColor}
        data-background-color={settings.backgroundColor}
      />
    </section>
  );
}

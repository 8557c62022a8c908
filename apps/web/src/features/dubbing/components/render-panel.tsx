import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { saveBlob } from '../../../lib/save-file';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { inputClasses } from '../../../ui/field';
import { DownloadIcon, SpinnerIcon } from '../../../ui/icons';
import { ProgressBar } from '../../../ui/progress-bar';
import { safeName, useDownloadDub } from '../api/download-dub';
import { dubbingQueryKeys } from '../api/dubbing-query-keys';
import { getDubbingFile } from '../api/get-dubbing-file';
import { useRenderDub } from '../api/render-dub';
import type { DubbingRender, DubbingResource, RenderType } from '../api/types';
import { DUBBING_POLL_MS, latestRender } from '../dubbing-rules';

const renderLabels: Partial<Record<RenderType, string>> = {
  mp4: 'Video (MP4)',
  mp3: 'Audio (MP3)',
  wav: 'Audio (WAV)',
  aac: 'Audio (AAC)',
  tracks_zip: 'Speaker tracks (ZIP)',
  clips_zip: 'Segment clips (ZIP)',
};
const extensions: Partial<Record<RenderType, string>> = {
  mp4: 'mp4',
  mp3: 'mp3',
  wav: 'wav',
  aac: 'aac',
  tracks_zip: 'zip',
  clips_zip: 'zip',
};

/**
 * Render and downloads (issue 29 item 3): render a language as a file (its status polled until complete,
 * then a download), the dubbed audio or video, and the subtitles.
 */
export function RenderPanel({
  dubbingId,
  name,
  resource,
  language,
  languageName,
}: {
  dubbingId: string;
  name: string;
  resource: DubbingResource;
  language: string;
  languageName: (code: string) => string;
}) {
  const id = useId();
  const { toastError } = useToast();
  const isVideo = !resource.input.is_audio;
  const types = (Object.keys(renderLabels) as RenderType[]).filter((type) => isVideo || type !== 'mp4');
  const [type, setType] = useState<RenderType>(isVideo ? 'mp4' : 'mp3');
  const [renderIds, setRenderIds] = useState<Record<string, string>>({});
  const render = useRenderDub(dubbingId);
  const download = useDownloadDub();
  const [saving, setSaving] = useState(false);
  const isSource = language === resource.source_language;
  const started = renderIds[language];
  // The render just started, until the resource lists it, shows as processing (not the previous render).
  const current: DubbingRender | undefined = started
    ? (resource.renders[started] ?? { id: started, version: resource.version, status: 'processing' })
    : latestRender(resource, language);
  // Until the resource lists the render just started, it is asked again (it polls by itself only while
  // a render it lists is processing).
  const queryClient = useQueryClient();
  const unlisted = !!started && !resource.renders[started];
  useEffect(() => {
    if (!unlisted) return;
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: dubbingQueryKeys.resource(dubbingId) }),
      DUBBING_POLL_MS,
    );
    return () => clearInterval(timer);
  }, [unlisted, queryClient, dubbingId]);

  const saveRender = async (done: DubbingRender) => {
    if (!done.media_ref) return;
    setSaving(true);
    try {
      const blob = await getDubbingFile(done.media_ref.url);
      const ext = extensions[done.type ?? 'mp4'] ?? 'bin';
      saveBlob(blob, `${safeName(name)}_${language}.${ext}`);
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section
      aria-label="Render and download"
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4"
    >
      <h2 className="text-base font-semibold">Render and download</h2>
      {isSource ? (
        <p className="text-sm text-fg-muted">Choose a target language above to render its dub.</p>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex min-w-40 flex-1 flex-col gap-1">
              <label htmlFor={`${id}-type`} className="text-xs font-medium text-fg-muted">
                Render {languageName(language)} as
              </label>
              <select
                id={`${id}-type`}
                className={inputClasses}
                value={type}
                onChange={(event) => setType(event.target.value as RenderType)}
              >
                {types.map((value) => (
                  <option key={value} value={value}>
                    {renderLabels[value]}
                  </option>
                ))}
              </select>
            </div>
            <Button
              className="h-10"
              disabled={render.isPending || current?.status === 'processing'}
              aria-busy={render.isPending}
              onClick={() =>
                render.mutate(
                  { language, renderType: type },
                  {
                    onSuccess: (answer) => setRenderIds((ids) => ({ ...ids, [language]: answer.render_id })),
                    onError: (error) => toastError(error),
                  },
                )
              }
            >
              {render.isPending && <SpinnerIcon className="motion-safe:animate-spin" />}
              Render
            </Button>
          </div>
          {current && (
            <div className="flex flex-col gap-2" aria-live="polite">
              {current.status === 'processing' ? (
                <>
                  <p className="text-sm text-fg">
                    Rendering {renderLabels[current.type ?? 'mp4'] ?? current.type}…
                  </p>
                  <ProgressBar label="Rendering" value={null} />
                </>
              ) : current.status === 'failed' ? (
                <p role="alert" className="rounded-lg bg-danger-soft px-3 py-2 text-sm text-danger">
                  The render failed. Try again.
                </p>
              ) : (
                <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-success-soft px-3 py-2">
                  <p className="text-sm text-success">
                    {renderLabels[current.type ?? 'mp4'] ?? current.type} ready
                    {current.version < resource.version && (
                      <span className="block text-xs text-fg-muted">
                        Made before the latest changes: render again to include them.
                      </span>
                    )}
                  </p>
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={saving || !current.media_ref}
                    onClick={() => void saveRender(current)}
                  >
                    <DownloadIcon aria-hidden="true" />
                    Download render
                  </Button>
                </div>
              )}
            </div>
          )}
        </>
      )}
      <div className="flex flex-col gap-2 border-t border-line pt-3">
        <p className="text-xs font-medium text-fg-muted">Downloads in {languageName(language)}</p>
        <div className="flex flex-wrap gap-2">
          {!isSource && (
            <Button
              variant="secondary"
              size="sm"
              disabled={download.isPending}
              onClick={() =>
                download.mutate(
                  { kind: 'media', dubbingId, language, video: isVideo, name },
                  { onError: (error) => toastError(error) },
                )
              }
            >
              <DownloadIcon aria-hidden="true" />
              {isVideo ? 'Dubbed video' : 'Dubbed audio'}
            </Button>
          )}
          {(['srt', 'webvtt'] as const).map((format) => (
            <Button
              key={format}
              variant="secondary"
              size="sm"
              disabled={download.isPending}
              onClick={() =>
                download.mutate(
                  { kind: 'subtitles', dubbingId, language, format, name },
                  { onError: (error) => toastError(error) },
                )
              }
            >
              <DownloadIcon aria-hidden="true" />
              Subtitles ({format === 'srt' ? 'SRT' : 'WebVTT'})
            </Button>
          ))}
        </div>
      </div>
    </section>
  );
}

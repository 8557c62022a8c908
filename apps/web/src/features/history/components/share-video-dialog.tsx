import {
  canMakeShareVideo,
  type HistoryItemResponse,
  SHARE_VIDEO_FILE_NAME,
  SHARE_VIDEO_PROGRESS_INTERVAL_MS,
  type ShareVideoTheme,
  shareVideoMessages,
  shareVideoThemes,
  videoErrorMessage,
  videoPreviewErrorMessage,
  videoProgress,
} from '@parla/contracts';
import { clsx } from 'clsx';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { saveBlob } from '../../../lib/save-file';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { DownloadIcon, RefreshIcon, SpeakerIcon, SpeakerOffIcon, SpinnerIcon } from '../../../ui/icons';
import { SegmentedControl } from '../../../ui/segmented-control';
import { generateShareVideo } from '../api/generate-share-video';
import { getShareVideo } from '../api/get-share-video';
import { getShareVideoPreview } from '../api/get-share-video-preview';
import {
  failureMessage,
  generateButtonLabel,
  hasTagsToKeep,
  initialShareVideoTheme,
  isAbort,
  type ShareVideoPhase,
  shareVideoQuery,
  shareVideoTexts,
  shareVideoThemeOptions,
} from '../share-video-rules';

export interface ShareVideoDialogProps {
  item: HistoryItemResponse | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Opens the share link dialog instead (both stay reachable while videos are on). */
  onShareLink?: () => void;
}

/**
 * The share video dialog (history/voices §2 "Share video dialog", §4 "Share video modal", §5, §8, §9): a
 * theme radio (Multicolor first), the preview of the video in that theme, the keep-v3-tags toggle when
 * the text has tags, Generate with a progress bar estimated at 130 ms per character, then a looping video
 * with Download and mute. Its content lives only while it is open, so closing resets everything and
 * releases the preview and the video.
 */
export function ShareVideoDialog({ item, open, onOpenChange, onShareLink }: ShareVideoDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={shareVideoTexts.title}
      description={shareVideoTexts.description}
      // A responsive variant comes after the dialog's own max-w-md in the CSS, so it wins from sm up.
      className="sm:max-w-2xl"
    >
      {open && item && <ShareVideoBody item={item} onShareLink={onShareLink} />}
    </Dialog>
  );
}

/** An object URL of a blob, released when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

function ShareVideoBody({ item, onShareLink }: { item: HistoryItemResponse; onShareLink?: () => void }) {
  const { toast } = useToast();
  const keepTagsId = useId();
  const allowed = canMakeShareVideo(item.source);
  const showKeepTags = hasTagsToKeep(item);
  const [theme, setTheme] = useState<ShareVideoTheme>(initialShareVideoTheme);
  const [keepTags, setKeepTags] = useState(false);
  const [previewBlob, setPreviewBlob] = useState<Blob | null>(null);
  const [previewState, setPreviewState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [phase, setPhase] = useState<ShareVideoPhase>('idle');
  const [progress, setProgress] = useState(0);
  const [videoBlob, setVideoBlob] = useState<Blob | null>(null);
  const [muted, setMuted] = useState(false);
  const previewUrl = useObjectUrl(previewBlob);
  const videoUrl = useObjectUrl(videoBlob);
  /** The generation under way, aborted when the choice changes or the dialog closes. */
  const generation = useRef<AbortController | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);

  const historyItemId = item.history_item_id;
  const textLength = item.text.length;

  // The preview of the chosen look (history/voices §4: regenerated when the theme changes).
  useEffect(() => {
    if (!allowed) return;
    const controller = new AbortController();
    setPreviewBlob(null);
    setPreviewState('loading');
    getShareVideoPreview(historyItemId, shareVideoQuery(theme, keepTags), controller.signal).then(
      (blob) => {
        setPreviewBlob(blob);
        setPreviewState('ready');
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return;
        setPreviewState('failed');
        toast({ title: videoPreviewErrorMessage(failureMessage(error)), variant: 'error' });
      },
    );
    return () => controller.abort();
  }, [allowed, historyItemId, theme, keepTags, toast]);

  // The estimated progress while rendering: 130 ms per character, every 100 ms, capped at 1 (§9).
  useEffect(() => {
    if (phase !== 'generating') return;
    const started = Date.now();
    setProgress(0);
    const timer = setInterval(
      () => setProgress(videoProgress(Date.now() - started, textLength)),
      SHARE_VIDEO_PROGRESS_INTERVAL_MS,
    );
    return () => clearInterval(timer);
  }, [phase, textLength]);

  // A generation still running when the dialog closes is given up.
  useEffect(() => () => generation.current?.abort(), []);

  // The video plays as soon as it is there; a browser that refuses sound without a click plays it muted.
  useEffect(() => {
    const video = videoRef.current;
    if (!videoUrl || !video) return;
    video.play().catch(() => {
      setMuted(true);
      video.muted = true;
      video.play().catch((error: unknown) => console.warn('The share video could not start', error));
    });
  }, [videoUrl]);

  /** history/voices §4: a new look clears the video, its progress and its error. */
  const resetVideo = useCallback(() => {
    generation.current?.abort();
    generation.current = null;
    setVideoBlob(null);
    setProgress(0);
    setPhase('idle');
  }, []);

  const handleTheme = (next: ShareVideoTheme) => {
    resetVideo();
    setTheme(next);
  };
  const handleKeepTags = (next: boolean) => {
    resetVideo();
    setKeepTags(next);
  };

  const handleGenerate = async () => {
    if (!allowed) {
      toast({ title: shareVideoMessages.onlyTextToSpeech, variant: 'error' });
      return;
    }
    generation.current?.abort();
    const controller = new AbortController();
    generation.current = controller;
    const query = shareVideoQuery(theme, keepTags);
    setVideoBlob(null);
    setPhase('generating');
    try {
      await generateShareVideo(historyItemId, query, controller.signal);
      const blob = await getShareVideo(historyItemId, query, controller.signal);
      if (controller.signal.aborted) return;
      setProgress(1);
      setVideoBlob(blob);
      setPhase('ready');
    } catch (error) {
      if (controller.signal.aborted || isAbort(error)) return;
      setPhase('failed');
      toast({ title: videoErrorMessage(failureMessage(error)), variant: 'error' });
    } finally {
      if (generation.current === controller) generation.current = null;
    }
  };

  const handleDownload = () => {
    if (videoBlob) saveBlob(videoBlob, SHARE_VIDEO_FILE_NAME);
  };

  const handleMute = () => {
    const next = !muted;
    setMuted(next);
    if (videoRef.current) videoRef.current.muted = next;
  };

  const themeLabel = shareVideoThemes[theme].label;
  const generating = phase === 'generating';

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SegmentedControl
          label={shareVideoTexts.themeLabel}
          options={shareVideoThemeOptions}
          value={theme}
          onChange={handleTheme}
        />
        {showKeepTags && (
          <label
            htmlFor={keepTagsId}
            className="inline-flex cursor-pointer items-center gap-2 text-sm text-fg"
          >
            <input
              id={keepTagsId}
              type="checkbox"
              role="switch"
              checked={keepTags}
              aria-checked={keepTags}
              onChange={(event) => handleKeepTags(event.target.checked)}
              aria-describedby={`${keepTagsId}-note`}
              className={clsx(
                'relative h-5 w-9 shrink-0 cursor-pointer appearance-none rounded-full bg-line transition-colors',
                'before:absolute before:top-0.5 before:left-0.5 before:size-4 before:rounded-full before:bg-surface before:shadow-xs before:transition-transform',
                'checked:bg-fg checked:before:translate-x-4',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
              )}
            />
            {shareVideoTexts.keepTags}
          </label>
        )}
        {showKeepTags && (
          <span id={`${keepTagsId}-note`} className="sr-only">
            {shareVideoTexts.keepTagsNote}
          </span>
        )}
      </div>

      <div
        className="relative aspect-video w-full overflow-hidden rounded-lg border border-line"
        style={{ background: themeSwatch(theme) }}
      >
        {videoUrl ? (
          <video
            ref={videoRef}
            src={videoUrl}
            aria-label={`Share video, ${themeLabel} theme`}
            className="size-full object-contain"
            loop
            autoPlay
            playsInline
            muted={muted}
          />
        ) : !allowed ? (
          <p className="flex size-full items-center justify-center bg-subtle p-6 text-center text-sm text-fg-muted">
            {shareVideoMessages.onlyTextToSpeech}
          </p>
        ) : previewUrl ? (
          <img
            src={previewUrl}
            alt={`Preview of the video, ${themeLabel} theme`}
            className="size-full object-contain"
          />
        ) : previewState === 'failed' ? (
          <p className="flex size-full items-center justify-center bg-subtle text-sm text-fg-muted">
            {shareVideoTexts.previewMissing}
          </p>
        ) : (
          <p
            role="status"
            className="flex size-full items-center justify-center gap-2 bg-subtle/60 text-sm text-fg-muted"
          >
            <SpinnerIcon className="motion-safe:animate-spin" />
            {shareVideoTexts.previewLoading}
          </p>
        )}
      </div>

      {generating && (
        <div className="grid gap-1.5">
          <div
            role="progressbar"
            aria-label={shareVideoTexts.generating}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress * 100)}
            className="h-2 overflow-hidden rounded-full bg-subtle"
          >
            <div
              className="h-full bg-accent transition-[width] duration-100 ease-linear"
              style={{ width: `${progress * 100}%` }}
            />
          </div>
          <p className="text-xs text-fg-muted" aria-hidden="true">
            {shareVideoTexts.generating}
          </p>
        </div>
      )}

      <div className="flex flex-wrap items-center gap-2 pt-2">
        {onShareLink && (
          <Button variant="ghost" size="sm" className="mr-auto" onClick={onShareLink}>
            {shareVideoTexts.shareLink}
          </Button>
        )}
        <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
          {phase === 'ready' ? (
            <>
              <Button variant="secondary" aria-pressed={muted} onClick={handleMute}>
                {muted ? <SpeakerOffIcon /> : <SpeakerIcon />}
                {shareVideoTexts.mute}
              </Button>
              <Button onClick={handleDownload}>
                <DownloadIcon />
                {shareVideoTexts.download}
              </Button>
            </>
          ) : (
            <Button onClick={() => void handleGenerate()} disabled={generating} aria-busy={generating}>
              {generating && <SpinnerIcon className="motion-safe:animate-spin" />}
              {phase === 'failed' && <RefreshIcon />}
              {generateButtonLabel(phase)}
            </Button>
          )}
        </div>
      </div>
    </>
  );
}

/** The theme's background behind the preview while it loads (history/voices §3 colours). */
function themeSwatch(theme: ShareVideoTheme): string {
  const stops = shareVideoThemes[theme].background;
  return stops.length > 1 ? `linear-gradient(110deg, ${stops.join(', ')})` : (stops[0] ?? 'transparent');
}

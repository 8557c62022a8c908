import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { subscribeAccessToken } from '../../lib/access-token';
import { isHttpError } from '../../lib/http-error';
import { saveBlob, saveUrlAs } from '../../lib/save-file';
import { getAudioFile, getHistoryItemAudio } from './api/get-audio-file';
import { getHistoryItem } from './api/get-history-item';
import { attachStream, type StreamAttachment } from './attach-stream';
import { pollHistoryItem } from './history-polling';
import { PlayerContext, type PlayerControls } from './player-context';
import { type AudioPlayerItem, getHistoryItemId, isHistoryItemType, type PlayerSource } from './player-item';
import { playerMessages } from './player-messages';
import { initialPlayerState, playerReducer } from './player-reducer';
import { clampSeekTime, isPlaybackSpeed, type PlaybackSpeed } from './player-rules';

/** Everything one load owns; dropped (and its work aborted) when another item replaces it. */
interface LoadSession {
  loadId: number;
  item: AudioPlayerItem;
  source: PlayerSource;
  controller: AbortController;
  /** The element's src for this load: media events about any other source are ignored. */
  mediaUrl: string | null;
  objectUrls: string[];
  /** The file of an authenticated url, fetched once: played and, if needed, downloaded. */
  blob: Blob | null;
  stream: StreamAttachment | null;
  /** Still to start by itself (autoStart), until the person takes over. */
  autoStart: boolean;
  autoStartDelayElapsed: boolean;
  canPlay: boolean;
  autoStartTimer: ReturnType<typeof setTimeout> | null;
  pollStarted: boolean;
}

/** Whether a load needed the signed-in user (its audio must not outlive a sign-out). */
function needsSignIn(session: LoadSession): boolean {
  return (
    isHistoryItemType(session.item.type) ||
    session.source.kind === 'stream' ||
    session.source.authenticated === true
  );
}

function describeError(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

/** The end of what can be sought: the duration, or while a stream arrives, the end of what has arrived. */
function getSeekEnd(audio: HTMLAudioElement): number | null {
  if (Number.isFinite(audio.duration)) return audio.duration;
  try {
    const ranges = audio.seekable;
    return ranges && ranges.length > 0 ? ranges.end(ranges.length - 1) : null;
  } catch {
    return null;
  }
}

/** MediaError.MEDIA_ERR_ABORTED, spelled out because not every environment defines MediaError. */
const mediaErrAborted = 1;

export interface PlayerProviderProps {
  children?: ReactNode;
}

/**
 * The app's audio player (history/voices §4): holds the one <audio> element, the state machine, the
 * current load (a url, an authenticated url fetched with the bearer token, or a streamed Response), the
 * history polling that marks a new item loaded, and Download. Mount it once around the router.
 */
export function PlayerProvider({ children }: PlayerProviderProps) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const audioRef = useRef<HTMLAudioElement>(null);
  const sessionRef = useRef<LoadSession | null>(null);
  const loadCounter = useRef(0);

  const isCurrent = useCallback(
    (session: LoadSession) => sessionRef.current === session && !session.controller.signal.aborted,
    [],
  );

  /** Starts the media; a browser that refuses (autoplay rules) is only logged (§4). */
  const startMedia = useCallback(
    (session: LoadSession) => {
      const audio = audioRef.current;
      if (!audio) return;
      Promise.resolve(audio.play()).catch((error: unknown) => {
        if (!isCurrent(session)) return;
        const name = error instanceof DOMException ? error.name : '';
        if (name === 'AbortError') return; // a new source replaced this one
        if (name === 'NotAllowedError') console.info(playerMessages.autoplayBlocked, error);
        else console.warn('Playback could not start', error);
        dispatch({ type: 'autoplayBlocked' });
      });
    },
    [isCurrent],
  );

  const maybeAutoStart = useCallback(
    (session: LoadSession) => {
      if (!session.autoStart || !session.autoStartDelayElapsed || !session.canPlay) return;
      session.autoStart = false;
      startMedia(session);
    },
    [startMedia],
  );

  /** §4: once a history-related item has loaded, wait for its history item, then mark it loaded. */
  const startHistoryPolling = useCallback(
    (session: LoadSession) => {
      const historyItemId = getHistoryItemId(session.item);
      if (!historyItemId || session.item.loaded || session.pollStarted) return;
      session.pollStarted = true;
      void pollHistoryItem(
        async (signal) => {
          await getHistoryItem(historyItemId, signal);
          return true;
        },
        { signal: session.controller.signal },
      ).then((found) => {
        if (!found || !isCurrent(session)) return;
        dispatch({ type: 'itemLoaded', loadId: session.loadId });
        void queryClient.invalidateQueries({ queryKey: ['history'] });
      });
    },
    [isCurrent, queryClient],
  );

  const teardown = useCallback(() => {
    const session = sessionRef.current;
    sessionRef.current = null;
    if (!session) return;
    session.controller.abort();
    if (session.autoStartTimer) clearTimeout(session.autoStartTimer);
    const audio = audioRef.current;
    if (audio?.hasAttribute('src')) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
    for (const url of session.objectUrls) URL.revokeObjectURL(url);
  }, []);

  const play = useCallback(
    (requested: AudioPlayerItem, source: PlayerSource) => {
      const audio = audioRef.current;
      if (!audio) return;
      teardown();
      let item = requested;
      if (source.kind === 'stream' && isHistoryItemType(item.type) && item.id.trim() === '') {
        // Parla's TTS responses name the history item they will be kept as.
        const headerId = source.response.headers.get('history-item-id');
        if (headerId) item = { ...item, id: headerId };
      }
      loadCounter.current += 1;
      const delaySeconds = item.autoStartDelaySeconds ?? 0;
      const session: LoadSession = {
        loadId: loadCounter.current,
        item,
        source,
        controller: new AbortController(),
        mediaUrl: null,
        objectUrls: [],
        blob: null,
        stream: null,
        autoStart: item.autoStart === true,
        autoStartDelayElapsed: !(delaySeconds > 0),
        canPlay: false,
        autoStartTimer: null,
        pollStarted: false,
      };
      sessionRef.current = session;
      dispatch({ type: 'load', item, sourceKind: source.kind, loadId: session.loadId });
      if (session.autoStart && delaySeconds > 0) {
        session.autoStartTimer = setTimeout(() => {
          session.autoStartTimer = null;
          session.autoStartDelayElapsed = true;
          maybeAutoStart(session);
        }, delaySeconds * 1000);
      }
      const { signal } = session.controller;
      const fail = (message: string) => dispatch({ type: 'failed', loadId: session.loadId, message });

      if (source.kind === 'url') {
        if (!source.authenticated) {
          session.mediaUrl = source.url;
          audio.src = source.url;
          return;
        }
        getAudioFile(source.url, { authenticated: true, signal }).then(
          (blob) => {
            if (!isCurrent(session)) return;
            const url = URL.createObjectURL(blob);
            session.blob = blob;
            session.objectUrls.push(url);
            session.mediaUrl = url;
            audio.src = url;
          },
          (error: unknown) => {
            if (isCurrent(session)) fail(playerMessages.loadFailed(describeError(error)));
          },
        );
        return;
      }

      const attachment = attachStream({
        audio,
        response: source.response,
        mimeType: source.mimeType,
        signal,
        onObjectUrl: (url) => {
          session.objectUrls.push(url);
          session.mediaUrl = url;
        },
      });
      session.stream = attachment;
      attachment.done.then(
        () => {
          if (!isCurrent(session)) return;
          if (attachment.chunks.length === 0) {
            fail(playerMessages.emptyStream);
            return;
          }
          dispatch({ type: 'streamEnded', loadId: session.loadId });
          startHistoryPolling(session);
        },
        (error: unknown) => {
          if (!isCurrent(session)) return;
          if (attachment.chunks.length === 0) {
            fail(playerMessages.loadFailed(describeError(error)));
            return;
          }
          console.error('The audio stream failed before its end', error);
          dispatch({ type: 'streamEnded', loadId: session.loadId, error: playerMessages.streamCut });
        },
      );
    },
    [isCurrent, maybeAutoStart, startHistoryPolling, teardown],
  );

  // The media element's events drive the state machine; events about a source this load did not set
  // (the one just replaced) are ignored.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const currentSession = () => {
      const session = sessionRef.current;
      if (!session || session.mediaUrl === null) return null;
      return audio.getAttribute('src') === session.mediaUrl ? session : null;
    };
    const handlers: Record<string, () => void> = {
      canplay: () => {
        const session = currentSession();
        if (!session) return;
        session.canPlay = true;
        dispatch({ type: 'canPlay', loadId: session.loadId });
        if (session.source.kind === 'url') startHistoryPolling(session);
        maybeAutoStart(session);
      },
      loadedmetadata: () => {
        if (currentSession()) dispatch({ type: 'durationChange', duration: audio.duration });
      },
      durationchange: () => {
        if (currentSession()) dispatch({ type: 'durationChange', duration: audio.duration });
      },
      play: () => {
        if (currentSession()) dispatch({ type: 'playing' });
      },
      playing: () => {
        if (currentSession()) dispatch({ type: 'playing' });
      },
      pause: () => {
        if (currentSession()) dispatch({ type: 'paused' });
      },
      ended: () => {
        if (currentSession()) dispatch({ type: 'ended' });
      },
      timeupdate: () => {
        if (currentSession()) dispatch({ type: 'timeUpdate', currentTime: audio.currentTime });
      },
      seeked: () => {
        if (currentSession()) dispatch({ type: 'seeked', currentTime: audio.currentTime });
      },
      ratechange: () => {
        if (isPlaybackSpeed(audio.playbackRate))
          dispatch({ type: 'rateChange', playbackRate: audio.playbackRate });
      },
      error: () => {
        const session = currentSession();
        // An aborted fetch is the element giving up a source on purpose, not a broken file.
        if (!session || audio.error?.code === mediaErrAborted) return;
        dispatch({ type: 'failed', loadId: session.loadId, message: playerMessages.unplayable });
      },
    };
    for (const [name, handler] of Object.entries(handlers)) audio.addEventListener(name, handler);
    return () => {
      for (const [name, handler] of Object.entries(handlers)) audio.removeEventListener(name, handler);
    };
  }, [maybeAutoStart, startHistoryPolling]);

  const stop = useCallback(() => {
    teardown();
    dispatch({ type: 'stop' });
  }, [teardown]);

  // Audio fetched for one user must not keep playing for the next (accounts §4 sign-out).
  useEffect(
    () =>
      subscribeAccessToken((token) => {
        const session = sessionRef.current;
        if (token === null && session && needsSignIn(session)) stop();
      }),
    [stop],
  );

  useEffect(() => teardown, [teardown]);

  const pause = useCallback(() => {
    const session = sessionRef.current;
    if (session) session.autoStart = false;
    audioRef.current?.pause();
  }, []);

  const resume = useCallback(() => {
    const session = sessionRef.current;
    if (!session) return;
    session.autoStart = false;
    // An ended element starts again from 0 on play() (HTML media "ended playback").
    startMedia(session);
  }, [startMedia]);

  const seekTo = useCallback((seconds: number) => {
    const audio = audioRef.current;
    if (!audio || !sessionRef.current) return;
    audio.currentTime = clampSeekTime(seconds, getSeekEnd(audio));
    dispatch({ type: 'seeked', currentTime: audio.currentTime });
  }, []);

  const seekBy = useCallback(
    (seconds: number) => {
      const audio = audioRef.current;
      if (audio) seekTo(audio.currentTime + seconds);
    },
    [seekTo],
  );

  const setPlaybackRate = useCallback((speed: PlaybackSpeed) => {
    const audio = audioRef.current;
    if (audio) {
      // The default rate survives the next load; the rate itself applies now.
      audio.defaultPlaybackRate = speed;
      audio.playbackRate = speed;
    }
    dispatch({ type: 'rateChange', playbackRate: speed });
  }, []);

  const download = useCallback(async () => {
    const session = sessionRef.current;
    if (!session) return;
    dispatch({ type: 'errorCleared' });
    const { item, source } = session;
    const showError = (message: string) => {
      if (sessionRef.current === session) dispatch({ type: 'errorShown', message });
    };
    const historyItemId = getHistoryItemId(item);
    if (historyItemId) {
      try {
        saveBlob(await getHistoryItemAudio(historyItemId), item.fileName);
        return;
      } catch (error) {
        // §4: an item that is not (yet) stored falls back to the audio the player holds.
        if (!isHttpError(error) || error.status !== 404) {
          showError(playerMessages.downloadFailed(describeError(error)));
          return;
        }
      }
    }
    if (source.kind === 'stream') {
      const chunks = session.stream?.chunks ?? [];
      if (chunks.length === 0) showError(playerMessages.nothingToDownload);
      else saveBlob(new Blob(chunks, { type: session.stream?.mimeType }), item.fileName);
      return;
    }
    if (session.blob) {
      saveBlob(session.blob, item.fileName);
      return;
    }
    try {
      const blob = await getAudioFile(source.url, { authenticated: source.authenticated });
      session.blob = blob;
      saveBlob(blob, item.fileName);
    } catch (error) {
      if (source.authenticated) {
        showError(playerMessages.downloadFailed(describeError(error)));
        return;
      }
      // A public file on another origin may refuse to be read by script; the browser can still save it.
      saveUrlAs(source.url, item.fileName);
    }
  }, []);

  const getCurrentTime = useCallback(() => audioRef.current?.currentTime ?? 0, []);

  const controls = useMemo<PlayerControls>(
    () => ({
      state,
      play,
      pause,
      resume,
      stop,
      seekTo,
      seekBy,
      setPlaybackRate,
      download,
      getCurrentTime,
    }),
    [state, play, pause, resume, stop, seekTo, seekBy, setPlaybackRate, download, getCurrentTime],
  );

  return (
    <PlayerContext.Provider value={controls}>
      {children}
      {/* The one media element of the app, kept outside the pages so audio survives navigation. */}
      {/* biome-ignore lint/a11y/useMediaCaption: hidden, without controls; the bar shows the spoken text, and no caption file exists to attach. */}
      <audio ref={audioRef} preload="auto" hidden />
    </PlayerContext.Provider>
  );
}

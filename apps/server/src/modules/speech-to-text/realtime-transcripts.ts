import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { SttModel } from '@parla/contracts';
import type { RequestCaller } from '../../platform/auth-guard';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/client';
import { newId } from '../../platform/ids';
import type { Storage } from '../../platform/storage/storage';
import type { HeardWord } from '../../providers/stt/stt-provider';
import { makePlaybackMp3, rawPcmToWav } from './speech-to-text.media';
import { audioKeyOf } from './speech-to-text.service';
import { insertTranscript } from './speech-to-text.store';
import { toChunk } from './transcript-words';

/** A committed stretch of a live session: its text and words, times in seconds from the session's start. */
export interface LiveSegment {
  start: number;
  end: number;
  text: string;
  words: HeardWord[];
}

/** "Live dictation, 27 Nov 2026 10:42" (UTC: the server does not know the speaker's time zone). */
export function liveTranscriptName(at: Date): string {
  const day = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(at);
  return `Live dictation, ${day} ${at.toISOString().slice(11, 16)}`;
}

/**
 * Keeps a finished live session that committed text as a transcript of the workspace (issue 20 item 4,
 * `enable_logging`): its audio as MP3 and its committed words with times, like a batch transcript, with
 * `source: 'realtime'`. Its credits were settled commit by commit already; the row records them.
 */
export async function keepLiveTranscript(
  deps: { db: Db; storage: Storage; clock: Clock },
  session: {
    caller: RequestCaller;
    model: SttModel;
    /** The session's 16 kHz s16le recording, and a scratch folder for its conversions. */
    file: string;
    dir: string;
    samples: number;
    segments: LiveSegment[];
    credits: number;
    /** ISO 639-3. */
    languageCode: string;
    startedAt: Date;
  },
): Promise<string> {
  const wav = await rawPcmToWav(session.file, path.join(session.dir, 'session.wav'));
  const mp3 = path.join(session.dir, 'session.mp3');
  await makePlaybackMp3(wav.file, mp3, 1);
  const id = newId();
  const { caller } = session;
  const audioKey = audioKeyOf(caller.workspaceId, id);
  await deps.storage.put(audioKey, createReadStream(mp3));
  const transcript = toChunk(
    {
      languageCode: session.languageCode,
      languageProbability: 1,
      durationSecs: wav.seconds,
      channels: 1,
      segments: session.segments.map((s) => ({ start: s.start, end: s.end, text: s.text, words: s.words })),
      events: [],
    },
    { timestamps: 'word', audioEvents: false },
  );
  try {
    await insertTranscript(deps.db, {
      id,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId ?? null,
      name: liveTranscriptName(session.startedAt),
      status: 'completed',
      progress: 1,
      source: 'realtime',
      modelId: session.model.model_id,
      options: {
        languageCode: undefined,
        tagAudioEvents: false,
        numSpeakers: undefined,
        timestampsGranularity: 'word',
        diarize: false,
        diarizationThreshold: undefined,
        useMultiChannel: false,
        multichannelOutputStyle: 'separate',
        additionalFormats: [],
      },
      languageCode: session.languageCode,
      durationSecs: Math.round(wav.seconds * 1000) / 1000,
      channels: 1,
      audioKey,
      transcript,
      credits: session.credits,
      requestId: caller.requestId,
      createdAt: session.startedAt,
      completedAt: deps.clock.now(),
    });
  } catch (error) {
    await deps.storage.delete(audioKey).catch(() => undefined);
    throw error;
  }
  return id;
}

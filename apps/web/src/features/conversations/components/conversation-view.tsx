import type { ConversationDetail, ConversationTranscriptTurn } from '@parla/contracts';
import { clsx } from 'clsx';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatDate, fromUnixSeconds } from '../../../lib/format-date';
import { getToastMessage } from '../../../lib/http-error';
import { useToast } from '../../../lib/toasts/use-toast';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { FormMessage } from '../../../ui/field';
import { PauseIcon, PlayIcon, ThumbDownIcon, ThumbUpIcon, TrashIcon } from '../../../ui/icons';
import { usePlayer } from '../../player';
import { useDeleteConversation } from '../api/delete-conversation';
import { useSendConversationFeedback } from '../api/send-conversation-feedback';
import { conversationPlayback } from '../conversation-playback';
import {
  conversationStatusLabels,
  describeEnd,
  describeMinutes,
  describeResponseMode,
  formatCallDuration,
  formatToolParams,
} from '../conversation-rules';

/** The page of an agent (the agents feature's editor), linked by URL. */
function agentPath(agentId: string): string {
  return `/app/conversational-ai/agents/${encodeURIComponent(agentId)}`;
}

const HISTORY_PATH = '/app/conversational-ai/history';

/**
 * One conversation (issue 28 items 5 and 7): who it was with, its metadata — length, minutes charged,
 * how the agent answered — its recording in the bottom player, like or dislike, delete, and the
 * transcript with each turn's time, tool calls and their results.
 */
export function ConversationView({ conversation }: { conversation: ConversationDetail }) {
  const player = usePlayer();
  const playerRef = useRef(player);
  playerRef.current = player;
  const navigate = useNavigate();
  const { toast } = useToast();
  const remove = useDeleteConversation();
  const feedback = useSendConversationFeedback();
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string>();
  const pendingSeek = useRef<number | null>(null);

  const { metadata } = conversation;
  const status = conversationStatusLabels[conversation.status];
  const agentName = conversation.agent_name ?? 'Deleted agent';
  const loaded =
    player.state.item?.type === 'conversation' && player.state.item.id === conversation.conversation_id;
  const playing = loaded && player.state.status === 'playing';
  const canSeek = loaded && ['ready', 'playing', 'paused', 'ended'].includes(player.state.status);
  const score = metadata.feedback.overall_score;
  const ended = describeEnd(conversation);

  // A time clicked before the recording was loaded: go there once it can.
  useEffect(() => {
    if (!canSeek || pendingSeek.current === null) return;
    playerRef.current.seekTo(pendingSeek.current);
    pendingSeek.current = null;
  }, [canSeek]);

  const togglePlay = () => {
    if (!loaded) player.play(...conversationPlayback(conversation, true));
    else if (playing) player.pause();
    else player.resume();
  };
  const playFrom = (secs: number) => {
    if (canSeek) {
      player.seekTo(secs);
      if (!playing) player.resume();
      return;
    }
    pendingSeek.current = secs;
    player.play(...conversationPlayback(conversation, true));
  };

  const rate = (next: 'like' | 'dislike') => {
    setFailure(undefined);
    feedback.mutate(
      { conversationId: conversation.conversation_id, feedback: score === next ? null : next },
      { onError: (error) => setFailure(getToastMessage(error)) },
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <Link to={HISTORY_PATH} className="self-start text-sm text-fg-muted hover:text-fg hover:underline">
          ← Call history
        </Link>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="flex min-w-0 flex-col gap-1">
            <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">
              {conversation.analysis?.call_summary_title?.trim() || `Conversation with ${agentName}`}
            </h1>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-fg-muted">
              {conversation.agent_name ? (
                <Link to={agentPath(conversation.agent_id)} className="font-medium text-fg underline">
                  {agentName}
                </Link>
              ) : (
                <span>{agentName}</span>
              )}
              <span aria-hidden="true">·</span>
              <span>{formatDate(fromUnixSeconds(metadata.start_time_unix_secs))}</span>
              <Badge dot tone={status.tone}>
                {status.label}
              </Badge>
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {conversation.has_audio && (
              <Button size="sm" onClick={togglePlay} disabled={loaded && player.state.status === 'loading'}>
                {playing ? <PauseIcon aria-hidden="true" /> : <PlayIcon aria-hidden="true" />}
                {playing
                  ? 'Pause'
                  : loaded && player.state.status === 'loading'
                    ? 'Loading…'
                    : 'Play recording'}
              </Button>
            )}
            <Button
              variant={score === 'like' ? 'primary' : 'secondary'}
              size="icon"
              aria-label="Like"
              aria-pressed={score === 'like'}
              disabled={feedback.isPending}
              onClick={() => rate('like')}
            >
              <ThumbUpIcon aria-hidden="true" />
            </Button>
            <Button
              variant={score === 'dislike' ? 'primary' : 'secondary'}
              size="icon"
              aria-label="Dislike"
              aria-pressed={score === 'dislike'}
              disabled={feedback.isPending}
              onClick={() => rate('dislike')}
            >
              <ThumbDownIcon aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Delete conversation"
              onClick={() => setDeleting(true)}
            >
              <TrashIcon aria-hidden="true" />
            </Button>
          </div>
        </div>
        {failure && <FormMessage>{failure}</FormMessage>}
      </header>

      <section
        aria-label="About this conversation"
        className="rounded-xl border border-line bg-surface p-4 sm:p-5"
      >
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Fact term="Duration">{formatCallDuration(metadata.call_duration_secs)}</Fact>
          <Fact term="Minutes charged">{describeMinutes(metadata.cost)}</Fact>
          <Fact term="Messages">{conversation.transcript.length}</Fact>
          <Fact term="How the agent answered" wide>
            {describeResponseMode(metadata.response_mode, metadata.response_mode_reason)}
          </Fact>
          {metadata.main_language && <Fact term="Language">{metadata.main_language}</Fact>}
          <Fact term="Started from">
            {
              {
                public: 'A public link or widget',
                signed_url: 'A signed URL',
                authorization_header: 'An API key',
              }[metadata.authorization_method]
            }
            {metadata.text_only && ' (text only)'}
          </Fact>
          {metadata.phone_call && (
            <Fact term="Phone call" wide>
              {metadata.phone_call.direction === 'outbound'
                ? `Called ${metadata.phone_call.external_number} from ${metadata.phone_call.agent_number}`
                : `${metadata.phone_call.external_number} called ${metadata.phone_call.agent_number}`}{' '}
              (Twilio)
            </Fact>
          )}
          {ended && (
            <Fact term="Ended" wide>
              {ended}
            </Fact>
          )}
          {!conversation.has_audio && (
            <Fact term="Recording" wide>
              No recording was kept of this conversation (the agent does not record audio, or it was text
              only).
            </Fact>
          )}
        </dl>
        {conversation.analysis?.transcript_summary && (
          <div className="mt-4 border-t border-line pt-4">
            <h2 className="text-sm font-medium">Summary</h2>
            <p className="mt-1 text-sm text-fg-muted">{conversation.analysis.transcript_summary}</p>
          </div>
        )}
      </section>

      <section aria-labelledby="transcript-heading" className="flex flex-col gap-3">
        <h2 id="transcript-heading" className="text-lg font-semibold tracking-tight">
          Transcript
        </h2>
        {conversation.transcript.length === 0 ? (
          <p className="rounded-xl border border-dashed border-line px-6 py-10 text-center text-sm text-fg-muted">
            Nothing was said in this conversation.
          </p>
        ) : (
          <ol className="flex flex-col gap-3">
            {conversation.transcript.map((turn, index) => (
              <TranscriptTurn
                // Turns have no id; their order is fixed once kept.
                // biome-ignore lint/suspicious/noArrayIndexKey: the transcript never reorders.
                key={index}
                turn={turn}
                canPlay={conversation.has_audio}
                onPlayFrom={playFrom}
              />
            ))}
          </ol>
        )}
      </section>

      <ConfirmDialog
        open={deleting}
        title="Delete this conversation?"
        description="Its transcript and recording are deleted for good."
        confirmLabel="Delete"
        pending={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(conversation.conversation_id, {
            onSuccess: () => {
              if (loaded) player.stop();
              toast({ title: 'Conversation deleted', variant: 'success' });
              navigate(HISTORY_PATH);
            },
            onError: (error) => {
              setDeleting(false);
              setFailure(getToastMessage(error));
            },
          })
        }
      />
    </div>
  );
}

function Fact({ term, wide = false, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={clsx('flex flex-col gap-0.5', wide && 'sm:col-span-2 lg:col-span-3')}>
      <dt className="text-fg-muted">{term}</dt>
      <dd className="text-fg">{children}</dd>
    </div>
  );
}

function TranscriptTurn({
  turn,
  canPlay,
  onPlayFrom,
}: {
  turn: ConversationTranscriptTurn;
  canPlay: boolean;
  onPlayFrom: (secs: number) => void;
}) {
  const isAgent = turn.role === 'agent';
  const time = formatCallDuration(turn.time_in_call_secs);
  const results = new Map(turn.tool_results.map((result) => [result.request_id, result]));
  return (
    <li
      className={clsx(
        'flex flex-col gap-2 rounded-xl border px-4 py-3',
        isAgent ? 'border-line bg-surface' : 'border-accent/30 bg-accent/5',
      )}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-muted">
        <span className="font-semibold text-fg">{isAgent ? 'Agent' : 'User'}</span>
        {canPlay ? (
          <button
            type="button"
            onClick={() => onPlayFrom(turn.time_in_call_secs)}
            aria-label={`Play from ${time}`}
            className="cursor-pointer tabular-nums underline-offset-2 hover:text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          >
            {time}
          </button>
        ) : (
          <span className="tabular-nums">{time}</span>
        )}
        {turn.source_medium === 'text' && <span>typed</span>}
        {turn.interrupted && <span>interrupted</span>}
      </div>
      {turn.message ? (
        <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{turn.message}</p>
      ) : (
        turn.tool_calls.length === 0 &&
        turn.tool_results.length === 0 && (
          <p className="text-sm text-fg-muted italic">No words were kept for this turn.</p>
        )
      )}
      {turn.tool_calls.map((call) => {
        const result = results.get(call.request_id);
        return (
          <details key={call.request_id} className="rounded-lg border border-line bg-subtle text-sm">
            <summary className="cursor-pointer px-3 py-2 font-medium focus-visible:outline-2 focus-visible:outline-ring">
              Tool call: <code className="font-mono">{call.tool_name}</code>
              {result && (result.is_error ? ' — failed' : ' — answered')}
            </summary>
            <div className="flex flex-col gap-2 border-t border-line px-3 py-2">
              <p className="text-xs text-fg-muted">Parameters</p>
              <pre className="overflow-x-auto font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">
                {formatToolParams(call.params_as_json)}
              </pre>
              {result && (
                <>
                  <p className={clsx('text-xs', result.is_error ? 'text-danger' : 'text-fg-muted')}>
                    {result.is_error ? 'Error' : 'Result'}
                  </p>
                  <pre className="overflow-x-auto font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">
                    {formatToolParams(result.result_value)}
                  </pre>
                </>
              )}
            </div>
          </details>
        );
      })}
      {turn.tool_results
        .filter((result) => !turn.tool_calls.some((call) => call.request_id === result.request_id))
        .map((result) => (
          <details key={result.request_id} className="rounded-lg border border-line bg-subtle text-sm">
            <summary className="cursor-pointer px-3 py-2 font-medium focus-visible:outline-2 focus-visible:outline-ring">
              Tool result: <code className="font-mono">{result.tool_name}</code>
              {result.is_error && ' — failed'}
            </summary>
            <pre className="overflow-x-auto border-t border-line px-3 py-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere]">
              {formatToolParams(result.result_value)}
            </pre>
          </details>
        ))}
    </li>
  );
}

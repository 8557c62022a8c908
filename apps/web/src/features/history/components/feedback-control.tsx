import {
  FEEDBACK_MAX_CHARACTERS,
  feedbackMessages,
  feedbackOpensDialog,
  feedbackTextProblem,
  POSITIVE_FEEDBACK_MAX_CHARACTERS,
} from '@parla/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useToast } from '../../../lib/toasts/use-toast';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { SpinnerIcon, ThumbDownIcon, ThumbUpIcon } from '../../../ui/icons';
import { type FeedbackInput, submitFeedback } from '../api/submit-feedback';

/** The five optional boxes of negative feedback (history/voices §5), in the spec's order. */
const NEGATIVE_REASONS = [
  ['emotions', 'Emotions'],
  ['inaccurate_clone', 'Inaccurate clone'],
  ['glitches', 'Glitches'],
  ['audio_quality', 'Audio quality'],
  ['other', 'Other'],
] as const;
type Reason = (typeof NEGATIVE_REASONS)[number][0];

export interface FeedbackControlProps {
  historyItemId: string;
  /** The item's text: thumbs up on a long text needs no dialog (§4). */
  text: string;
}

/**
 * Thumbs up and down for a generation (history/voices §2 "Feedback control", §4 "Feedback flow"): thumbs
 * down, or thumbs up on a text of at most 400 characters, opens the feedback dialog; thumbs up on a
 * longer text is sent at once. The bottom player shows it once its rule allows (after 3 s or at the end),
 * where the server has the `feedback_enabled` feature config.
 */
export function FeedbackControl({ historyItemId, text }: FeedbackControlProps) {
  const { toast, toastError } = useToast();
  const [given, setGiven] = useState<boolean | undefined>(undefined);
  const [dialog, setDialog] = useState<boolean | undefined>(undefined);
  const send = useMutation({
    mutationFn: (body: FeedbackInput) => submitFeedback(historyItemId, body),
    onSuccess: (feedback) => {
      setGiven(feedback.thumbs_up);
      setDialog(undefined);
      toast({ title: feedbackMessages.submitted, variant: 'success' });
    },
    onError: (error) => toastError(error),
  });

  const handleThumb = (thumbsUp: boolean) => {
    if (feedbackOpensDialog(thumbsUp, text)) setDialog(thumbsUp);
    else send.mutate({ thumbs_up: true });
  };

  return (
    <>
      <fieldset aria-label="Rate this audio" className="flex items-center">
        {([true, false] as const).map((thumbsUp) => (
          <Button
            key={String(thumbsUp)}
            variant="ghost"
            size="icon"
            aria-label={thumbsUp ? 'Good audio' : 'Bad audio'}
            aria-pressed={given === thumbsUp}
            disabled={send.isPending}
            className="aria-pressed:bg-subtle aria-pressed:text-accent"
            onClick={() => handleThumb(thumbsUp)}
          >
            {thumbsUp ? <ThumbUpIcon /> : <ThumbDownIcon />}
          </Button>
        ))}
      </fieldset>
      {dialog !== undefined && (
        <FeedbackDialog
          thumbsUp={dialog}
          pending={send.isPending}
          onSubmit={(body) => send.mutate(body)}
          onClose={() => setDialog(undefined)}
        />
      )}
    </>
  );
}

interface FeedbackDialogProps {
  thumbsUp: boolean;
  pending: boolean;
  onSubmit: (body: FeedbackInput) => void;
  onClose: () => void;
}

/** The feedback dialog (history/voices §5): a text of 20 characters or more (or none), and for thumbs down five boxes. */
function FeedbackDialog({ thumbsUp, pending, onSubmit, onClose }: FeedbackDialogProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [reasons, setReasons] = useState<Record<Reason, boolean>>({
    emotions: false,
    inaccurate_clone: false,
    glitches: false,
    audio_quality: false,
    other: false,
  });
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const maxLength = thumbsUp ? POSITIVE_FEEDBACK_MAX_CHARACTERS : FEEDBACK_MAX_CHARACTERS;

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = feedbackTextProblem(thumbsUp, text);
    setProblem(found);
    if (found) return;
    onSubmit({ thumbs_up: thumbsUp, feedback: text.trim(), ...(thumbsUp ? {} : reasons) });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={thumbsUp ? 'What did you like?' : 'What went wrong?'}
      description="Your feedback helps us make the voices better."
    >
      <form id={`${id}-form`} className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate>
        {!thumbsUp && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">What was wrong (optional)</legend>
            {NEGATIVE_REASONS.map(([key, label]) => (
              <label key={key} className="flex items-center gap-2 text-sm text-fg">
                <input
                  type="checkbox"
                  checked={reasons[key]}
                  onChange={(event) => setReasons((r) => ({ ...r, [key]: event.target.checked }))}
                  className="size-4 accent-accent"
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-text`} className="text-sm font-medium text-fg">
            Tell us more (optional)
          </label>
          <textarea
            id={`${id}-text`}
            value={text}
            maxLength={maxLength}
            rows={4}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-note`}
            className="w-full resize-y rounded-lg border border-line bg-surface p-3 text-sm text-fg placeholder:text-fg-muted/70 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/30 aria-invalid:border-danger"
          />
          <div id={`${id}-note`} className="flex justify-between gap-3 text-sm">
            <span className={problem ? 'text-danger' : 'text-fg-muted'} role={problem ? 'alert' : undefined}>
              {problem ?? `At least 20 characters, or leave it empty.`}
            </span>
            {thumbsUp && (
              <span className="shrink-0 text-fg-muted tabular-nums">
                {text.length} / {POSITIVE_FEEDBACK_MAX_CHARACTERS}
              </span>
            )}
          </div>
        </div>
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" aria-busy={pending} disabled={pending}>
            {pending && <SpinnerIcon className="motion-safe:animate-spin" />}
            Send feedback
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

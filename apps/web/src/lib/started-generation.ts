/** A generation whose audio is arriving (text to speech or dialogue), read from its response's headers. */
export interface StartedGeneration {
  /** The audio, arriving part by part; hand it to the player unread. */
  response: Response;
  /** The history item the generation will be kept as (absent with logging off). */
  historyItemId: string | null;
  /** Credits charged (`x-character-count`). */
  characterCost: number | null;
}

/** The public API's generation headers (`history-item-id`, `x-character-count`) of a streamed answer. */
export function startedGeneration(response: Response): StartedGeneration {
  const cost = Number(response.headers.get('x-character-count'));
  return {
    response,
    historyItemId: response.headers.get('history-item-id'),
    characterCost: Number.isFinite(cost) && response.headers.has('x-character-count') ? cost : null,
  };
}

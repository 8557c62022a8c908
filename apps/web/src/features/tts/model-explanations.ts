/**
 * What each of Parla's own models is, in plain words, for the "About the models" page (issue 18 item 4,
 * issue 26 item 7): what it is good for, the languages, how fast it is and how it sounds. No engine is
 * named and no synthesis jargon is used: people choose by what a model does, not by the program behind it.
 */
export interface ModelExplanation {
  /** What it is best at, in a few words (the card's badge). */
  kind: string;
  /** What it is good and not good at. */
  summary: string;
}

export const MODEL_EXPLANATIONS: Record<string, ModelExplanation> = {
  parla_v1: {
    kind: 'Best quality',
    summary:
      'Each voice in the best way Parla can speak it. The American English narrators are the smoothest voices here; the other English voices are clear and a little mechanical; the other languages are clear but sound plainly synthetic. A good choice for narration and anything people listen to at length.',
  },
  parla_tags_v1: {
    kind: 'Directed by audio tags',
    summary:
      'The voices of Parla v1, directed by tags in brackets: [whispers], [shouts], [slowly] or [pause] change how the words after them are said instead of being read out. Sounds Parla cannot make honestly, such as [laughs], are left out rather than faked. Made for dialogue; a request holds up to 3,000 characters.',
  },
  parla_multilingual_v1: {
    kind: 'Fastest, most languages',
    summary:
      'Every voice in every language Parla speaks, the quickest to start and at half the credits, with the exact time of each word (for captions and the timestamps of the API). It sounds robotic, like a screen reader: fine for drafts, captions and quick checks.',
  },
  parla_english_v1: {
    kind: 'English, fast',
    summary:
      'English only: every English voice, fast and easy to understand, at half the credits. Good for short prompts and announcements; voices of other languages cannot use it.',
  },
  parla_external_v1: {
    kind: 'Your own speech server',
    summary:
      'A speech server that whoever runs this installation has connected (any server that speaks the OpenAI speech API, neural ones included). It speaks with its own voices; which languages it speaks is up to that server, so only English is listed here.',
  },
  parla_sts_v1: {
    kind: 'Voice changer',
    summary:
      'Says your recording again in the chosen voice: your words, timing and intonation stay, the pitch and tone move towards the voice’s. It does not learn the voice, so your accent and way of speaking stay too. Works on speech in any language.',
  },
};

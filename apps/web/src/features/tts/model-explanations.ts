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
  /** Its licence: the trained model's (as the model files list below shows it), or the software's. */
  licence: string;
}

/** The classic models' licence: the speech software they run, listed in the third-party notices. */
const CLASSIC_LICENCE =
  'Free software (GPL-3.0-or-later and BSD-style licences; see the third-party notices).';

export const MODEL_EXPLANATIONS: Record<string, ModelExplanation> = {
  parla_neural_v1: {
    kind: 'Natural, the default',
    summary:
      'A neural network trained on recorded speech: smooth, natural voices that breathe and phrase like people, in American and British English, Spanish, French, Italian, Brazilian Portuguese and Hindi. Japanese (read from kana) and Mandarin work but sound less sure. Each voice can also read the other languages of this list with its own accent. Voices of other languages, and your own voices, use Parla v1. It takes longer to start than the classic models.',
    licence: 'Apache-2.0 (the model) and MIT (its voices).',
  },
  parla_neural_fast_v1: {
    kind: 'Natural, fast',
    summary:
      'A smaller neural network with one natural American man’s voice, quick to start, at half the credits: for quick replies and long English texts. English only; the American men’s voices use it.',
    licence: 'CC0-1.0 (public domain).',
  },
  parla_v1: {
    kind: 'Classic voices',
    summary:
      'Each voice the way Parla spoke it before its neural model: clear, light and quick, and plainly synthetic. Speaks every voice, your own ones included, in every language Parla has; voices you made before keep sounding the same with it.',
    licence: CLASSIC_LICENCE,
  },
  parla_tags_v1: {
    kind: 'Directed by audio tags',
    summary:
      'The classic voices of Parla v1, directed by tags in brackets: [whispers], [shouts], [slowly] or [pause] change how the words after them are said instead of being read out. Sounds Parla cannot make honestly, such as [laughs], are left out rather than faked. Made for dialogue; a request holds up to 3,000 characters.',
    licence: CLASSIC_LICENCE,
  },
  parla_multilingual_v1: {
    kind: 'Fastest, most languages',
    summary:
      'Every voice in every language Parla speaks, the quickest to start and at half the credits, with the exact time of each word (for captions and the timestamps of the API). It sounds robotic, like a screen reader: fine for drafts, captions and quick checks.',
    licence: CLASSIC_LICENCE,
  },
  parla_english_v1: {
    kind: 'English, fast',
    summary:
      'English only: every English voice, fast and easy to understand, at half the credits. Good for short prompts and announcements; voices of other languages cannot use it.',
    licence: CLASSIC_LICENCE,
  },
  parla_external_v1: {
    kind: 'Your own speech server',
    summary:
      'A speech server that whoever runs this installation has connected (any server that speaks the OpenAI speech API, neural ones included). It speaks with its own voices; which languages it speaks is up to that server, so only English is listed here.',
    licence: 'Whatever that server’s own licence is.',
  },
  parla_sts_v1: {
    kind: 'Voice changer',
    summary:
      'Says your recording again in the chosen voice: your words, timing and intonation stay, the pitch and tone move towards the voice’s. It does not learn the voice, so your accent and way of speaking stay too. Works on speech in any language.',
    licence: 'Free software (Parla’s own signal processing and Rubber Band, GPL-2.0-or-later).',
  },
};

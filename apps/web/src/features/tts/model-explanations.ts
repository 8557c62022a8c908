/**
 * What each of Parla's own models is, in plain words, for the "About the models" page (issue 18 item 4).
 * No engine is named: people choose by what a model does, not by the program behind it.
 */
export interface ModelExplanation {
  /** What kind of synthesis it is. */
  kind: string;
  /** How it works and what it is good and not good at. */
  summary: string;
}

export const MODEL_EXPLANATIONS: Record<string, ModelExplanation> = {
  parla_v1: {
    kind: 'Each voice in its own synthesiser',
    summary:
      'The American English narrators use a statistical (HTS) voice trained on one speaker’s recordings: the smoothest English here. The other American voices and the Scottish one are compact voices built from a single speaker’s recordings (statistical units, or diphones: short recorded sound pairs joined together). Every other voice, and every language other than English, is spoken by a formant synthesiser, which shapes the sound of a voice by rule: clear and in many languages, but plainly synthetic.',
  },
  parla_multilingual_v1: {
    kind: 'Formant synthesiser',
    summary:
      'Every voice through the formant synthesiser: the most languages, the exact time of each word (for captions and the timestamps of the API), the lowest latency and half the credits. It sounds synthetic, like a screen reader.',
  },
  parla_english_v1: {
    kind: 'Compact English voices',
    summary:
      'English only: each English voice as a compact voice built from one speaker’s recordings (statistical units, or diphones). Fast and intelligible, half the credits; voices of other languages cannot use it.',
  },
  parla_external_v1: {
    kind: 'An external speech server',
    summary:
      'A speech server that the operator of this installation runs and connects (any server speaking the OpenAI speech API, neural ones included). It speaks with its own voices; which languages it speaks is up to that server, so only English is listed here.',
  },
  parla_sts_v1: {
    kind: 'Signal processing (voice changer)',
    summary:
      'Speech to speech keeps the timing, intonation and words of your recording and moves its pitch and formants towards the chosen voice. It is not a neural voice conversion: your accent and articulation stay. It works on speech in any language.',
  },
};

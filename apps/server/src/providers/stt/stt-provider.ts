/** Mono speech to the words heard in it. */
export interface SttProvider {
  /**
   * The words heard, lower case, space-separated (no punctuation promised: compare with `words`).
   * Rejects when the recogniser fails or runs past `timeoutMs`.
   */
  transcribe(
    audio: { sampleRate: number; samples: Int16Array },
    options?: { timeoutMs?: number },
  ): Promise<string>;
}

/** What the bar says when something goes wrong (history/voices §4, §8); one place so tests can name them. */
export const playerMessages = {
  loadFailed: (reason: string) => `The audio could not be loaded: ${reason}`,
  unplayable: 'The audio could not be played: the file is damaged or in a format this browser cannot play.',
  emptyStream: 'The audio could not be loaded: the response held no audio.',
  streamCut: 'The audio stream was cut off; the part that arrived can still be played.',
  nothingToDownload: 'There is no audio to download yet.',
  downloadFailed: (reason: string) => `The download failed: ${reason}`,
  /** Logged only (history/voices §4 "Autoplay blocked by the browser is only logged"). */
  autoplayBlocked: 'Autoplay was blocked by the browser; press play to start.',
  /** §8 "Cannot be used outside of provider". */
  outsideProvider: 'Cannot be used outside of provider',
} as const;

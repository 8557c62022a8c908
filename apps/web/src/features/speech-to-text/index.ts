/** The speech-to-text feature's front door for other features. */
export { transcriptPath } from './components/transcript-list';

/** The audio-native feature's front door: what its pages compose (issue 30 item 4). */

export { ANALYTICS_PERIODS, type AnalyticsPeriod, combineAnalytics } from './analytics-rules';
export {
  useAudioNativeAnalytics,
  useAudioNativeAnalyticsOf,
  useAudioNativeProject,
  useAudioNativeProjects,
  useUpdateAudioNativeSettings,
} from './api';
export { AnalyticsChart } from './components/analytics-chart';
export { AnalyticsSummary, listenThroughText } from './components/analytics-summary';
export { CreateAudioNativeForm } from './components/create-audio-native-form';
export { PlayerPreview } from './components/player-preview';
export { SnippetBox } from './components/snippet-box';

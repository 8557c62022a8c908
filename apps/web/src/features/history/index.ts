/** The history feature's front door for other features. */
export { LatestGenerations, latestGenerationsQueryOptions } from './components/latest-generations';
export { RecentHistory } from './components/recent-history';

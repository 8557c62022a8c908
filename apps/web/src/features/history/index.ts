/** The history feature's front door for other features. */
export { LatestGenerations } from './components/latest-generations';
export { RecentHistory } from './components/recent-history';

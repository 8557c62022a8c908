/** The history feature's front door for other features. */
export { RecentHistory } from './components/recent-history';

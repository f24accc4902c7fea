/** The Review screen: the pending documents, oldest first, one at a time, with a key for every action. */
export { ReviewPage } from './components/review-page';

/** What an address that names no screen shows. */
export { NotFoundPage } from './components/not-found-page';

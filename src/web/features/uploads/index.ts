/** Recent Uploads: a placeholder until the screen is built. */
export { UploadsPage } from './components/uploads-page';

/** The User Guide: a step-by-step slideshow of Clearbase. */
export { UserGuidePage } from './components/user-guide-page';

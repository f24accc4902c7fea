export { FamilyPage } from './family-page';

/** User Management: the staff accounts, to add, find, edit and delete. */
export { UsersPage } from './components/users-page';

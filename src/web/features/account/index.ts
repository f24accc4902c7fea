/** My Account: the signed-in person's profile, two-step sign-in and sessions; the two-step setup an admin must finish. */
export { AccountPage } from './components/account-page';
export { TwoFactorEnrol } from './components/two-factor-enrol';
export { refreshAfterTwoFactorChange } from './api';

export { createAccountService, issueUserLink, type AccountService } from './account.service';
export { hasActiveAdminWithPassword } from './accounts.repository';
export { registerAuthRoutes, type SignInModeSource } from './auth.routes';
export { bootstrapPassword, createAuthService, SHARED_PRINCIPAL, type AuthService, type PasswordBootstrap } from './auth.service';
export { createAccountThrottle, createLoginThrottle, deriveAccountKey, deriveAddressKey } from './login-throttle';
export { createSessionSignals, type SessionSignals } from './session-signals';
export { deleteUserSessions } from './sessions.repository';
export { deleteExpiredTokens, deleteUserTokens } from './user-tokens.repository';

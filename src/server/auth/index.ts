export { registerAuthRoutes, type SignInModeSource } from './auth.routes';
export { bootstrapPassword, createAuthService, SHARED_PRINCIPAL, type AuthService, type PasswordBootstrap } from './auth.service';
export { createLoginThrottle, deriveAddressKey } from './login-throttle';

export { registerAuthRoutes } from './auth.routes';
export { bootstrapPassword, createAuthService, type AuthService, type PasswordBootstrap } from './auth.service';
export { createLoginThrottle, deriveAddressKey } from './login-throttle';

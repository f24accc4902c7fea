import { z } from 'zod';

export const ZLoginRequest = z.object({
  password: z.string().min(1, 'Password is required').max(1024, 'Password is too long'),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZSession = z.object({
  authenticated: z.boolean(),
  /** When the session ends if left idle (ISO 8601); absent when not authenticated. */
  expiresAt: z.string().optional(),
});
export type TSession = z.infer<typeof ZSession>;

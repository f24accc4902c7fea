import { z } from 'zod';

export const HEALTH_STATUSES = ['ok', 'warning', 'error'] as const;
export const ZHealthStatus = z.enum(HEALTH_STATUSES);
export type THealthStatus = z.infer<typeof ZHealthStatus>;

export const ZServiceHealth = z.object({ status: ZHealthStatus, message: z.string() });
export type TServiceHealth = z.infer<typeof ZServiceHealth>;

export const HEALTH_SERVICES = ['database', 's3', 'form', 'gmail', 'antivirus'] as const;
export type THealthServiceName = (typeof HEALTH_SERVICES)[number];

export const ZHealth = z.object({
  timestamp: z.string(),
  services: z.object({
    database: ZServiceHealth,
    s3: ZServiceHealth,
    form: ZServiceHealth,
    gmail: ZServiceHealth,
    antivirus: ZServiceHealth,
  }),
});
export type THealth = z.infer<typeof ZHealth>;

export const HEALTH_SERVICE_LABELS: Record<THealthServiceName, string> = {
  database: 'Database',
  s3: 'Secure Storage',
  form: 'Form Webhook',
  gmail: 'Mailbox',
  antivirus: 'Antivirus',
};

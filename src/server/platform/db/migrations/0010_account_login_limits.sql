ALTER TABLE "login_attempts" ADD COLUMN "window_seconds" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" integer;
ALTER TABLE "mailbox_state" ADD COLUMN "check_owner" text;--> statement-breakpoint
ALTER TABLE "mailbox_state" ADD COLUMN "check_lease_until" timestamp with time zone;
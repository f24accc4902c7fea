CREATE TABLE "login_attempts" (
	"address_hash" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_attempts_window_started_at_idx" ON "login_attempts" USING btree ("window_started_at");
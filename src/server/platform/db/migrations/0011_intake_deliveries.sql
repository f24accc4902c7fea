CREATE TABLE "intake_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"status" integer NOT NULL,
	"submission_id" uuid,
	"player_id" text,
	"documents" integer DEFAULT 0 NOT NULL,
	"error" text,
	"replay_of" uuid,
	"body_key" text,
	"content_type" text DEFAULT '' NOT NULL,
	CONSTRAINT "intake_deliveries_provider_ck" CHECK ("intake_deliveries"."provider" in ('jotform', 'typeform', 'google', 'tally', 'formstack', 'cognito', 'gravity', 'wufoo')),
	CONSTRAINT "intake_deliveries_outcome_ck" CHECK ("intake_deliveries"."outcome" in ('stored', 'duplicate', 'refused', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "intake_deliveries" ADD CONSTRAINT "intake_deliveries_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_deliveries" ADD CONSTRAINT "intake_deliveries_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "intake_deliveries_provider_received_idx" ON "intake_deliveries" USING btree ("provider","received_at");
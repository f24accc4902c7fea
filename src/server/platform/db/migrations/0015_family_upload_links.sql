CREATE TABLE "automatic_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient" text NOT NULL,
	"sent_on" date NOT NULL,
	"season_id" text NOT NULL,
	"player_ids" jsonb NOT NULL,
	"reason" text NOT NULL,
	"history_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_schedules" (
	"season_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"days_before_deadline" jsonb NOT NULL,
	"days_after_rejection" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"player_id" text NOT NULL,
	"season_id" text NOT NULL,
	"issued_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_source_ck";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "upload_link_id" uuid;--> statement-breakpoint
ALTER TABLE "automatic_reminders" ADD CONSTRAINT "automatic_reminders_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automatic_reminders" ADD CONSTRAINT "automatic_reminders_history_id_notification_history_id_fk" FOREIGN KEY ("history_id") REFERENCES "public"."notification_history"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_schedules" ADD CONSTRAINT "reminder_schedules_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_links" ADD CONSTRAINT "upload_links_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_links" ADD CONSTRAINT "upload_links_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automatic_reminders_recipient_day_uq" ON "automatic_reminders" USING btree ("recipient","sent_on");--> statement-breakpoint
CREATE INDEX "automatic_reminders_season_idx" ON "automatic_reminders" USING btree ("season_id");--> statement-breakpoint
CREATE UNIQUE INDEX "upload_links_token_hash_uq" ON "upload_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "upload_links_player_season_idx" ON "upload_links" USING btree ("player_id","season_id");--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_upload_link_id_upload_links_id_fk" FOREIGN KEY ("upload_link_id") REFERENCES "public"."upload_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submissions_upload_link_idx" ON "submissions" USING btree ("upload_link_id","received_at") WHERE "submissions"."upload_link_id" is not null;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_source_ck" CHECK ("submissions"."source" in ('form', 'mailbox', 'upload', 'test', 'family'));--> statement-breakpoint
UPDATE "notification_templates" SET "content" = 'Hello {{guardianName}},

We are still missing these documents for {{playerName}} for {{season}}:
{{missingDocuments}}

Send them from your phone on {{playerName}}''s upload page:
{{uploadLink}}

Or send them before {{deadline}} by replying to this e-mail with the files attached.

Thank you,
The league registration team', "updated_at" = now() WHERE "name" = 'Missing Documents Reminder' AND "content" = 'Hello {{guardianName}},

We are still missing these documents for {{playerName}} for {{season}}:
{{missingDocuments}}

Please send them before {{deadline}} by replying to this e-mail with the files attached,
or through the registration form.

Thank you,
The league registration team';
--> statement-breakpoint
UPDATE "notification_templates" SET "content" = 'Hello {{guardianName}},

Registration for {{season}} closes on {{deadline}}. {{playerName}} still needs:
{{missingDocuments}}

Send them from your phone on {{playerName}}''s upload page:
{{uploadLink}}
Or reply to this e-mail with the files attached.

Players without all four documents cannot be placed on a roster.', "updated_at" = now() WHERE "name" = 'Deadline Reminder' AND "content" = 'Hello {{guardianName}},

Registration for {{season}} closes on {{deadline}}. {{playerName}} still needs:
{{missingDocuments}}

Players without all four documents cannot be placed on a roster.';
--> statement-breakpoint
UPDATE "notification_templates" SET "content" = 'Hello {{guardianName}},

We could not accept the {{documentType}} sent for {{playerName}} ({{season}}):
{{rejectionReason}}

Send a new copy from your phone on {{playerName}}''s upload page:
{{uploadLink}}

Or send it before {{deadline}} by replying to this e-mail with the file attached.

Thank you,
The league registration team', "updated_at" = now() WHERE "name" = 'Document Rejected' AND "content" = 'Hello {{guardianName}},

We could not accept the {{documentType}} sent for {{playerName}} ({{season}}):
{{rejectionReason}}

Please send a new copy before {{deadline}} by replying to this e-mail with the file attached.

Thank you,
The league registration team';
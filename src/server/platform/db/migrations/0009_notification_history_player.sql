ALTER TABLE "notification_history" ADD COLUMN "player_id" text;--> statement-breakpoint
ALTER TABLE "notification_history" ADD COLUMN "season_id" text;--> statement-breakpoint
ALTER TABLE "notification_history" ADD CONSTRAINT "notification_history_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_history" ADD CONSTRAINT "notification_history_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_history_player_idx" ON "notification_history" USING btree ("player_id");
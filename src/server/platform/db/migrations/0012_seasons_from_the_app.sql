ALTER TABLE "seasons" ADD COLUMN "registration_deadline" date;--> statement-breakpoint
ALTER TABLE "seasons" ADD COLUMN "divisions" text[] DEFAULT '{AAA,AA,A,TEST,Peewee}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "seasons" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "seasons_one_current_uq" ON "seasons" USING btree ("is_current") WHERE "seasons"."is_current";--> statement-breakpoint
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_divisions_ck" CHECK (cardinality("seasons"."divisions") > 0 and "seasons"."divisions" <@ array['AAA', 'AA', 'A', 'TEST', 'Peewee']::text[]);
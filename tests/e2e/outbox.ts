import { existsSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { z } from 'zod';
import { E2E_OUTBOX_FILE } from './support';

/** What the e2e server's outbox file says of each mail it sent (tests/e2e/serve.ts). */
export const ZOutboxMail = z.object({
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  receivedAt: z.string(),
});
export type OutboxMail = z.infer<typeof ZOutboxMail>;

/** Every mail sent so far, oldest first. */
export function readOutbox(file = E2E_OUTBOX_FILE): OutboxMail[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ZOutboxMail.parse(JSON.parse(line)));
}

const sentTo = (mail: OutboxMail, address: string) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase());

/**
 * Waits until a mail to `address` is in the outbox, sent at or after `since` (when given), and answers the newest
 * such mail.
 */
export async function waitForMail(address: string, options: { since?: Date; timeout?: number } = {}): Promise<OutboxMail> {
  const fresh = () =>
    readOutbox().filter((mail) => sentTo(mail, address) && (!options.since || Date.parse(mail.receivedAt) >= options.since.getTime()));
  await expect.poll(() => fresh().length, { message: `a mail to ${address} in ${E2E_OUTBOX_FILE}`, timeout: options.timeout ?? 15_000 }).toBeGreaterThan(0);
  const mails = fresh();
  const newest = mails.at(-1);
  if (!newest) throw new Error(`No mail to ${address}`);
  return newest;
}

/** A family upload link in a mail: `<origin>/family#token=<43 base64url characters>`, from its text or its HTML. */
export const FAMILY_LINK_PATTERN = /https?:\/\/[^\s"'<>]+\/family#token=[A-Za-z0-9_-]{43}/;

/** The family upload link a mail carries; fails the test when it has none. */
export function familyLinkOf(mail: OutboxMail): string {
  const link = FAMILY_LINK_PATTERN.exec(mail.text)?.[0] ?? FAMILY_LINK_PATTERN.exec(mail.html.replaceAll('&amp;', '&'))?.[0];
  if (!link) throw new Error(`The mail "${mail.subject}" to ${mail.to.join(', ')} carries no family upload link`);
  return link;
}

/** Waits for a mail to `address` (see waitForMail) and answers the family upload link in it. */
export async function waitForFamilyLink(address: string, options: { since?: Date; timeout?: number } = {}): Promise<string> {
  return familyLinkOf(await waitForMail(address, options));
}

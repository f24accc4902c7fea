import { Mail, Paperclip } from 'lucide-react';
import type { ReactNode } from 'react';
import { DIVISIONS } from '../../../../contract';
import { IconCardTitle } from '@/components/icon-card-title';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';

/**
 * The rules the mailbox intake reads an e-mail by (src/server/mailbox/mail-fields.ts), written for the
 * staff who pass them on to parents. Change this text when those rules change.
 */
const FIELDS: ReadonlyArray<{ keys: string[]; meaning: ReactNode; required: boolean }> = [
  { keys: ['Player', 'Player Name'], meaning: 'First and last name, e.g. Jane Doe.', required: true },
  {
    keys: ['Date of Birth', 'DOB', 'Birth Date'],
    meaning: 'MM/DD/YYYY or YYYY-MM-DD. A date with slashes is always read month first: 03/02/2015 is March 2.',
    required: true,
  },
  { keys: ['Division'], meaning: `One of ${DIVISIONS.join(', ')}.`, required: true },
  {
    keys: ['Season'],
    meaning: 'A year or a season name, e.g. Fall Ball 2025. Left out, the current season is used.',
    required: false,
  },
  { keys: ['Guardian', 'Parent'], meaning: 'The parent or guardian’s name.', required: false },
  { keys: ['Phone'], meaning: 'A phone number for the parent or guardian.', required: false },
];

const EXAMPLE_FROM = 'Mary Doe <mary.doe@example.com>';
const EXAMPLE_SUBJECT = 'Registration documents for Jane Doe';
const EXAMPLE_ATTACHMENTS = ['birth-certificate.pdf', 'residency.pdf', 'medical.jpg', 'waiver.pdf'];
const EXAMPLE_BODY = `Hi, here are Jane's documents for the season.

Player: Jane Doe
Date of Birth: 03/02/2015
Division: AA
Season: Fall Ball 2025
Parent: Mary Doe
Phone: (555) 123-4567

Thanks!
Mary`;

function Keys({ keys }: { keys: string[] }) {
  return (
    <>
      {keys.map((key, index) => (
        <span key={key}>
          {index > 0 ? ' or ' : null}
          <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs text-foreground">{key}:</code>
        </span>
      ))}
    </>
  );
}

/** User Guide: how a parent e-mails documents so the mailbox intake can file them. */
export function EmailSubmissionGuide() {
  return (
    <Card data-testid="guide-email-submissions">
      <CardHeader>
        <IconCardTitle icon={Mail}>Sending documents by e-mail</IconCardTitle>
        <CardDescription>
          Parents can e-mail documents to the league mailbox. Clearbase checks it on a schedule (see Mailbox Document
          Intake on the dashboard) and files every attachment under the player the e-mail names.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6 text-sm">
        <section className="flex flex-col gap-3">
          <h3 className="font-semibold">The player’s details</h3>
          <p className="text-muted-foreground">
            Send one e-mail per player. Write each detail on its own line as <em>Key: value</em>; capitals do not matter.
          </p>
          <dl className="flex flex-col divide-y rounded-lg border">
            {FIELDS.map(({ keys, meaning, required }) => (
              <div key={keys[0]} className="flex flex-col gap-1 px-3 py-2.5 sm:flex-row sm:gap-4">
                <dt className="flex shrink-0 flex-wrap items-center gap-x-1 gap-y-1 sm:w-64">
                  <Keys keys={keys} />
                  <span className="text-xs text-muted-foreground">{required ? '(required)' : '(optional)'}</span>
                </dt>
                <dd className="text-muted-foreground">{meaning}</dd>
              </div>
            ))}
          </dl>
          <p className="text-muted-foreground">
            The address the e-mail is sent from is recorded as the guardian’s e-mail. When a required detail is missing
            or cannot be read, the e-mail is marked Failed in the dashboard’s recent submissions with the reason, such
            as “No date of birth found in the e-mail”.
          </p>
        </section>

        <section className="flex flex-col gap-3">
          <h3 className="font-semibold">Attachments</h3>
          <ul className="flex list-disc flex-col gap-1.5 pl-5 text-muted-foreground">
            <li>
              The file name tells which document it is: for example <code className="font-mono text-xs">birth-certificate.pdf</code>,{' '}
              <code className="font-mono text-xs">residency.pdf</code>, <code className="font-mono text-xs">medical.jpg</code>{' '}
              or <code className="font-mono text-xs">waiver.pdf</code>. An e-mail with a single document may name it in
              the subject instead (“Medical form”). A file that says neither waits for staff to review it.
            </li>
            <li>Accepted formats: PDF, JPEG, PNG, HEIC and TIFF.</li>
            <li>At most 12 attachments per e-mail; any beyond that are not processed and must be sent again.</li>
            <li>Logos and signature pictures in the message are skipped, as are attached e-mails (.eml).</li>
          </ul>
        </section>

        <section className="flex flex-col gap-3">
          <h3 className="font-semibold">Replies and forwards</h3>
          <p className="text-muted-foreground">
            In a reply, quoted text from earlier messages is ignored, as is a signature below a “--” line: the details
            must be written in the new message itself. A forwarded e-mail is read as it was first sent.
          </p>
        </section>

        <section className="flex flex-col gap-3">
          <h3 className="font-semibold">A complete example</h3>
          <div data-testid="guide-email-example" className="overflow-hidden rounded-lg border bg-muted/40">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 border-b px-4 py-3 text-xs">
              <dt className="text-muted-foreground">From</dt>
              <dd className="min-w-0 break-words">{EXAMPLE_FROM}</dd>
              <dt className="text-muted-foreground">Subject</dt>
              <dd className="min-w-0 break-words">{EXAMPLE_SUBJECT}</dd>
            </dl>
            <pre className="px-4 py-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap">{EXAMPLE_BODY}</pre>
            <ul aria-label="Attachments" className="flex flex-wrap gap-2 border-t px-4 py-3">
              {EXAMPLE_ATTACHMENTS.map((name) => (
                <li key={name} className="inline-flex items-center gap-1 rounded-md border bg-background px-2 py-1 font-mono text-xs">
                  <Paperclip className="size-3 shrink-0" aria-hidden="true" />
                  {name}
                </li>
              ))}
            </ul>
          </div>
        </section>
      </CardContent>
    </Card>
  );
}

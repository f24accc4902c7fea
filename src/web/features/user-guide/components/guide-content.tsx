import {
  BarChart3,
  Bell,
  FileCheck2,
  FileType,
  LayoutDashboard,
  LogIn,
  Mail,
  Archive,
  Settings,
  TrendingUp,
  UserCog,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { DOC_TYPE_LABELS, DOC_TYPES, type TInstallation, type TSystemSettings } from '../../../../contract';
import { acceptedExtensionsText, acceptedTypesText, fileSizeText, retentionText } from '@/features/backend-workflow';
import { EmailSubmissionGuide } from '@/features/mailbox';

/** What the guide says about this installation; undefined while it loads (the text then stays general). */
export type GuideFacts = { installation: TInstallation | undefined; settings: TSystemSettings | undefined };

export type GuideStep = { title: string; icon: LucideIcon; body: (facts: GuideFacts) => ReactNode };

/** README 'Sending documents: e-mail to the monitored mailbox': what a parent should send. */
const EMAIL_EXAMPLE = `To: documents@your-league.org
Subject: Registration documents for Ada Lovelace
Attachments: birth-certificate.pdf, residency.pdf, medical-form.jpg, waiver.pdf

Player: Ada Lovelace
Date of Birth: 12/10/2015        (MM/DD/YYYY or YYYY-MM-DD)
Division: AA
Season: Fall Ball 2025           (optional: the current season)
Parent: Anne Lovelace
Phone: 555-0100`;

function Paragraphs({ children }: { children: ReactNode }) {
  return <div className="flex flex-col gap-3 text-sm leading-relaxed text-muted-foreground [&_strong]:text-foreground">{children}</div>;
}

function Points({ items }: { items: ReactNode[] }) {
  return (
    <ul className="flex list-disc flex-col gap-1.5 pl-5">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

const sizeOf = (facts: GuideFacts) => (facts.installation ? fileSizeText(facts.installation.maxFileBytes) : 'the configured limit');
const typesOf = (facts: GuideFacts) => (facts.installation ? acceptedTypesText(facts.installation.acceptedFileTypes) : 'PDF and common image formats');
const yearsOf = (facts: GuideFacts) => (facts.installation ? retentionText(facts.installation.retentionYears) : 'the retention period');
const timeoutOf = (facts: GuideFacts) => (facts.settings ? `${facts.settings.sessionTimeoutMinutes} minutes` : 'the session timeout');

/** The Review screen's keys, as the guide lists them. */
const REVIEW_KEY_LINES: ReadonlyArray<readonly [string, string]> = [
  ['A', 'Approve'],
  ['R', 'Reject, with a reason from the list'],
  ['J', 'Next document'],
  ['K', 'Previous document'],
  ['Z', 'Zoom: fit, 100%, 200%'],
  ['T', 'Turn the document a quarter turn'],
  ['?', 'Show the list of keys'],
];

/** The User Guide's steps: ten for every staff member, then two for admins (FIRST_ADMIN_STEP). */
export const GUIDE_STEPS: readonly GuideStep[] = [
  {
    title: 'Signing in',
    icon: LogIn,
    body: (facts) => (
      <Paragraphs>
        <p>
          Sign in with <strong>your own e-mail and password</strong>: a league admin invites you, and the link in the invitation lets
          you choose your password. A small league may use one <strong>shared system password</strong> instead; ask your league
          administrator which one yours uses.
        </p>
        <Points
          items={[
            <>
              What you can do depends on your <strong>role</strong>: a <strong>Viewer</strong> reads every screen and report, a{' '}
              <strong>Moderator</strong> also opens files, approves and rejects documents, adds players and sends notifications, and an{' '}
              <strong>Admin</strong> also manages users and settings. If you look after some divisions only, you see only their players.
            </>,
            <>
              On <strong>My Account</strong> (your name, top right) you can turn on two-step sign-in with an authenticator app, and sign out
              of every other device.
            </>,
            <>
              You stay signed in while you use the app. After <strong>{timeoutOf(facts)}</strong> without using it, the server ends the
              session and you are asked for the password again.
            </>,
            <>Use <strong>Logout</strong> (top right, or on this guide) when you leave a shared computer: the session ends on the server at once.</>,
            <>The sidebar takes you to every screen; on a phone it opens from the menu button.</>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'The dashboard',
    icon: LayoutDashboard,
    body: () => (
      <Paragraphs>
        <p>The dashboard shows the chosen season at a glance. Click any card for its details.</p>
        <Points
          items={[
            <>
              <strong>Total Players</strong>: players registered this season. <strong>Documents Uploaded</strong>: documents received
              and kept (not rejected). <strong>Pending Review</strong>: documents waiting for staff. <strong>Complete Profiles</strong>:
              players with all four documents approved.
            </>,
            <>
              <strong>Real-time Processing</strong> lists the latest uploads as they arrive; <strong>System Status</strong> shows the health
              of the database, storage, form webhook, mailbox and antivirus.
            </>,
            <>
              <strong>Mailbox Document Intake</strong> shows the mailbox scheduler and the latest e-mails received. The search box finds
              players and documents.
            </>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'Players and their statuses',
    icon: Users,
    body: () => (
      <Paragraphs>
        <p>
          Each season asks for up to four documents: {DOC_TYPES.map((type) => DOC_TYPE_LABELS[type]).join(', ')}. Its requirement rules
          (Settings → Seasons → Requirements) say which are required and how long an approval counts: by default a verified birth
          certificate counts for good, so a returning player does not send it again; a medical form counts for 12 months from its exam
          date; residency proof and the waiver are needed every season. The Players screen lists each player with the state of each
          document and a completion percentage.
        </p>
        <Points
          items={[
            <><strong>Verified</strong>: approved, and it still counts (perhaps from an earlier season).</>,
            <><strong>Under Review</strong>: it arrived and waits for staff.</>,
            <><strong>Processing</strong>: it is still being scanned and stored.</>,
            <><strong>Expired</strong>: the approval ran out (a medical form a year after its exam): the family must send a new one.</>,
            <><strong>Missing</strong>: nothing usable was received (a rejected document counts as missing).</>,
            <><strong>Not Required</strong>: the season does not ask for it.</>,
          ]}
        />
        <p>
          The player’s <strong>league age</strong> is their age on the season’s age date (31 August for baseball); a player whose league
          age does not fit their division is flagged. <strong>Expiring within 30 days</strong> finds the players whose medical form runs out
          soon; the automatic reminders write to their families too.
        </p>
        <p>
          Filter by season, division and status (Complete, Incomplete, Under Review, Expiring within 30 days), search by name, player id or guardian
          (capitals and accents do not matter: “martinez” finds “Martínez”), export the list to CSV, or add a player by hand. A player’s id never changes: it is derived from the name and birth date.
        </p>
      </Paragraphs>
    ),
  },
  {
    title: 'Reviewing documents',
    icon: FileCheck2,
    body: () => (
      <Paragraphs>
        <p>The Documents screen lists every document received. Open one with <strong>View</strong> to read it in the browser.</p>
        <Points
          items={[
            <>
              <strong>Approve</strong> a document that is correct and readable: it becomes Verified and counts toward the player’s profile.
              Approving a birth certificate records the date of birth it shows (it then cannot be changed; when it differs from the
              registration you are asked to confirm); a medical form, its exam date; a residency document, its date and group.
            </>,
            <>
              <strong>Reject</strong> one that is wrong, unreadable or expired: pick a reason from the league’s list and add detail if needed;
              it is kept with the document so the family can be told what to send again.
            </>,
            <>Approve and Reject are offered only on documents Under Review. Several can be approved at once by selecting them.</>,
            <>The More menu downloads the file or shows its history: who did what, and when.</>,
          ]}
        />
        <h3 className="pt-2 text-base font-semibold text-foreground">Reviewing documents quickly</h3>
        <p>
          The <strong>Review</strong> screen shows the documents waiting for review one at a time, oldest first: the document on one side,
          and on the other the registration beside what the document says (its type, name and dates, read on this server), with anything
          that differs marked <strong>Differs</strong>. Every action has a key:
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5" data-testid="guide-review-keys">
          {REVIEW_KEY_LINES.map(([key, text]) => (
            <div key={key} className="contents">
              <dt>
                <kbd className="inline-block min-w-7 rounded border px-1.5 text-center font-mono text-xs leading-6 text-foreground">{key}</kbd>
              </dt>
              <dd>{text}</dd>
            </div>
          ))}
        </dl>
        <p>
          Approving asks for the dates the season’s rules need, already filled in from the document: check them and press Enter. An
          unreadable photo can be sent back in one click with <strong>Ask for a better photo</strong>, which e-mails the family.
        </p>
      </Paragraphs>
    ),
  },
  {
    title: 'Reports',
    icon: BarChart3,
    body: () => (
      <Paragraphs>
        <p>
          Reports builds a season’s report for one division or all of them: how many players, how many are complete, each document type’s
          completion, each division’s progress and month by month, and the players still missing documents.
        </p>
        <Points
          items={[
            <>Choose the season and division, then Generate. Historical Trends compares seasons; Detailed Analysis breaks the figures down.</>,
            <>Export the report as JSON or the incomplete players as CSV to share with coaches.</>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'How growth projections are made',
    icon: TrendingUp,
    body: () => (
      <Paragraphs>
        <p>The Growth Projections tab of Reports estimates the next two seasons from past ones. In plain words:</p>
        <Points
          items={[
            <>Only seasons of the same kind are compared: Spring Ball with Spring Ball, Fall Ball with Fall Ball, since they differ in size.</>,
            <>
              Clearbase draws the straight line that best fits the number of players season after season (a least-squares line), and another for
              the completion rate, and reads both lines two seasons ahead.
            </>,
            <>
              The <strong>confidence</strong> rises with more seasons and with seasons that sit close to the line: three seasons on a perfect
              line give 60%, eight give 80%. An uneven history lowers it.
            </>,
            <>With fewer than three seasons of that kind there is no projection, and the tab says so.</>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'Notifications',
    icon: Bell,
    body: () => (
      <Paragraphs>
        <p>
          Clearbase can tell people when something happens: by e-mail, and in Slack or Microsoft Teams channels. The Notifications screen
          holds the message templates, which ones are enabled, and the history of what was sent and whether it failed.
        </p>
        <Points
          items={[
            <>While you work, toasts appear in the corner: a new document arrived, a document’s status changed, or a system alert.</>,
            <>An administrator turns each channel on or off in Settings → Notifications.</>,
            <>
              Reminders can go out by themselves: set the days before the registration deadline, and after a document is not accepted, under
              Automatic reminders. A family gets at most one a day, and none once the player has every document in.
            </>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'How parents send documents',
    icon: Mail,
    body: () => (
      <Paragraphs>
        <p>
          <strong>Registration form.</strong> Parents attach the documents to the league’s online registration form; it sends them to
          Clearbase as soon as the form is submitted, with the player’s details.
        </p>
        <p>
          <strong>E-mail.</strong> Parents can also e-mail the documents to the league mailbox, one e-mail per player, with the player’s
          details written as lines in the message. This is the format to pass on:
        </p>
        <pre
          data-testid="guide-email-format"
          className="overflow-x-auto rounded-lg border bg-muted/40 px-4 py-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-foreground"
        >
          {EMAIL_EXAMPLE}
        </pre>
        <EmailSubmissionGuide />
        <p>
          <strong>Their own upload page.</strong> Every reminder carries a personal link to a page for that player: it lists the four
          documents, says which are missing, under review, accepted or not accepted (with the reason), and lets the family take a photo
          or choose a file from a phone. No password is needed, and the page shows nothing else of the league. From a player’s details,
          Copy upload link or Send link gives the family one at any time; Stop links ends every link of that player.
        </p>
      </Paragraphs>
    ),
  },
  {
    title: 'Accepted files',
    icon: FileType,
    body: (facts) => (
      <Paragraphs>
        <p>
          Clearbase accepts <strong>{typesOf(facts)}</strong> files of at most <strong>{sizeOf(facts)}</strong> each
          {facts.installation ? <> ({acceptedExtensionsText(facts.installation.acceptedFileTypes)})</> : null}.
        </p>
        <Points
          items={[
            <>The type is checked from the file’s contents, not its name: a renamed program is refused.</>,
            <>
              Each file is opened before it is kept: a damaged or incomplete photo, a PDF that cannot be opened or one protected by a
              password is refused, and the reason says what to send instead.
            </>,
            <>
              Each file is scanned for viruses before it is stored
              {facts.settings && !facts.settings.antivirusScanning ? ' (scanning is currently turned off in Settings)' : ''}; an infected file is
              rejected with the virus’s name.
            </>,
            <>The same file sent twice for a player is kept once.</>,
            <>The file name tells which document it is (birth-certificate.pdf, medical.jpg…); a file that does not say waits for review.</>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'Where documents are kept, and for how long',
    icon: Archive,
    body: (facts) => (
      <Paragraphs>
        <p>
          Every file is encrypted (AES-256) before it is written to storage, under a folder for its season, division and player. Only
          Clearbase can read it back, for staff who are signed in.
        </p>
        <p>
          Documents are kept for <strong>{yearsOf(facts)}</strong> after they are uploaded. Then the file is deleted for good; a short record
          that it existed stays for the audit trail.
        </p>
        <p>The App Workflow screen shows every step a document goes through, with this installation’s settings.</p>
      </Paragraphs>
    ),
  },
  {
    title: 'Admin: System Settings',
    icon: Settings,
    body: (facts) => (
      <Paragraphs>
        <p>Settings are shared by everyone and take effect within seconds. Every change is recorded in the audit log.</p>
        <Points
          items={[
            <>
              <strong>System</strong>: the health of each service, with a Refresh button.
            </>,
            <>
              <strong>Seasons</strong>: the seasons families register for, with their dates, registration deadline and divisions.
              New season adds one (the first becomes current); Make current changes what every screen opens on; Close season refuses new
              registrations from the form and the mailbox until it is reopened.
            </>,
            <>
              <strong>Integrations</strong>: the mailbox scheduler (start, stop, check now) and the Storage card
              {facts.installation ? <> (here: {facts.installation.storage.driver === 's3' ? 'Amazon S3' : 'local encrypted storage'})</> : null}{' '}
              with how many documents and bytes are stored.
            </>,
            <>
              <strong>Notifications</strong>: the e-mail, Slack and Teams channels, and real-time updates. With real-time updates off, the
              live connection closes and screens refresh on their own every 30 to 60 seconds.
            </>,
            <>
              <strong>Security</strong>: antivirus scanning (off stores files unscanned and shows a warning in System Status), and the session
              timeout in minutes (5 to 1440), which wins over the server’s <code className="font-mono text-xs break-all">CLEARBASE_SESSION_TIMEOUT_MINUTES</code>. File encryption and audit logging
              are always on.
            </>,
          ]}
        />
      </Paragraphs>
    ),
  },
  {
    title: 'Admin: User Management',
    icon: UserCog,
    body: () => (
      <Paragraphs>
        <p>User Management lists the league’s staff, what each may do and what they did.</p>
        <Points
          items={[
            <>
              <strong>Invite User</strong> with their name, e-mail, role and divisions. They are <strong>Pending</strong> until they
              choose a password with the link (it is e-mailed when mail is set up; otherwise copy it and send it yourself). It works
              once, for 7 days.
            </>,
            <>
              From a person’s row: edit their role or divisions, send a new link (or a password reset), see their sessions and sign
              them out everywhere, or <strong>Deactivate</strong> them: they are signed out at once, on every device.
            </>,
            <>The <strong>Activity</strong> tab shows who did what, newest first; filter it by person.</>,
            <>
              Settings → Security chooses how staff sign in: the shared password, personal accounts, or both, and whether admins must use
              two-step sign-in.
            </>,
          ]}
        />
      </Paragraphs>
    ),
  },
];

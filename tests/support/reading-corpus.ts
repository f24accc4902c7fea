import sharp from 'sharp';
import type { TDocType } from '../../src/contract';
import { seeded } from './file-corpus';

/**
 * Synthetic registration documents with their ground truth, for the reading tests and `npm run bench:reading`:
 * birth certificates, medical forms, residency proofs (utility bills, leases, school letters) and liability
 * waivers, in the fonts this machine has (fonts-dejavu, fonts-liberation) and in several layouts (label: value
 * lines, ruled two-column tables, labels above boxed values), with the dates written in the ways documents
 * write them and names with accents, hyphens, apostrophes and middle names. Each page is an SVG rendered by
 * sharp at 300 dpi (US letter, 2550 × 3300): `clean` is that page as a PNG, as a scanner gives it; `photo` is
 * the page photographed on a table: turned up to 8°, on a background margin, out of focus (blur sigma 0.8–1.6),
 * lit unevenly, saved as a JPEG of quality 60. Deterministic: the same seed and day give the same documents.
 */

export type CorpusKind = 'clean' | 'photo';

export type CorpusTruth = {
  /** The child's name as the document prints it (a residency proof names the parent instead: then the child's). */
  fullName: string;
  /** YYYY-MM-DD, or null where the document does not carry it (residency proofs). */
  dateOfBirth: string | null;
  /** YYYY-MM-DD: the exam date, the statement or letter date, the waiver's date, the date a certificate was filed. */
  documentDate: string | null;
  /** The registration: the player's first and last names as the family typed them, and the birth date. */
  firstName: string;
  lastName: string;
  birthDate: string;
};

export type CorpusDocument = { id: string; docType: TDocType; kind: CorpusKind; truth: CorpusTruth; bytes: Buffer; mime: string };

/** A document before it is drawn: what `renderCorpusDocument` turns into bytes. */
export type CorpusPlan = { id: string; docType: TDocType; kind: CorpusKind; truth: CorpusTruth; svg: string; photo: PhotoPlan | null };

export type PhotoPlan = { angle: number; blur: number; margin: number; background: string; light: string; width: number };

export const CORPUS_TYPES: readonly TDocType[] = ['birth_certificate', 'medical', 'residency', 'waiver'];
export const CORPUS_KINDS: readonly CorpusKind[] = ['clean', 'photo'];

export type CorpusOptions = {
  /** How many documents, spread evenly over the four types and the two kinds. */
  count: number;
  seed?: number;
  /** YYYY-MM-DD: medical exams and letters are dated in the months before it. Default: today. */
  today?: string;
  /** Only these kinds (default both). */
  kinds?: readonly CorpusKind[];
};

/** The plans of `count` documents, in a round of every type and kind after another. */
export function planReadingCorpus(options: CorpusOptions): CorpusPlan[] {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const kinds = options.kinds ?? CORPUS_KINDS;
  const plans: CorpusPlan[] = [];
  for (let i = 0; i < options.count; i += 1) {
    const docType = CORPUS_TYPES[i % CORPUS_TYPES.length] ?? 'birth_certificate';
    const kind = kinds[Math.floor(i / CORPUS_TYPES.length) % kinds.length] ?? 'clean';
    const random = seeded((options.seed ?? 1) * 100_003 + i * 7_919);
    plans.push(planDocument(`${docType}-${kind}-${String(i).padStart(4, '0')}`, docType, kind, today, random));
  }
  return plans;
}

/** The documents themselves, drawn one at a time (a photo is a few megabytes). */
export async function* readingCorpus(options: CorpusOptions): AsyncGenerator<CorpusDocument> {
  for (const plan of planReadingCorpus(options)) yield await renderCorpusDocument(plan);
}

export async function renderCorpusDocument(plan: CorpusPlan): Promise<CorpusDocument> {
  const page = await sharp(Buffer.from(plan.svg)).flatten({ background: '#ffffff' }).png().toBuffer();
  const base = { id: plan.id, docType: plan.docType, kind: plan.kind, truth: plan.truth };
  if (!plan.photo) return { ...base, bytes: page, mime: 'image/png' };
  return { ...base, bytes: await photograph(page, plan.photo), mime: 'image/jpeg' };
}

// ---------------------------------------------------------------------------------------------------------------
// Photographing a page.

async function photograph(page: Buffer, photo: PhotoPlan): Promise<Buffer> {
  const turned = await sharp(page).rotate(photo.angle, { background: photo.background }).png().toBuffer({ resolveWithObject: true });
  const framed = await sharp(turned.data)
    .extend({ top: photo.margin, bottom: photo.margin, left: photo.margin, right: photo.margin, background: photo.background })
    .png()
    .toBuffer({ resolveWithObject: true });
  const width = Math.min(photo.width, framed.info.width);
  const height = Math.round((framed.info.height * width) / framed.info.width);
  const light = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${photo.light}<rect width="100%" height="100%" fill="url(#light)"/></svg>`,
  );
  const resized = await sharp(framed.data).resize({ width }).png().toBuffer();
  return sharp(resized)
    .composite([{ input: light, blend: 'multiply' }])
    .blur(photo.blur)
    .jpeg({ quality: 60 })
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------------------------
// People, places and dates.

const FIRST_NAMES = [
  'Ana', 'José', 'Zoë', 'Chloé', 'Inès', 'Renée', 'Liam', 'Noah', 'Emma', 'Olivia', 'Mateo', 'Sofía', 'Lucas', 'Amélie',
  'Jean-Luc', 'Mary-Kate', 'Aiden', 'Priya', 'Wei', 'Kwame', 'Fatima', 'Björn', 'Declan', 'Nadia', 'Tomás', 'Élodie',
  'Isabella', 'Ethan', 'Aaliyah', 'Mohammed', 'Hana', 'Diego', 'Maya', 'Oscar', 'Leah', 'Caleb',
];
const MIDDLE_NAMES = ['María', 'James', 'Rose', 'Louise', 'Ángel', 'Grace', 'Lee', 'Anne', 'Marie', 'Joseph', 'Elena'];
const LAST_NAMES = [
  'López', 'García', "O'Connor", 'Nguyen', 'Smith-Jones', 'Müller', 'Kowalski', 'Da Silva', 'Okafor', 'Johnson', 'Brown',
  'Patel', 'Kim', 'Schmidt', 'Dubois', 'Rossi', 'Haddad', 'Martínez-Ruiz', 'Fitzgerald', 'MacLeod', 'Peña', 'Novák',
  'Andersson', 'Ramírez', 'Chen', 'Williams', 'Moreau', 'Costa', 'Ibáñez', 'Thompson', "D'Angelo", 'Schäfer',
];
const PARENT_FIRST_NAMES = ['Maria', 'David', 'Sarah', 'Carlos', 'Jennifer', 'Ahmed', 'Linda', 'Robert', 'Mei', 'Grace', 'Peter', 'Lucía'];
const MOTHER_FIRST_NAMES = ['Maria', 'Sarah', 'Jennifer', 'Linda', 'Mei', 'Grace', 'Lucía', 'Amara', 'Olga'];
const STREETS = ['Elm Street', 'Oak Avenue', 'Maple Drive', 'Cedar Lane', 'Birch Road', 'Willow Court', 'Pine Street', 'Lakeview Terrace'];
const CITIES = [
  ['Salem', 'OR', '97301'],
  ['Springfield', 'IL', '62704'],
  ['Austin', 'TX', '78704'],
  ['Madison', 'WI', '53703'],
  ['Portland', 'ME', '04101'],
  ['Fresno', 'CA', '93721'],
] as const;
const STATES = ['OREGON', 'ILLINOIS', 'TEXAS', 'WISCONSIN', 'MAINE', 'CALIFORNIA'];
const HOSPITALS = ['St. Mary Medical Center', 'Providence General Hospital', 'Mercy Hospital', 'County Regional Medical Center'];
const PHYSICIANS = ['Sarah Chen', 'Michael Osei', 'Laura Bianchi', 'Raj Mehta', 'Helen Park', 'Thomas Wright'];
const LEAGUES = ['Riverside Youth Soccer League', 'Northside Little League', 'Lakeshore Junior Basketball', 'Valley Youth Sports Association'];
const COMPANIES = ['Cascade Power & Light', 'Prairie Gas and Electric', 'City Water Services', 'Bluebonnet Energy', 'Northern Utilities Co.'];

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

const DAY_MS = 86_400_000;
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ORDINAL = (day: number) => (day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th');

/** A date the way some document writes it; every one reads back to the same day. */
function writeDate(iso: string, random: Random): string {
  const [year = 0, month = 1, day = 1] = iso.split('-').map(Number);
  const mm = String(month).padStart(2, '0');
  const dd = String(day).padStart(2, '0');
  const name = MONTHS[month - 1] ?? 'January';
  const short = name.slice(0, 3);
  const formats = [
    `${mm}/${dd}/${year}`,
    `${mm}-${dd}-${year}`,
    `${mm}.${dd}.${year}`,
    `${day} ${name} ${year}`,
    `${name} ${day}, ${year}`,
    `${day}${ORDINAL(day)} of ${name}, ${year}`,
    `${year}-${mm}-${dd}`,
    `${short.toUpperCase()} ${dd} ${year}`,
    `${dd}-${short.toUpperCase()}-${year}`,
    `${dd} ${short} ${year}`,
    // Day first only where it cannot be read month first.
    day > 12 ? `${dd}/${mm}/${year}` : `${month}/${day}/${year}`,
  ];
  return pick(random, formats);
}

type Person = { first: string; middle: string | null; last: string; printed: string };

function makeChild(random: Random): Person {
  const first = pick(random, FIRST_NAMES);
  const middle = random() < 0.35 ? pick(random, MIDDLE_NAMES) : null;
  const last = random() < 0.15 ? `${pick(random, LAST_NAMES)}-${pick(random, ['Reyes', 'Walsh', 'Silva', 'Ortiz'])}` : pick(random, LAST_NAMES);
  const style = random();
  const given = middle ? `${first} ${random() < 0.4 ? `${middle.charAt(0)}.` : middle}` : first;
  const printed = style < 0.15 ? `${last.toUpperCase()}, ${given.toUpperCase()}` : style < 0.3 ? `${given} ${last}`.toUpperCase() : `${given} ${last}`;
  return { first, middle, last, printed };
}

// ---------------------------------------------------------------------------------------------------------------
// Pages.

const FONTS = ['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'DejaVu Sans Condensed', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'Liberation Sans Narrow'];
const PAGE_WIDTH = 2550;
const PAGE_HEIGHT = 3300;
/** Points to pixels at 300 dpi. */
const pt = (points: number) => Math.round((points * 300) / 72);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Field = { label: string; value: string };
type Layout = 'lines' | 'table' | 'boxes';

/** Draws a page top to bottom; `y` is the next baseline. */
class Page {
  private readonly parts: string[] = [];
  y = pt(60);
  constructor(
    readonly font: string,
    readonly size: number,
  ) {}

  text(x: number, content: string, options: { size?: number; weight?: 'bold'; anchor?: 'middle' | 'start'; fill?: string; y?: number } = {}): void {
    const size = options.size ?? this.size;
    this.parts.push(
      `<text x="${x}" y="${options.y ?? this.y}" font-family="${this.font}" font-size="${size}"${options.weight ? ' font-weight="bold"' : ''}${options.anchor === 'middle' ? ' text-anchor="middle"' : ''} fill="${options.fill ?? '#111'}">${escapeXml(content)}</text>`,
    );
  }

  title(content: string, size: number): void {
    this.y += Math.round(size * 1.3);
    this.text(PAGE_WIDTH / 2, content, { size, weight: 'bold', anchor: 'middle' });
    this.y += Math.round(size * 0.5);
  }

  centered(content: string, size = this.size): void {
    this.y += Math.round(size * 1.4);
    this.text(PAGE_WIDTH / 2, content, { size, anchor: 'middle' });
  }

  gap(pixels: number): void {
    this.y += pixels;
  }

  shape(svg: string): void {
    this.parts.push(svg);
  }

  /** Fields in the page's layout. */
  fields(fields: readonly Field[], layout: Layout, random: Random): void {
    const left = pt(72);
    const right = PAGE_WIDTH - pt(72);
    const line = Math.round(this.size * 1.9);
    if (layout === 'lines') {
      for (const field of fields) {
        this.y += line;
        this.text(left, `${field.label}: ${field.value}`);
      }
      return;
    }
    if (layout === 'table') {
      const split = left + Math.round((right - left) * (0.38 + random() * 0.08));
      const row = Math.round(this.size * 2.3);
      this.y += Math.round(this.size * 0.6);
      const top = this.y;
      for (const field of fields) {
        this.shape(`<line x1="${left}" y1="${this.y}" x2="${right}" y2="${this.y}" stroke="#333" stroke-width="3"/>`);
        this.text(left + 25, field.label, { y: this.y + Math.round(row * 0.68), weight: 'bold' });
        this.text(split + 25, field.value, { y: this.y + Math.round(row * 0.68) });
        this.y += row;
      }
      this.shape(`<line x1="${left}" y1="${this.y}" x2="${right}" y2="${this.y}" stroke="#333" stroke-width="3"/>`);
      this.shape(`<line x1="${left}" y1="${top}" x2="${left}" y2="${this.y}" stroke="#333" stroke-width="3"/>`);
      this.shape(`<line x1="${split}" y1="${top}" x2="${split}" y2="${this.y}" stroke="#333" stroke-width="3"/>`);
      this.shape(`<line x1="${right}" y1="${top}" x2="${right}" y2="${this.y}" stroke="#333" stroke-width="3"/>`);
      return;
    }
    // Boxes: a small label over its value, two boxes to a row.
    const labelSize = Math.round(this.size * 0.75);
    const boxHeight = Math.round(this.size * 2.8);
    const half = Math.round((right - left) / 2);
    this.y += Math.round(this.size * 0.8);
    for (let i = 0; i < fields.length; i += 2) {
      const row = fields.slice(i, i + 2);
      row.forEach((field, column) => {
        const x = left + column * half;
        this.shape(`<rect x="${x}" y="${this.y}" width="${half - 20}" height="${boxHeight}" fill="none" stroke="#444" stroke-width="3"/>`);
        this.text(x + 20, field.label.toUpperCase(), { size: labelSize, y: this.y + Math.round(labelSize * 1.25), fill: '#333' });
        this.text(x + 20, field.value, { y: this.y + boxHeight - Math.round(this.size * 0.5) });
      });
      this.y += boxHeight + 20;
    }
  }

  paragraph(content: string, size: number, width = PAGE_WIDTH - 2 * pt(72)): void {
    const charsPerLine = Math.floor(width / (size * 0.56));
    const words = content.split(' ');
    let current = '';
    const lines: string[] = [];
    for (const word of words) {
      if ((current + ' ' + word).trim().length > charsPerLine) {
        lines.push(current);
        current = word;
      } else current = (current + ' ' + word).trim();
    }
    if (current) lines.push(current);
    for (const text of lines) {
      this.y += Math.round(size * 1.35);
      this.text(pt(72), text, { size });
    }
  }

  signature(label: string, value: string | null): void {
    this.y += Math.round(this.size * 3.2);
    const left = pt(72);
    this.shape(`<line x1="${left + pt(170)}" y1="${this.y + 8}" x2="${left + pt(370)}" y2="${this.y + 8}" stroke="#222" stroke-width="3"/>`);
    this.text(left, label);
    if (value) this.text(left + pt(390), value);
  }

  svg(): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE_WIDTH}" height="${PAGE_HEIGHT}" viewBox="0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}"><rect width="100%" height="100%" fill="#fff"/>${this.parts.join('')}</svg>`;
  }
}

function seal(x: number, y: number, radius: number, label: string): string {
  return (
    `<circle cx="${x}" cy="${y}" r="${radius}" fill="none" stroke="#557" stroke-width="6"/>` +
    `<circle cx="${x}" cy="${y}" r="${radius - 30}" fill="none" stroke="#557" stroke-width="3" stroke-dasharray="12 10"/>` +
    `<text x="${x}" y="${y + 14}" font-family="DejaVu Serif" font-size="${Math.round(radius / 5)}" text-anchor="middle" fill="#557">${escapeXml(label)}</text>`
  );
}

function logo(x: number, y: number, size: number): string {
  return `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${size / 5}" fill="#2a5d8f"/><polygon points="${x + size / 2},${y + size * 0.18} ${x + size * 0.82},${y + size * 0.8} ${x + size * 0.18},${y + size * 0.8}" fill="#fff"/>`;
}

const LAYOUTS: readonly Layout[] = ['lines', 'table', 'boxes'];

function planDocument(id: string, docType: TDocType, kind: CorpusKind, today: string, random: Random): CorpusPlan {
  const child = makeChild(random);
  const dateOfBirth = addDays(today, -between(random, 6 * 365, 17 * 365));
  const page = new Page(pick(random, FONTS), pt(between(random, 11, 13)));
  const layout = pick(random, LAYOUTS);
  const city = pick(random, CITIES);
  const parent = `${pick(random, PARENT_FIRST_NAMES)} ${child.last}`;
  const address = `${between(random, 2, 4800)} ${pick(random, STREETS)}, ${city[0]}, ${city[1]} ${city[2]}`;
  let documentDate: string;
  const truthOf = (dob: string | null): CorpusTruth => ({
    fullName: child.printed,
    dateOfBirth: dob,
    documentDate,
    firstName: child.first,
    lastName: child.last,
    birthDate: dateOfBirth,
  });

  switch (docType) {
    case 'birth_certificate': {
      documentDate = addDays(dateOfBirth, between(random, 3, 40));
      page.shape(seal(PAGE_WIDTH - pt(140), pt(130), pt(60), 'OFFICIAL SEAL'));
      page.centered(`STATE OF ${pick(random, STATES)}`, pt(14));
      page.centered('DEPARTMENT OF HEALTH · VITAL RECORDS', pt(10));
      page.title(pick(random, ['CERTIFICATE OF LIVE BIRTH', 'BIRTH CERTIFICATE', 'Certificate of Birth']), pt(22));
      page.gap(pt(10));
      const fields: Field[] = [
        { label: 'State file number', value: `${dateOfBirth.slice(0, 4)}-${between(random, 100_000, 999_999)}` },
        { label: pick(random, ['Name of child', "Child's name", 'Full name of child']), value: child.printed },
        { label: 'Sex', value: pick(random, ['Female', 'Male']) },
        { label: pick(random, ['Date of birth', 'Birth date']), value: writeDate(dateOfBirth, random) },
        { label: 'Time of birth', value: `${between(random, 1, 12)}:${String(between(random, 0, 59)).padStart(2, '0')} ${pick(random, ['AM', 'PM'])}` },
        { label: 'Place of birth', value: `${pick(random, HOSPITALS)}, ${city[0]}` },
        { label: "Mother's maiden name", value: `${pick(random, MOTHER_FIRST_NAMES)} ${pick(random, LAST_NAMES)}` },
      ];
      if (random() < 0.5) fields.push({ label: "Mother's date of birth", value: writeDate(addDays(dateOfBirth, -between(random, 20 * 365, 40 * 365)), random) });
      fields.push({ label: "Father's name", value: parent });
      fields.push({ label: pick(random, ['Date filed', 'Date issued']), value: writeDate(documentDate, random) });
      page.fields(fields, layout, random);
      page.gap(pt(20));
      page.paragraph(
        'This is a true and correct copy of the official record filed with the State Registrar of Vital Records. Any alteration or erasure voids this certificate. Not valid without the raised seal of the issuing office.',
        pt(8),
      );
      page.signature('Registrar', 'J. Whitfield');
      return plan(id, docType, kind, truthOf(dateOfBirth), page, random);
    }
    case 'medical': {
      documentDate = addDays(today, -between(random, 5, 300));
      page.shape(logo(pt(72), pt(40), pt(60)));
      page.centered(pick(random, HOSPITALS), pt(12));
      page.title(pick(random, ['PRE-PARTICIPATION PHYSICAL EXAMINATION', 'Sports Physical Examination Form', 'Youth Sports Medical Clearance']), pt(18));
      page.gap(pt(10));
      const fields: Field[] = [
        { label: pick(random, ['Patient name', 'Player name', 'Name']), value: child.printed },
        { label: pick(random, ['Date of birth', 'DOB']), value: writeDate(dateOfBirth, random) },
        { label: 'Sex', value: pick(random, ['F', 'M']) },
        { label: 'Height', value: `${between(random, 120, 185)} cm` },
        { label: 'Weight', value: `${between(random, 25, 80)} kg` },
        { label: 'Blood pressure', value: `${between(random, 95, 125)}/${between(random, 60, 80)}` },
        { label: 'Pulse', value: `${between(random, 60, 95)} bpm` },
        { label: 'Immunizations up to date', value: 'Yes' },
        { label: pick(random, ['Date of exam', 'Examination date', 'Date of physical']), value: writeDate(documentDate, random) },
        { label: 'Examining physician', value: `Dr. ${pick(random, PHYSICIANS)}, MD` },
      ];
      page.fields(fields, layout, random);
      page.gap(pt(16));
      page.text(pt(72), '[X] Cleared for all sports without restriction', { y: (page.y += pt(24)) });
      page.paragraph(
        'I have examined the above named student and completed the pre-participation physical evaluation. The athlete does not present apparent clinical contraindications to practice and participate in the sports listed. A copy of the physical exam is on record in my office.',
        pt(8),
      );
      page.signature('Physician signature', null);
      return plan(id, docType, kind, truthOf(dateOfBirth), page, random);
    }
    case 'residency': {
      documentDate = addDays(today, -between(random, 3, 60));
      const variant = random();
      if (variant < 0.5) {
        const company = pick(random, COMPANIES);
        page.shape(logo(pt(72), pt(40), pt(70)));
        page.text(pt(72) + pt(90), company, { size: pt(18), weight: 'bold', y: pt(90) });
        page.gap(pt(60));
        page.title('Your Utility Statement', pt(16));
        page.fields(
          [
            { label: 'Statement date', value: writeDate(documentDate, random) },
            { label: 'Account number', value: `${between(random, 1000, 9999)}-${between(random, 1000, 9999)}-${between(random, 10, 99)}` },
            { label: 'Customer name', value: parent },
            { label: 'Service address', value: address },
            { label: 'Amount due', value: `$${between(random, 40, 260)}.${String(between(random, 0, 99)).padStart(2, '0')}` },
            { label: 'Due date', value: writeDate(addDays(documentDate, 21), random) },
            { label: 'Usage this period', value: `${between(random, 300, 1200)} kWh` },
          ],
          layout,
          random,
        );
        page.gap(pt(20));
        page.paragraph('Thank you for your payment. Keep this statement for your records. Billing questions: call customer service Monday to Friday, 8 am to 6 pm.', pt(8));
      } else if (variant < 0.75) {
        page.title('RESIDENTIAL LEASE AGREEMENT', pt(18));
        page.fields(
          [
            { label: 'Date', value: writeDate(documentDate, random) },
            { label: 'Landlord', value: `${pick(random, ['Greenway', 'Maple', 'Harbor'])} Property Management LLC` },
            { label: 'Tenant', value: parent },
            { label: 'Premises', value: address },
            { label: 'Monthly rent', value: `$${between(random, 900, 2400)}.00` },
            { label: 'Lease term', value: '12 months' },
          ],
          layout,
          random,
        );
        page.gap(pt(20));
        page.paragraph('The tenant agrees to occupy the premises as a private residence only. Rent is due on the first day of each month. This lease serves as proof of residence at the address above.', pt(9));
        page.signature('Landlord signature', null);
      } else {
        page.shape(logo(PAGE_WIDTH / 2 - pt(35), pt(40), pt(70)));
        page.gap(pt(80));
        page.centered(`${city[0]} Unified School District`, pt(16));
        page.centered('Office of Student Enrollment', pt(11));
        page.gap(pt(30));
        page.text(pt(72), writeDate(documentDate, random), { y: (page.y += pt(20)) });
        page.gap(pt(20));
        page.title('PROOF OF RESIDENCE', pt(15));
        page.paragraph(
          `To whom it may concern: this letter confirms that ${parent}, parent/guardian of a student enrolled in our district, resides at ${address}. Our records of this residence address were verified at enrollment.`,
          pt(11),
        );
        page.signature('Enrollment officer', null);
      }
      return plan(id, docType, kind, truthOf(null), page, random);
    }
    case 'waiver': {
      documentDate = addDays(today, -between(random, 1, 90));
      const league = pick(random, LEAGUES);
      page.centered(league, pt(14));
      page.title(pick(random, ['LIABILITY WAIVER AND RELEASE', 'Release of Liability and Assumption of Risk', 'Parent Consent and Waiver']), pt(17));
      page.gap(pt(10));
      page.fields(
        [
          { label: pick(random, ['Participant name', 'Player name', "Participant's name"]), value: child.printed },
          { label: pick(random, ['Date of birth', 'Birth date']), value: writeDate(dateOfBirth, random) },
          { label: 'Division', value: pick(random, ['U8', 'U10', 'U12', 'U14', 'U16']) },
        ],
        layout,
        random,
      );
      page.gap(pt(14));
      page.paragraph(
        `I, the undersigned parent or legal guardian, understand that participation in ${league} activities involves risks of injury. I knowingly assume all such risks and, on behalf of my child, waive and release the league, its volunteers, coaches and sponsors from any liability, and agree to hold harmless and indemnify them against any claim arising from participation. In an emergency, I consent to medical treatment of my child.`,
        pt(9),
      );
      page.signature('Parent/Guardian signature', null);
      page.fields(
        [
          { label: 'Printed name of parent/guardian', value: parent },
          { label: pick(random, ['Date signed', 'Date']), value: writeDate(documentDate, random) },
        ],
        layout === 'boxes' ? 'boxes' : 'lines',
        random,
      );
      return plan(id, docType, kind, truthOf(dateOfBirth), page, random);
    }
  }
}

function plan(id: string, docType: TDocType, kind: CorpusKind, truth: CorpusTruth, page: Page, random: Random): CorpusPlan {
  if (kind === 'clean') return { id, docType, kind, truth, svg: page.svg(), photo: null };
  const background = pick(random, ['#6b4f3a', '#8a8f94', '#3d4a3d', '#a0825f', '#5a5560']);
  const cx = Math.round(20 + random() * 60);
  const cy = Math.round(20 + random() * 60);
  const dark = (0.45 + random() * 0.35).toFixed(2);
  const light = `<defs><radialGradient id="light" cx="${cx}%" cy="${cy}%" r="${80 + Math.round(random() * 40)}%"><stop offset="0%" stop-color="#fffdf6"/><stop offset="100%" stop-color="rgb(${Math.round(255 * Number(dark))},${Math.round(250 * Number(dark))},${Math.round(235 * Number(dark))})"/></radialGradient></defs>`;
  return {
    id,
    docType,
    kind,
    truth,
    svg: page.svg(),
    photo: {
      angle: Number(((random() * 2 - 1) * 8).toFixed(2)),
      blur: Number((0.8 + random() * 0.8).toFixed(2)),
      margin: between(random, 60, 260),
      background,
      light,
      // About 12 MP or less for a letter page: 3000 × 3900 at most.
      width: between(random, 2600, 3000),
    },
  };
}

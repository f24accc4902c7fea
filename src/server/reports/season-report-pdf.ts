import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type PDFDocument from 'pdfkit';
import { DOC_TYPE_COLUMN_LABELS, monthLabel, PLAYER_DOC_STATUS_LABELS, type TSeasonReport } from '../../contract';
import { exportTables, percentText, type ExportTable, type ReportExport } from './season-report-export';

/**
 * The season report as a PDF a board member can open and print: A4 portrait, the title, season and date, the
 * summary figures, three charts drawn as vector shapes (completion by document type, players by division, monthly
 * registrations and completions), then the tables, a header row repeated on each page they run onto, and a
 * footer with the page number.
 *
 * Text is set in DejaVu Sans (the dejavu-fonts-ttf package), embedded as a subset: it has the accented and
 * non-Latin letters of players' names (é, ñ, Ł, ő, ș…) that the PDF standard fonts lack.
 */

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;
const loadFonts = () =>
  (fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  });

export const PAGE = { width: 595.28, height: 841.89, margin: 40 };
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 16;

export const INK = '#0f172a';
export const MUTED = '#64748b';
export const RULE = '#e2e8f0';
export const SHADE = '#f1f5f9';
/** The document states' colours, as the Reports screen's charts and dots use them. */
export const STATE_COLOURS = { complete: '#16a34a', pending: '#f97316', processing: '#eab308', missing: '#dc2626' } as const;
const BLUE = '#2563eb';

type Doc = PDFKit.PDFDocument;

/** Cuts text with an ellipsis until it fits `width` in the current font. */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Where the next line goes on the page, and text written in the PDF's fonts, cut to fit. Other reports' PDFs draw with it too. */
export class PdfWriter {
  y = PAGE.margin;
  constructor(readonly doc: Doc) {}

  /** Starts a new page when `height` does not fit below the current position. */
  ensure(height: number): void {
    if (this.y + height > BOTTOM) {
      this.doc.addPage();
      this.y = PAGE.margin;
    }
  }

  text(text: string, x: number, y: number, options: { size: number; bold?: boolean; color?: string; width?: number; align?: 'left' | 'right' | 'center' }): void {
    const { doc } = this;
    doc.font(options.bold ? 'Bold' : 'Regular').fontSize(options.size).fillColor(options.color ?? INK);
    const width = options.width ?? CONTENT_WIDTH;
    doc.text(fit(doc, text, width), x, y, { width, align: options.align ?? 'left', lineBreak: false });
  }

  heading(title: string, note?: string): void {
    this.ensure(40);
    this.text(title, PAGE.margin, this.y, { size: 13, bold: true });
    this.y += 18;
    if (note) {
      this.text(note, PAGE.margin, this.y, { size: 8.5, color: MUTED });
      this.y += 14;
    }
    this.y += 4;
  }
}

function header(w: PdfWriter, report: ReportExport): void {
  w.text(report.title, PAGE.margin, w.y, { size: 22, bold: true });
  w.y += 30;
  w.text(report.subtitle, PAGE.margin, w.y, { size: 13 });
  w.y += 18;
  w.text(report.generated, PAGE.margin, w.y, { size: 9, color: MUTED });
  w.y += 22;
}

function summaryCards(w: PdfWriter, report: ReportExport): void {
  const perRow = 3;
  const gap = 10;
  const width = (CONTENT_WIDTH - gap * (perRow - 1)) / perRow;
  const height = 50;
  report.summary.forEach((item, i) => {
    const x = PAGE.margin + (i % perRow) * (width + gap);
    const y = w.y + Math.floor(i / perRow) * (height + gap);
    w.doc.roundedRect(x, y, width, height, 6).lineWidth(0.8).strokeColor(RULE).stroke();
    w.text(item.label, x + 10, y + 8, { size: 8.5, color: MUTED, width: width - 20 });
    w.text(item.value, x + 10, y + 22, { size: item.value.length > 12 ? 11 : 17, bold: true, width: width - 20 });
  });
  w.y += Math.ceil(report.summary.length / perRow) * (height + gap) + 8;
}

function legend(w: PdfWriter, items: ReadonlyArray<{ label: string; color: string }>, line = false): void {
  let x = PAGE.margin;
  for (const item of items) {
    if (line) {
      w.doc.moveTo(x, w.y + 4).lineTo(x + 14, w.y + 4).lineWidth(2).strokeColor(item.color).stroke();
    } else {
      w.doc.rect(x, w.y, 9, 9).fillColor(item.color).fill();
    }
    w.text(item.label, x + (line ? 18 : 13), w.y, { size: 8.5, color: MUTED, width: 110 });
    w.doc.font('Regular').fontSize(8.5);
    x += (line ? 18 : 13) + w.doc.widthOfString(item.label) + 16;
  }
  w.y += 16;
}

/** Each document type as one bar of its players by state: complete, under review, processing, missing. */
function documentTypeChart(w: PdfWriter, report: TSeasonReport): void {
  w.heading('Completion by document type', 'Players by the state of each document; the figure is the share complete.');
  const labelWidth = 105;
  const valueWidth = 44;
  const barWidth = CONTENT_WIDTH - labelWidth - valueWidth - 12;
  const states = ['complete', 'pending', 'processing', 'missing'] as const;
  w.ensure(report.documentStats.length * 22 + 20);
  for (const stat of report.documentStats) {
    const total = states.reduce((sum, s) => sum + stat[s], 0);
    w.text(DOC_TYPE_COLUMN_LABELS[stat.docType], PAGE.margin, w.y + 3, { size: 9, width: labelWidth });
    let x = PAGE.margin + labelWidth;
    w.doc.rect(x, w.y, barWidth, 14).fillColor(SHADE).fill();
    for (const state of states) {
      const width = total === 0 ? 0 : (stat[state] / total) * barWidth;
      if (width > 0) w.doc.rect(x, w.y, width, 14).fillColor(STATE_COLOURS[state]).fill();
      x += width;
    }
    w.text(percentText(stat.completionRate), PAGE.margin + labelWidth + barWidth + 6, w.y + 3, { size: 9, bold: true, width: valueWidth, align: 'right' });
    w.y += 22;
  }
  legend(w, states.map((s) => ({ label: PLAYER_DOC_STATUS_LABELS[s], color: STATE_COLOURS[s] })));
  w.y += 10;
}

/** Players per division, the complete ones in the darker part of the bar. */
function divisionChart(w: PdfWriter, report: TSeasonReport): void {
  w.heading('Players by division', 'Each bar is a division’s players; the green part is its complete players.');
  const labelWidth = 60;
  const valueWidth = 80;
  const barWidth = CONTENT_WIDTH - labelWidth - valueWidth - 12;
  const most = Math.max(1, ...report.divisionStats.map((d) => d.players));
  w.ensure(report.divisionStats.length * 22 + 20);
  for (const stat of report.divisionStats) {
    w.text(stat.division, PAGE.margin, w.y + 3, { size: 9, width: labelWidth });
    const x = PAGE.margin + labelWidth;
    w.doc.rect(x, w.y, barWidth, 14).fillColor(SHADE).fill();
    if (stat.players > 0) w.doc.rect(x, w.y, (stat.players / most) * barWidth, 14).fillColor(BLUE).fill();
    if (stat.complete > 0) w.doc.rect(x, w.y, (stat.complete / most) * barWidth, 14).fillColor(STATE_COLOURS.complete).fill();
    w.text(`${stat.players} (${stat.complete} complete)`, x + barWidth + 6, w.y + 3, { size: 8.5, width: valueWidth, align: 'right' });
    w.y += 22;
  }
  legend(w, [
    { label: 'Players', color: BLUE },
    { label: 'Complete', color: STATE_COLOURS.complete },
  ]);
  w.y += 10;
}

/** A step for the value axis that gives about four gridlines: 1, 2 or 5 times a power of ten. */
export function axisStep(max: number): number {
  if (max <= 4) return 1;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough) ?? rough;
}

/** Registrations and completions per month as two lines over a value axis with gridlines. */
function monthlyChart(w: PdfWriter, report: TSeasonReport): void {
  w.heading('Monthly registrations and completions');
  const height = 150;
  w.ensure(height + 50);
  const { doc } = w;
  const axisWidth = 30;
  const left = PAGE.margin + axisWidth;
  const width = CONTENT_WIDTH - axisWidth - 30;
  const top = w.y + 4;
  const bottom = top + height;
  const months = report.monthly;
  const step = axisStep(Math.max(1, ...months.flatMap((m) => [m.registrations, m.completions])));
  const ceiling = Math.max(step, Math.ceil(Math.max(1, ...months.flatMap((m) => [m.registrations, m.completions])) / step) * step);
  const yOf = (value: number) => bottom - (value / ceiling) * height;
  const xOf = (i: number) => left + (months.length <= 1 ? width / 2 : (i / (months.length - 1)) * width);

  for (let value = 0; value <= ceiling; value += step) {
    doc.moveTo(left, yOf(value)).lineTo(left + width, yOf(value)).lineWidth(0.5).strokeColor(RULE).stroke();
    w.text(String(value), PAGE.margin, yOf(value) - 4, { size: 7.5, color: MUTED, width: axisWidth - 6, align: 'right' });
  }
  // At most about eight month names fit under the axis: every n-th, counted back from the last.
  const every = Math.ceil(months.length / 8);
  months.forEach((m, i) => {
    if ((months.length - 1 - i) % every === 0) w.text(monthLabel(m.month), xOf(i) - 30, bottom + 6, { size: 7.5, color: MUTED, width: 60, align: 'center' });
  });
  const series = [
    { label: 'Registrations', color: BLUE, values: months.map((m) => m.registrations) },
    { label: 'Completions', color: STATE_COLOURS.complete, values: months.map((m) => m.completions) },
  ];
  for (const line of series) {
    line.values.forEach((value, i) => (i === 0 ? doc.moveTo(xOf(i), yOf(value)) : doc.lineTo(xOf(i), yOf(value))));
    doc.lineWidth(1.8).strokeColor(line.color).stroke();
    line.values.forEach((value, i) => doc.circle(xOf(i), yOf(value), 2.4).fillColor(line.color).fill());
  }
  w.y = bottom + 24;
  legend(w, series, true);
  w.y += 10;
}

const TABLE_FONT = 7.5;
/** Cells this short (a state, a division, a figure) are never cut; longer ones (names, ids) give way. */
const SHORT_CELL = 14;

/**
 * Column widths: each column's widest cell (of the first 200 rows, capped) or the longest word of its header,
 * whichever is wider. When they do not fit, each column gives up part of what it has beyond its header's longest
 * word and its short cells, so neither a header word nor a state is cut; when they leave room, they share it. Headers wrap where they must.
 */
function columnWidths(w: PdfWriter, table: ExportTable): number[] {
  const { doc } = w;
  const texts = table.columns.map((_, i) => table.rows.slice(0, 200).map((row) => cellText(table, row[i], i)));
  const minimum = table.columns.map((column, i) => {
    doc.font('Bold').fontSize(TABLE_FONT);
    const word = Math.max(...column.split(' ').map((part) => doc.widthOfString(part)));
    doc.font('Regular');
    const short = (texts[i] ?? []).filter((text) => text.length <= SHORT_CELL).map((text) => doc.widthOfString(text));
    return Math.max(word, ...short) + 10;
  });
  const natural = table.columns.map((_, i) => Math.max(minimum[i] ?? 0, Math.min(160, Math.max(0, ...(texts[i] ?? []).map((text) => doc.widthOfString(text)))) + 10));
  const sum = (xs: number[]) => xs.reduce((total, x) => total + x, 0);
  if (sum(natural) <= CONTENT_WIDTH) return natural.map((x) => (x / sum(natural)) * CONTENT_WIDTH);
  const share = Math.max(0, (CONTENT_WIDTH - sum(minimum)) / (sum(natural) - sum(minimum)));
  return natural.map((x, i) => (minimum[i] ?? 0) + (x - (minimum[i] ?? 0)) * share);
}

/** A cell as the table shows it: a figure of a '… %' column as a percentage. */
const cellText = (table: ExportTable, cell: string | number | undefined, i: number): string =>
  typeof cell === 'number' && table.columns[i]?.endsWith('%') ? percentText(cell) : String(cell ?? '');

function drawTable(w: PdfWriter, table: ExportTable, note: string | null): void {
  const { doc } = w;
  const rowHeight = 15;
  w.heading(table.title, note ?? undefined);
  const widths = columnWidths(w, table);
  doc.font('Bold').fontSize(TABLE_FONT);
  const headerHeight = Math.max(...table.columns.map((column, i) => doc.heightOfString(column, { width: (widths[i] ?? 0) - 10 }))) + 9;
  const headerRow = () => {
    doc.rect(PAGE.margin, w.y, CONTENT_WIDTH, headerHeight).fillColor(SHADE).fill();
    let x = PAGE.margin;
    table.columns.forEach((column, i) => {
      const width = widths[i] ?? 0;
      doc.font('Bold').fontSize(TABLE_FONT).fillColor(INK);
      doc.text(column, x + 5, w.y + 4.5, { width: width - 10, align: table.numeric[i] ? 'right' : 'left' });
      x += width;
    });
    w.y += headerHeight;
  };
  w.ensure(headerHeight + rowHeight * 2);
  headerRow();
  if (table.rows.length === 0) {
    w.text('None', PAGE.margin + 5, w.y + 4, { size: TABLE_FONT, color: MUTED });
    w.y += rowHeight;
  }
  table.rows.forEach((row, index) => {
    if (w.y + rowHeight > BOTTOM) {
      doc.addPage();
      w.y = PAGE.margin;
      headerRow();
    }
    if (index % 2 === 1) doc.rect(PAGE.margin, w.y, CONTENT_WIDTH, rowHeight).fillColor('#f8fafc').fill();
    let x = PAGE.margin;
    row.forEach((cell, i) => {
      const width = widths[i] ?? 0;
      w.text(cellText(table, cell, i), x + 5, w.y + 4, { size: TABLE_FONT, width: width - 10, align: table.numeric[i] ? 'right' : 'left' });
      x += width;
    });
    w.y += rowHeight;
  });
  doc.moveTo(PAGE.margin, w.y).lineTo(PAGE.margin + CONTENT_WIDTH, w.y).lineWidth(0.5).strokeColor(RULE).stroke();
  w.y += 22;
}

/** Every page's footer: 'Clearbase · {subtitle}' and 'Page n of m'. */
export function footers(w: PdfWriter, report: Pick<ReportExport, 'subtitle'>): void {
  const { doc } = w;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // Written below the bottom margin: without lifting it, pdfkit would start a new page for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.margin + 4;
    w.text(`Clearbase · ${report.subtitle}`, PAGE.margin, y, { size: 7.5, color: MUTED, width: CONTENT_WIDTH / 2 });
    w.text(`Page ${i - range.start + 1} of ${range.count}`, PAGE.margin + CONTENT_WIDTH / 2, y, { size: 7.5, color: MUTED, width: CONTENT_WIDTH / 2, align: 'right' });
    doc.page.margins.bottom = margin;
  }
}

/**
 * A new A4 PDF in the report's fonts ('Regular' and 'Bold'), pages kept until the end so footers can number
 * them: its writer, and its bytes once `pdf.end()` is called.
 */
export async function openPdf(info: { title: string; subject: string }): Promise<{ pdf: Doc; w: PdfWriter; done: Promise<Buffer> }> {
  const { regular, bold } = loadFonts();
  const Pdf = await loadPdfKit();
  const pdf = new Pdf({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    lang: 'en',
    info: { Title: info.title, Author: 'Clearbase', Subject: info.subject },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('Regular', regular);
  pdf.registerFont('Bold', bold);
  return { pdf, w: new PdfWriter(pdf), done };
}

let pdfKit: Promise<typeof PDFDocument> | undefined;

/** pdfkit (with its font and compression code, some 25 MB) is loaded by the first report, not with the server. */
function loadPdfKit(): Promise<typeof PDFDocument> {
  pdfKit ??= import('pdfkit').then((module) => module.default);
  return pdfKit;
}

/** The PDF's bytes. */
export async function seasonReportPdf(report: TSeasonReport, doc: ReportExport): Promise<Buffer> {
  const { pdf, w, done } = await openPdf({ title: `${doc.title}: ${doc.subtitle}`, subject: doc.generated });

  header(w, doc);
  summaryCards(w, doc);
  if (report.summary.totalPlayers === 0) {
    w.text(`No players are registered for ${report.season.name} yet.`, PAGE.margin, w.y, { size: 11, color: MUTED });
    w.y += 24;
  } else {
    documentTypeChart(w, report);
    divisionChart(w, report);
    monthlyChart(w, report);
  }
  for (const table of exportTables(doc)) drawTable(w, table, table === doc.incompletePlayers ? doc.unlistedPlayers : null);
  footers(w, doc);
  pdf.end();
  return done;
}

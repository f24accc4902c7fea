import { CONTENT_WIDTH, footers, INK, MUTED, openPdf, PAGE, RULE, SHADE, STATE_COLOURS, type PdfWriter } from './season-report-pdf';
import { dayText, documentLabel, documentLine, type EligibilityPacket, type PacketPlayer } from './eligibility';
import type { TPlayerDocStatus } from '../../contract';

/**
 * The eligibility packet as an A4 PDF in the season report's fonts and layout helpers: the title, the generation
 * line, the league age day and the division's ages, then one block per player (name, date of birth, league age,
 * a red flag when the age is outside the division's) with a line per document type: its state and who verified
 * it when. A block never splits across pages; every page has the footer with its number.
 */

const RED = '#dc2626';
/** A state's colour: the report's for complete, pending, processing and missing; expired red, not required muted. */
const stateColour = (status: TPlayerDocStatus): string =>
  status === 'expired' ? RED : status === 'not_required' ? MUTED : STATE_COLOURS[status];

const LINE = 12;
const LABEL_WIDTH = 90;
const STATE_WIDTH = 72;

function header(w: PdfWriter, packet: EligibilityPacket): void {
  w.text(packet.title, PAGE.margin, w.y, { size: 18, bold: true });
  w.y += 26;
  w.text(packet.generated, PAGE.margin, w.y, { size: 9, color: MUTED });
  w.y += 14;
  w.text(packet.note, PAGE.margin, w.y, { size: 9, color: MUTED });
  w.y += 22;
}

function playerBlock(w: PdfWriter, player: PacketPlayer, shaded: boolean): void {
  const height = 20 + (player.ageFlag === null ? 0 : LINE) + player.documents.length * LINE + 8;
  w.ensure(height);
  const top = w.y;
  if (shaded) w.doc.rect(PAGE.margin, top, CONTENT_WIDTH, height).fillColor(SHADE).fill();
  const facts = [`Born ${dayText(player.birthDate)}`, `League age ${player.leagueAge ?? '—'}`].join(' · ');
  const factsWidth = 190;
  w.text(player.name, PAGE.margin + 6, top + 5, { size: 10, bold: true, width: CONTENT_WIDTH - factsWidth - 12 });
  w.text(facts, PAGE.margin + CONTENT_WIDTH - factsWidth - 6, top + 6, { size: 8.5, width: factsWidth, align: 'right' });
  w.y = top + 20;
  if (player.ageFlag !== null) {
    // Beside the name's line would crowd it: the flag takes the first line, in red, ahead of the documents.
    w.text(`⚠ ${player.ageFlag}`, PAGE.margin + 6, w.y, { size: 8.5, bold: true, color: RED });
    w.y += LINE;
  }
  for (const document of player.documents) {
    const { state, detail } = documentLine(document);
    const x = PAGE.margin + 6;
    w.text(documentLabel(document.docType), x, w.y, { size: 8.5, color: INK, width: LABEL_WIDTH });
    w.text(state, x + LABEL_WIDTH, w.y, { size: 8.5, bold: true, color: stateColour(document.status), width: STATE_WIDTH });
    if (detail !== '') w.text(detail, x + LABEL_WIDTH + STATE_WIDTH, w.y, { size: 8.5, color: MUTED, width: CONTENT_WIDTH - LABEL_WIDTH - STATE_WIDTH - 12 });
    w.y += LINE;
  }
  w.y += 4;
  w.doc.moveTo(PAGE.margin, w.y).lineTo(PAGE.margin + CONTENT_WIDTH, w.y).lineWidth(0.5).strokeColor(RULE).stroke();
  w.y += 4;
}

/** The packet's bytes. */
export async function eligibilityPacketPdf(packet: EligibilityPacket): Promise<Buffer> {
  const { pdf, w, done } = await openPdf({ title: packet.title, subject: packet.generated });
  header(w, packet);
  if (packet.players.length === 0) {
    w.text(`No players are registered in ${packet.division} for ${packet.seasonName}.`, PAGE.margin, w.y, { size: 11, color: MUTED });
  }
  packet.players.forEach((player, i) => playerBlock(w, player, i % 2 === 1));
  footers(w, { subtitle: `Eligibility packet · ${packet.subtitle}` });
  pdf.end();
  return done;
}

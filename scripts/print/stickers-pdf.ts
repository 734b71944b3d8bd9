/**
 * A sticker sheet PDF for a dice set, drawn from the dice face art (vision/faces), the same art the
 * classifier is trained on, so dice made with these stickers read like the dice it knows.
 */
import PDFDocument from 'pdfkit';
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import { PAPER_MM, type Paper } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { BODY_PATH, faceIcon } from '../../vision/faces/svg.js';
import { collect } from './collect.js';
import { beginMillimetres, PT_PER_MM } from './pdf-draw.js';
import { dicePerPage, stickerPages, type StickerFace } from './stickers-layout.js';

const PRINTED = new Date(Date.UTC(2024, 0, 1));

export interface StickerOptions {
  paper: Paper;
  dice?: number;
  /** Named die colour or CSS colour for the icons and the sticker body. */
  ink?: string;
  body?: string;
}

/** The paths (0..100 face units, body first) of one sticker face. */
export function stickerFacePaths(set: DiceSetId, face: string, ink = '#1d1d1f', body = '#ffffff'): { d: string; fill: string }[] {
  return faceIcon(set, face, { ink, body }).paths;
}

function drawFace(doc: InstanceType<typeof PDFDocument>, f: StickerFace, paths: { d: string; fill: string }[]): void {
  doc.save();
  doc.translate(f.x, f.y).scale(f.size / 100);
  for (const p of paths) doc.path(p.d).fill(p.fill);
  // Cut guide: the sticker's own rounded outline, hairline grey.
  doc.path(BODY_PATH).lineWidth(0.6).stroke('#9a9a9a');
  doc.restore();
  // Crop ticks just outside the corners, for cutting with a ruler.
  const t = 1.6;
  const g = 0.6;
  doc.lineWidth(0.12);
  for (const [cx, cy, sx, sy] of [
    [f.x, f.y, -1, -1],
    [f.x + f.size, f.y, 1, -1],
    [f.x + f.size, f.y + f.size, 1, 1],
    [f.x, f.y + f.size, -1, 1],
  ] as const) {
    doc.moveTo(cx + sx * g, cy).lineTo(cx + sx * (g + t), cy).stroke('#777777');
    doc.moveTo(cx, cy + sy * g).lineTo(cx, cy + sy * (g + t)).stroke('#777777');
  }
}

export async function stickersPdf(set: DiceSetId, options: StickerOptions): Promise<Uint8Array> {
  const def = DICE_SETS[set];
  const per = dicePerPage(options.paper);
  const dice = options.dice ?? per.columns * per.rows;
  const pages = stickerPages(options.paper, dice);
  const size = PAPER_MM[options.paper];
  const doc = new PDFDocument({
    size: [size.width * PT_PER_MM, size.height * PT_PER_MM],
    margin: 0,
    autoFirstPage: false,
    info: { Title: `clew stickers: ${def.name}`, Creator: 'clew', Producer: 'clew (pdfkit)', CreationDate: PRINTED, ModDate: PRINTED },
  });
  const done = collect(doc);
  const paths = def.faces.map((face) => stickerFacePaths(set, face, options.ink, options.body));
  pages.forEach((page, i) => {
    doc.addPage();
    beginMillimetres(doc, 0, 0);
    doc.font('Helvetica-Bold').fontSize(4).fillColor('#000000').text(`clew stickers · ${def.name} (${set})`, 12, 19, { lineBreak: false, baseline: 'alphabetic' });
    doc
      .font('Helvetica')
      .fontSize(2.6)
      .text(`For 16 mm dice: cut each 14 mm face out along its grey outline; one sticker per face: ${def.faces.join(', ')}.   Page ${i + 1} of ${pages.length}`, 12, 23.5, { lineBreak: false, baseline: 'alphabetic' });
    for (const l of page.labels) doc.font('Helvetica').fontSize(2.4).fillColor('#555555').text(l.text, l.x, l.y, { lineBreak: false, baseline: 'alphabetic' });
    for (const f of page.faces) drawFace(doc, f, paths[f.face]!);
    doc.restore();
  });
  doc.end();
  return done;
}

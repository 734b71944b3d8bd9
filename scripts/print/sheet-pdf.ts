/** The printable sheet of a chapter as PDF bytes (pdfkit): the shared layout drawn page-centred. */
import PDFDocument from 'pdfkit';
import type { Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { frameOffset, PAPER_MM, sheetLayout, type Paper } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { sheetPrimitives } from '../../vision/sheet/sheet-art.js';
import { beginMillimetres, drawPrims, PT_PER_MM } from './pdf-draw.js';
import { collect } from './collect.js';

/** A fixed date keeps the same chapter printing to the same bytes. */
const PRINTED = new Date(Date.UTC(2024, 0, 1));

export async function sheetPdf(chapter: Chapter, paper: Paper): Promise<Uint8Array> {
  const size = PAPER_MM[paper];
  const doc = new PDFDocument({
    size: [size.width * PT_PER_MM, size.height * PT_PER_MM],
    margin: 0,
    info: { Title: `Worm & Cozy: ${chapter.title}`, Creator: 'clew', Producer: 'clew (pdfkit)', CreationDate: PRINTED, ModDate: PRINTED },
  });
  const done = collect(doc);
  const off = frameOffset(paper);
  beginMillimetres(doc, off.x, off.y);
  drawPrims(doc, sheetPrimitives(sheetLayout(chapter), chapter));
  doc.restore();
  doc.end();
  return done;
}

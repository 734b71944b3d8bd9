/**
 * Draws sheet primitives (frame millimetres) into a pdfkit document. The caller sets the transform
 * (`beginMillimetres`) so one unit is one millimetre; text uses the standard Helvetica fonts.
 */
import type PDFDocument from 'pdfkit';
import type { Prim } from '../../vision/sheet/sheet-art.js';

type Doc = InstanceType<typeof PDFDocument>;

export const PT_PER_MM = 72 / 25.4;

/** Saves the graphics state and makes one user unit one millimetre, with the origin at (x, y) mm. */
export function beginMillimetres(doc: Doc, x: number, y: number): void {
  doc.save();
  doc.scale(PT_PER_MM);
  doc.translate(x, y);
}

function paint(doc: Doc, fill?: string, stroke?: string, lw?: number): void {
  if (stroke) doc.lineWidth(lw ?? 0.2).lineJoin('round');
  if (fill && stroke) doc.fillAndStroke(fill, stroke);
  else if (fill) doc.fill(fill);
  else if (stroke) doc.stroke(stroke);
}

export function drawPrim(doc: Doc, p: Prim): void {
  switch (p.k) {
    case 'rect':
      if (p.r) doc.roundedRect(p.x, p.y, p.w, p.h, p.r);
      else doc.rect(p.x, p.y, p.w, p.h);
      paint(doc, p.fill, p.stroke, p.lw);
      return;
    case 'line':
      doc.lineCap(p.cap ?? 'butt').moveTo(p.x1, p.y1).lineTo(p.x2, p.y2);
      paint(doc, undefined, p.stroke, p.lw);
      return;
    case 'poly': {
      const [first, ...rest] = p.pts;
      if (!first) return;
      doc.lineCap(p.cap ?? 'round').moveTo(first[0], first[1]);
      for (const [x, y] of rest) doc.lineTo(x, y);
      if (p.closed) doc.closePath();
      paint(doc, p.fill, p.stroke, p.lw);
      return;
    }
    case 'circle':
      doc.circle(p.cx, p.cy, p.r);
      paint(doc, p.fill, p.stroke, p.lw);
      return;
    case 'path':
      doc.save();
      doc.translate(p.x, p.y).scale(p.scale);
      doc.path(p.d).fill(p.fill);
      doc.restore();
      return;
    case 'text': {
      doc.font(p.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(p.size);
      const w = doc.widthOfString(p.text);
      const x = p.align === 'center' ? p.x - w / 2 : p.align === 'right' ? p.x - w : p.x;
      doc.fillColor(p.fill ?? '#000000').text(p.text, x, p.y, { lineBreak: false, baseline: 'alphabetic' });
      return;
    }
  }
}

export function drawPrims(doc: Doc, prims: readonly Prim[]): void {
  for (const p of prims) drawPrim(doc, p);
}

/** Sheet primitives as an SVG document (millimetre user units), for rasterising with sharp/librsvg. */
import type { Prim } from './sheet-art.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => (Math.round(v * 1000) / 1000).toString();

function paint(fill?: string, stroke?: string, lw?: number, cap?: string): string {
  let s = ` fill="${fill ?? 'none'}"`;
  if (stroke) s += ` stroke="${stroke}" stroke-width="${n(lw ?? 0.2)}" stroke-linejoin="round"${cap ? ` stroke-linecap="${cap}"` : ''}`;
  return s;
}

export function primToSvg(p: Prim): string {
  switch (p.k) {
    case 'rect':
      return `<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}"${p.r ? ` rx="${n(p.r)}"` : ''}${paint(p.fill, p.stroke, p.lw)}/>`;
    case 'line':
      return `<line x1="${n(p.x1)}" y1="${n(p.y1)}" x2="${n(p.x2)}" y2="${n(p.y2)}"${paint(undefined, p.stroke, p.lw, p.cap ?? 'butt')}/>`;
    case 'poly': {
      const pts = p.pts.map(([x, y]) => `${n(x)},${n(y)}`).join(' ');
      return p.closed ? `<polygon points="${pts}"${paint(p.fill, p.stroke, p.lw, p.cap)}/>` : `<polyline points="${pts}"${paint(p.fill, p.stroke, p.lw, p.cap ?? 'round')}/>`;
    }
    case 'circle':
      return `<circle cx="${n(p.cx)}" cy="${n(p.cy)}" r="${n(p.r)}"${paint(p.fill, p.stroke, p.lw)}/>`;
    case 'path':
      return `<path transform="translate(${n(p.x)} ${n(p.y)}) scale(${n(p.scale)})" d="${p.d}" fill="${p.fill}"/>`;
    case 'text': {
      const anchor = p.align === 'center' ? 'middle' : p.align === 'right' ? 'end' : 'start';
      return `<text x="${n(p.x)}" y="${n(p.y)}" font-family="Helvetica, Arial, 'DejaVu Sans', sans-serif" font-size="${n(p.size)}"${p.bold ? ' font-weight="bold"' : ''} text-anchor="${anchor}" fill="${p.fill ?? '#000'}">${esc(p.text)}</text>`;
    }
  }
}

/**
 * An SVG of the primitives covering `view` (frame mm) at `width` x `height` pixels, on `background`.
 * `extra` is appended raw (the synthesiser's pencil layer).
 */
export function primitivesToSvg(prims: readonly Prim[], view: { x: number; y: number; w: number; h: number }, width: number, height: number, background = '#ffffff', extra = ''): string {
  const body = prims.map(primToSvg).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${n(view.x)} ${n(view.y)} ${n(view.w)} ${n(view.h)}"><rect x="${n(view.x)}" y="${n(view.y)}" width="${n(view.w)}" height="${n(view.h)}" fill="${background}"/>${body}${extra}</svg>`;
}

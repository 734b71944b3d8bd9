/**
 * Regions held to the frame's edge by a thin line only. The locator drops every region that
 * touches the frame's edge (a die the edge cuts cannot be read), so a plank's groove, a crack or a
 * cable that runs from a die to the edge took the die with it: two big dice thrown together on a
 * planked table, a line of groove from their clump to the top edge, and neither was found.
 *
 * Such a region is opened (eroded, then grown back inside itself) by a few pixels; where that
 * leaves parts clear of the edge, each becomes a region of its own and the edge keeps the rest.
 * A die the edge really cuts, or a tray's rim, is thick where it meets the edge and stays as it
 * was.
 */
import { labelRegions, type Labelling, type Region } from './components.js';
import { erode3, type Mask } from './mask.js';

/**
 * Splits off the parts of edge regions that a thin line (at most `2 · radius` pixels wide) joins
 * to the frame's edge. Parts must satisfy `keep` (measured as regions of the frame). Returns the
 * labelling with the new regions appended (the edge regions keep what is left of them; their
 * boxes are not shrunk); the input is changed in place.
 */
export function peelBorderLines(labelling: Labelling, radius: number, keep: (part: Region) => boolean): Labelling {
  const { width, height, labels, regions } = labelling;
  const edgeRegions = regions.filter((r) => r.touchesBorder && keep(r));
  for (const r of edgeRegions) {
    const bw = r.x1 - r.x0, bh = r.y1 - r.y0;
    // Too thin to hold anything once opened.
    if (bw <= 2 * radius + 2 || bh <= 2 * radius + 2) continue;
    const inside = new Uint8Array(bw * bh);
    for (let y = 0; y < bh; y++) {
      const row = (r.y0 + y) * width + r.x0;
      for (let x = 0; x < bw; x++) if (labels[row + x] === r.label) inside[y * bw + x] = 1;
    }
    let core: Mask = { width: bw, height: bh, data: inside };
    for (let i = 0; i < radius; i++) core = erode3(core);
    const cores = labelRegions(core);
    // Cores still at the frame's edge are the edge's own (a cut die, a rim): only the others are parts.
    const atEdge = (c: Region) => c.x0 + r.x0 === 0 || c.y0 + r.y0 === 0 || c.x1 + r.x0 === width || c.y1 + r.y0 === height;
    if (cores.regions.every(atEdge)) continue;
    // Each part grown back inside the region by the radius it was eroded (the opening, kept to
    // the region): its own outline back, and at most `radius` pixels of the line.
    let part = Int32Array.from(cores.labels, (l) => (l > 0 && !atEdge(cores.regions[l - 1]!) ? l : 0));
    for (let i = 0; i < radius; i++) {
      const next = part.slice();
      for (let y = 0; y < bh; y++) {
        for (let x = 0; x < bw; x++) {
          const p = y * bw + x;
          if (inside[p] && !part[p]) next[p] = labelBeside(part, bw, bh, x, y);
        }
      }
      part = next;
    }
    // The grown parts, measured in the frame; those that reach the edge again are left to it.
    const grown = new Map<number, Region>();
    for (let y = 0; y < bh; y++) {
      for (let x = 0; x < bw; x++) {
        const l = part[y * bw + x]!;
        if (!l) continue;
        let g = grown.get(l);
        if (!g) grown.set(l, (g = { label: 0, area: 0, x0: width, y0: height, x1: 0, y1: 0, touchesBorder: false }));
        const fx = r.x0 + x, fy = r.y0 + y;
        g.area++;
        if (fx < g.x0) g.x0 = fx;
        if (fy < g.y0) g.y0 = fy;
        if (fx + 1 > g.x1) g.x1 = fx + 1;
        if (fy + 1 > g.y1) g.y1 = fy + 1;
      }
    }
    // Largest first: a part is split off only where it is larger than what the edge keeps of the
    // region after it (the line, a die the edge cuts). A bump of something that belongs to the
    // edge (a camouflage cloth's blot joined by a neck, a fragment of a wide groove) is not.
    for (const [l, g] of [...grown].sort((p, q) => q[1].area - p[1].area)) {
      g.touchesBorder = g.x0 === 0 || g.y0 === 0 || g.x1 === width || g.y1 === height;
      if (g.touchesBorder || !keep(g) || g.area < r.area - g.area) continue;
      g.label = regions.length + 1;
      regions.push(g);
      r.area -= g.area;
      for (let y = g.y0 - r.y0; y < g.y1 - r.y0; y++) {
        for (let x = g.x0 - r.x0; x < g.x1 - r.x0; x++) if (part[y * bw + x] === l) labels[(r.y0 + y) * width + r.x0 + x] = g.label;
      }
    }
  }
  return labelling;
}

/** The first label among a pixel's 8 neighbours, row by row (0 for none). */
function labelBeside(labels: Int32Array, width: number, height: number, x: number, y: number): number {
  for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
    for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
      const l = labels[yy * width + xx]!;
      if (l) return l;
    }
  }
  return 0;
}

/**
 * A die found from its outline round a mark no die holds. A white die on a white tray keeps its
 * pips in the mask and loses its body, while its outline shows in the edge strength, only fainter
 * than the frame's levels close. Round such a mark the outline is looked for again, in a window a
 * die wide, at lower levels: an enclosed, die-shaped part round the mark, well bigger than it, is
 * taken as its die.
 */
import { labelRegions } from './components.js';
import { enclosedBy, hysteresis } from './mask.js';
import { dieShapeScore, type Limits, type Piece } from './pieces.js';
import { regionShape } from './shape.js';

/** Edge strength (tray-edge units) that starts / extends an outline in the second look (the frame's are 8 / 3). */
const LOOK_SEED = 4;
const LOOK_GROW = 1.5;
/** The die round a mark is at least this many times the mark's area. */
const MIN_GROWTH = 3;

/**
 * The die whose outline encloses the mark at `mark` (coarse pixels, pixel-edge box), looked for
 * within `reach` coarse pixels of it; null when no closed, die-shaped outline holds it there.
 */
export function outlineAround(edgeStrength: Float32Array, width: number, height: number, mark: readonly [number, number, number, number], reach: number, limits: Limits): Piece | null {
  const [mx0, my0, mx1, my1] = mark;
  const wx0 = Math.max(0, mx0 - reach), wy0 = Math.max(0, my0 - reach);
  const wx1 = Math.min(width, mx1 + reach), wy1 = Math.min(height, my1 + reach);
  const ww = wx1 - wx0, wh = wy1 - wy0;
  if (ww < 3 || wh < 3) return null;
  const window = new Float32Array(ww * wh);
  for (let y = 0; y < wh; y++) window.set(edgeStrength.subarray((y + wy0) * width + wx0, (y + wy0) * width + wx1), y * ww);
  // What closed outlines enclose, any hole in the window (the die may fill most of it).
  const enclosed = enclosedBy(hysteresis(window, ww, wh, LOOK_GROW, LOOK_SEED), Infinity);
  const { labels, regions } = labelRegions(enclosed);
  const cx = Math.floor((mx0 + mx1) / 2) - wx0, cy = Math.floor((my0 + my1) / 2) - wy0;
  const label = labels[cy * ww + cx] ?? 0;
  if (label === 0) return null;
  const r = regions.find((q) => q.label === label)!;
  // An outline that runs out of the window is not a die's round this mark.
  if (r.touchesBorder && (r.x0 === 0 && wx0 > 0 || r.y0 === 0 && wy0 > 0 || r.x1 === ww && wx1 < width || r.y1 === wh && wy1 < height)) return null;
  if (r.area < MIN_GROWTH * (mx1 - mx0) * (my1 - my0)) return null;
  const box = { x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1 };
  const score = dieShapeScore(regionShape(labels, ww, label, box), r.area, limits);
  if (score === 0) return null;
  return { ox: wx0, oy: wy0, w: ww, h: wh, parts: labels, id: label, shapeScore: score, ...box, area: r.area };
}

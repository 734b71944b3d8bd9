/**
 * Seeded synthetic photos of filled-in Worm & Cozy sheets with their ground truth: a random solo game
 * of the chapter (the engine's legal moves), drawn in pencil by a random hand on the printed sheet
 * (the same primitives the PDF prints), photographed by a random camera (perspective, curl, shadow,
 * uneven light, blur, noise, JPEG). `synthSheetPhoto('eval-17')` is the same photo on every machine.
 */
import sharp from 'sharp';
import { CHAPTER_IDS, getChapter, type Chapter } from '../../../shared/games/worm-and-cozy/chapters.js';
import { frameOffset, PAPER_MM, sheetLayout, type Paper } from '../../../shared/games/worm-and-cozy/sheet-layout.js';
import { scoreSheet, type SheetJson } from '../../../shared/games/worm-and-cozy/sheet.js';
import type { CozyScore } from '../../../shared/games/worm-and-cozy/scoring.js';
import { createRng, type Rng } from '../../../shared/rng.js';
import type { Worm } from '../../../shared/games/worm-and-cozy/state.js';
import { sheetPrimitives } from '../sheet-art.js';
import { primitivesToSvg } from '../svg.js';
import { develop, randomCamera, randomLook, renderPhoto, type Texture } from './camera.js';
import { denseContent, playRandomGame } from './content.js';
import { paintOnSheet, type OnSheet } from './objects.js';
import { pencilSvg, randomHand, sheetPencil, type Hand } from './pencil.js';

export type TrueCellState = 'blank' | 'worm' | 'food' | 'rock';

export interface SheetTruth {
  chapterId: string;
  sheet: SheetJson;
  /** Per cell (row-major): what is really there. */
  cells: TrueCellState[];
  /** Null for training content (not a legal sheet). */
  score: CozyScore | null;
  worms: Worm[];
  foods: number[];
}

export interface SynthOptions {
  /** A bundled chapter id; default: one picked by the seed. */
  chapter?: string;
  /** Photo size; default: picked by the seed (1.9 to 12 megapixels). */
  width?: number;
  height?: number;
  /** 0 (easy) .. 1 (the default): scales perspective, curl, light falloff, shadow and blur. */
  difficulty?: number;
  paper?: Paper;
  /** 'game' (default): a random legal game. 'dense': many organs per photo, for training only. */
  content?: 'game' | 'dense';
  /** Things lying on the sheet (a pen, a marker, a cover over the board); default none. */
  onSheet?: readonly OnSheet[];
  /** Overrides of the random hand (a very dark soft pencil, broad bands); the rest stays as the seed drew it. */
  hand?: Partial<Hand>;
}

export interface SynthPhoto {
  jpeg: Uint8Array;
  width: number;
  height: number;
  truth: SheetTruth;
  hand: Hand;
}

/** The page (print and pencil) as an RGB texture at `ppm` pixels per mm. */
export async function renderPage(rng: Rng, chapter: Chapter, paper: Paper, ppm: number, pencil: string): Promise<Texture> {
  const layout = sheetLayout(chapter);
  const size = PAPER_MM[paper];
  const off = frameOffset(paper);
  const W = Math.round(size.width * ppm);
  const H = Math.round(size.height * ppm);
  const view = { x: -off.x, y: -off.y, w: W / ppm, h: H / ppm };
  const print = await sharp(Buffer.from(primitivesToSvg(sheetPrimitives(layout, chapter), view, W, H)))
    .removeAlpha()
    .raw()
    .toBuffer();
  const graphite = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="${view.x} ${view.y} ${view.w} ${view.h}">${pencil}</svg>`))
    .extractChannel(3)
    .raw()
    .toBuffer();
  // Paper tint, toner strength, and the paper's tooth: graphite catches on the ridges.
  const paperRgb = [rng.range(238, 252), rng.range(238, 252), rng.range(232, 250)];
  const toner = rng.range(0.8, 1);
  const depth = rng.range(0.72, 0.88);
  const data = new Uint8Array(W * H * 3);
  let s = rng.int(1, 1 << 30);
  const grain = new Float32Array(1 << 12);
  for (let i = 0; i < grain.length; i++) grain[i] = 0.55 + 0.45 * rng.next() + 0.25 * rng.next();
  for (let i = 0; i < W * H; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const a = graphite[i]! / 255;
    const g = a > 0 ? 1 - Math.min(0.95, depth * a * grain[(s >>> 9) & 4095]!) : 1;
    const paperNoise = 1 + (((s >>> 4) & 15) - 7.5) * 0.0015;
    for (let c = 0; c < 3; c++) {
      const refl = 1 - toner * (1 - print[i * 3 + c]! / 255);
      // Graphite is a cool, slightly shiny grey.
      const tint = c === 2 ? 1 : c === 1 ? 0.99 : 0.97;
      data[i * 3 + c] = Math.max(0, Math.min(255, paperRgb[c]! * refl * paperNoise * (1 - (1 - g) * tint)));
    }
  }
  return { data, width: W, height: H, ppm };
}

function trueCells(chapter: Chapter, worms: { cells: number[] }[], foods: number[]): TrueCellState[] {
  const n = chapter.board.columns * chapter.board.rows;
  const out = new Array<TrueCellState>(n).fill('blank');
  for (const w of worms) for (const c of w.cells) out[c] = 'worm';
  for (const f of foods) out[f] = 'food';
  for (const name of chapter.board.rocks) {
    const col = name.toUpperCase().charCodeAt(0) - 65;
    const row = Number(name.slice(1)) - 1;
    out[row * chapter.board.columns + col] = 'rock';
  }
  return out;
}

const SIZES: readonly [number, number][] = [
  [1600, 1200],
  [2000, 1500],
  [2400, 1800],
  [3000, 2250],
  [4000, 3000],
  [1920, 1080],
];

export async function synthSheetPhoto(seed: string | number, options: SynthOptions = {}): Promise<SynthPhoto> {
  const rng = createRng(`sheet-photo:${seed}`);
  const chapter = getChapter(options.chapter ?? rng.pick(CHAPTER_IDS));
  const dense = options.content === 'dense';
  const game = dense ? { ...denseContent(rng.fork(), chapter), sheet: { chapter: chapter.id, worms: [] } as SheetJson } : playRandomGame(rng.fork(), chapter, rng.range(0.75, 0.95));
  let score: CozyScore | null = null;
  if (!dense) {
    const scored = scoreSheet(game.sheet);
    if (!scored.ok) throw new Error(`synth: the engine's own sheet does not validate: ${scored.errors.join('; ')}`);
    score = scored.score;
  }
  const layout = sheetLayout(chapter);
  // The seed's hand is drawn either way, so an override leaves everything else of the photo as it was.
  const hand = { ...randomHand(rng), ...options.hand };
  const counts = score ? [...score.rewards.map((r) => r.count), score.penalty.count] : undefined;
  const pencil = pencilSvg(sheetPencil(rng.fork(), layout, chapter, game.worms, game.foods, hand, counts));

  const paper = options.paper ?? (rng.next() < 0.6 ? 'a4' : 'letter');
  let [width, height] = rng.pick(SIZES);
  if (rng.next() < 0.45) [width, height] = [height, width];
  if (options.width && options.height) [width, height] = [options.width, options.height];
  const difficulty = options.difficulty ?? 1;
  const page = { w: PAPER_MM[paper].width, h: PAPER_MM[paper].height };
  const off = frameOffset(paper);
  const keep = { x0: off.x - page.w / 2 - 1, y0: off.y - page.h / 2 - 1, x1: off.x + layout.frame.width - page.w / 2 + 1, y1: off.y + layout.frame.height - page.h / 2 + 1 };
  const cam = randomCamera(rng, width, height, page, keep, difficulty);
  // Texture resolution: a little finer than the photo's own sampling of the page (capped for speed).
  const ppmPhoto = cam.f / cam.t[2];
  const ppm = Math.min(12, Math.max(3, ppmPhoto * 1.25));
  const tex = await renderPage(rng, chapter, paper, ppm, pencil);
  if (options.onSheet?.length) paintOnSheet(tex, options.onSheet, off);
  const look = randomLook(rng, difficulty);
  const img = renderPhoto(rng, tex, cam, look);
  const jpeg = await develop(rng, img, width, height, look);
  return {
    jpeg,
    width,
    height,
    truth: { chapterId: chapter.id, sheet: game.sheet, cells: trueCells(chapter, game.worms, game.foods), score, worms: game.worms, foods: game.foods },
    hand,
  };
}

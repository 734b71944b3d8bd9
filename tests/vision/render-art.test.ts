/**
 * Face art: every class has a drawing, the drawings differ, our rasteriser agrees with librsvg on
 * the same path data, and the dashboard/sticker forms carry it unchanged.
 */
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DICE_SETS, DICE_SET_IDS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES, classOf } from '../../vision/faces/classes.js';
import { artForFace, faceArt, pentominoCells, randomArtStyle } from '../../vision/faces/art.js';
import { pathToPolygons, rasterizeArt } from '../../vision/faces/raster.js';
import { classIcon, faceIcon, iconToSvg } from '../../vision/faces/svg.js';

const SIZE = 48;
const inkOf = (mask: Float32Array) => mask.reduce((a, b) => a + b, 0) / mask.length;

async function librsvgMask(svg: string, size: number): Promise<Float32Array> {
  const { data } = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return Float32Array.from(data, (v) => 1 - v / 255);
}

describe('face art', () => {
  it('blank has no ink; every other class has some, inside the face', () => {
    for (const cls of FACE_CLASSES) {
      const mask = rasterizeArt(faceArt(cls), SIZE);
      if (cls === 'blank') {
        expect(inkOf(mask)).toBe(0);
        continue;
      }
      expect(inkOf(mask), cls).toBeGreaterThan(0.015);
      expect(inkOf(mask), cls).toBeLessThan(0.5);
      // Nothing touches the outermost ring of pixels (the die's edge and rounded corners).
      for (let i = 0; i < SIZE; i++) {
        for (const [x, y] of [[i, 0], [i, SIZE - 1], [0, i], [SIZE - 1, i]] as const) {
          expect(mask[y * SIZE + x], `${cls} at ${x},${y}`).toBe(0);
        }
      }
    }
  });

  it('no two classes look alike: in any 90° turn they differ by at least half a pip of ink', () => {
    const masks = FACE_CLASSES.filter((c) => c !== 'blank').map((cls) => ({ cls, m: rasterizeArt(faceArt(cls), SIZE) }));
    const rot = (m: Float32Array) => {
      const out = new Float32Array(m.length);
      for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) out[x * SIZE + (SIZE - 1 - y)] = m[y * SIZE + x]!;
      return out;
    };
    const differ = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0);
    const halfPip = (Math.PI * 9 * 9 * (SIZE / 100) ** 2) / 2;
    for (let i = 0; i < masks.length; i++) {
      for (let j = i + 1; j < masks.length; j++) {
        let m = masks[j]!.m;
        for (let r = 0; r < 4; r++, m = rot(m)) {
          expect(differ(masks[i]!.m, m), `${masks[i]!.cls} vs ${masks[j]!.cls} turned ${r * 90}°`).toBeGreaterThan(halfPip);
        }
      }
    }
  });

  it.each(FACE_CLASSES.filter((c) => c !== 'blank'))('%s: our rasteriser matches librsvg on the same SVG', async (cls) => {
    const art = faceArt(cls, randomArtStyle(createRng(`style-${cls}`)));
    const ours = rasterizeArt(art, 64);
    const theirs = await librsvgMask(iconToSvg(classIcon(cls, { ink: '#000000', body: '#ffffff' }, randomArtStyle(createRng(`style-${cls}`))), { size: 64 }), 64);
    let diff = 0;
    for (let i = 0; i < ours.length; i++) diff += Math.abs(ours[i]! - theirs[i]!);
    // Edge anti-aliasing differs a little; a wrong shape would differ by tens of percent of the ink.
    expect(diff / ours.length).toBeLessThan(0.015);
    expect(diff / ours.length).toBeLessThan(0.1 * inkOf(ours));
  });

  it('style variation changes the drawing but not what it is', () => {
    const rng = createRng(7);
    const a = rasterizeArt(faceArt('num-4', randomArtStyle(rng)), SIZE);
    const b = rasterizeArt(faceArt('num-4', randomArtStyle(rng)), SIZE);
    expect(a).not.toEqual(b);
    const ringPips = rasterizeArt(faceArt('pips-5', { pipShape: 'ring' }), SIZE);
    expect(inkOf(ringPips)).toBeLessThan(inkOf(rasterizeArt(faceArt('pips-5'), SIZE)));
  });

  it('art for a set face goes through the class mapping', () => {
    for (const set of DICE_SET_IDS) {
      for (const face of DICE_SETS[set].faces) expect(artForFace(set, face)).toEqual(faceArt(classOf(set, face)));
    }
    expect(() => artForFace('wurmeln', '2')).toThrow(/not a face of dice set "wurmeln"/);
  });

  it('pentominoes are five edge-connected cells', () => {
    for (const letter of DICE_SETS['cozy-shape'].faces) {
      const cells = pentominoCells(letter);
      expect(cells.length).toBe(5);
      const seen = new Set([`${cells[0]![0]},${cells[0]![1]}`]);
      for (let grown = true; grown; ) {
        grown = false;
        for (const [c, r] of cells) {
          if (seen.has(`${c},${r}`)) continue;
          if ([[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dc, dr]) => seen.has(`${c + dc!},${r + dr!}`))) {
            seen.add(`${c},${r}`);
            grown = true;
          }
        }
      }
      expect(seen.size, letter).toBe(5);
    }
  });
});

describe('icons for the dashboard and stickers', () => {
  it('substitutes colours for roles and puts the die body first', () => {
    const icon = faceIcon('cozy-organ', 'eye', { body: 'red', ink: '#fff' });
    expect(icon.viewBox).toBe('0 0 100 100');
    expect(icon.paths[0]!.fill).toBe('#be1e23');
    expect(icon.paths.slice(1).map((p) => p.fill)).toEqual(['#fff', '#be1e23', '#fff', '#be1e23']);
  });

  it('draws with M/L/C/Z only (no fonts, no arcs), which pdfkit and the rasteriser both read', () => {
    for (const cls of FACE_CLASSES) {
      for (const p of faceArt(cls).paths) expect(p.d).toMatch(/^M[-\d. MLCZ]*$/);
    }
    const svg = iconToSvg(classIcon('num-7'), { size: 32, title: 'seven' });
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 100 100" width="32" height="32"><title>seven<\/title><path /);
    expect(svg).not.toMatch(/<text|font/);
  });

  it('pdfkit draws every face from the same path data (sticker sheets)', async () => {
    const doc = new PDFDocument({ size: 'A4', margin: 0, compress: false });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
    let curves = 0;
    FACE_CLASSES.forEach((cls, i) => {
      const paths = classIcon(cls, { body: 'white', ink: 'black' }).paths;
      curves += paths.reduce((n, p) => n + (p.d.match(/C/g) ?? []).length, 0);
      doc.save().translate(20 + (i % 7) * 80, 20 + Math.floor(i / 7) * 80).scale(0.7);
      for (const p of classIcon(cls, { body: 'white', ink: 'black' }).paths) doc.path(p.d).fill(p.fill);
      doc.restore();
    });
    doc.end();
    await done;
    const pdf = Buffer.concat(chunks).toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
    // Every curve made it into the page content, and no font was embedded.
    expect((pdf.match(/ c\n/g) ?? []).length).toBe(curves);
    expect(pdf).not.toMatch(/\/FontFile|\/BaseFont/);
  });

  it('the path parser refuses what it cannot draw, saying where', () => {
    expect(() => pathToPolygons('m 1 2 l 3 4')).toThrow(/relative command "m"/);
    expect(() => pathToPolygons('M1 2 L3')).toThrow(/expected a number/);
    expect(pathToPolygons('M0 0L10 0L10 10Z')).toEqual([[[0, 0], [10, 0], [10, 10]]]);
  });
});

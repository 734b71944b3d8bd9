/** `npm run print`: sheet and sticker PDFs from the shared layout and the dice face art. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DICE_SET_IDS } from '../../shared/dice.js';
import { getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { PAPER_MM } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { sheetPdf } from '../../scripts/print/sheet-pdf.js';
import { dicePerPage, FACE_MM, stickerPages } from '../../scripts/print/stickers-layout.js';
import { stickersPdf } from '../../scripts/print/stickers-pdf.js';
import { scratchDir } from '../support/scratch.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/print.ts'), ...args], { cwd: root });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Page sizes (points) of a PDF, from its page dictionaries. */
function mediaBoxes(pdf: Uint8Array): number[][] {
  return [...text(pdf).matchAll(/\/MediaBox \[([^\]]+)\]/g)].map((m) => m[1]!.trim().split(/\s+/).map(Number));
}

describe('sheet PDF', () => {
  it('is one page of the paper asked for, and the same bytes every time', async () => {
    const ch = getChapter('clew-2');
    const a4 = await sheetPdf(ch, 'a4');
    expect(text(a4).startsWith('%PDF-')).toBe(true);
    expect(mediaBoxes(a4)).toHaveLength(1);
    const [, , w, h] = mediaBoxes(a4)[0]!;
    expect(w).toBeCloseTo((PAPER_MM.a4.width * 72) / 25.4, 1);
    expect(h).toBeCloseTo((PAPER_MM.a4.height * 72) / 25.4, 1);
    const letter = await sheetPdf(ch, 'letter');
    expect(mediaBoxes(letter)[0]![2]).toBeCloseTo((PAPER_MM.letter.width * 72) / 25.4, 1);
    expect(Buffer.compare(Buffer.from(a4), Buffer.from(await sheetPdf(ch, 'a4')))).toBe(0);
    expect(text(a4)).toContain('Worm & Cozy: clew chapter 2');
  });
});

describe('sticker sheets', () => {
  it('every die gets each of its six faces once, 14 mm, inside the page, none overlapping', () => {
    for (const paper of ['a4', 'letter'] as const) {
      const per = dicePerPage(paper);
      expect(per.columns * per.rows).toBeGreaterThanOrEqual(8);
      const pages = stickerPages(paper, per.columns * per.rows + 3);
      expect(pages).toHaveLength(2);
      const faces = pages.flatMap((p) => p.faces);
      expect(faces).toHaveLength(6 * (per.columns * per.rows + 3));
      for (let d = 1; d <= per.columns * per.rows + 3; d++) expect(faces.filter((f) => f.die === d).map((f) => f.face).sort()).toEqual([0, 1, 2, 3, 4, 5]);
      for (const page of pages) {
        for (const f of page.faces) {
          expect(f.size).toBe(FACE_MM);
          expect(f.x).toBeGreaterThan(5);
          expect(f.y).toBeGreaterThan(5);
          expect(f.x + f.size).toBeLessThan(PAPER_MM[paper].width - 5);
          expect(f.y + f.size).toBeLessThan(PAPER_MM[paper].height - 5);
        }
        for (const a of page.faces)
          for (const b of page.faces) {
            if (a === b) continue;
            const apart = a.x + a.size + 2 <= b.x || b.x + b.size + 2 <= a.x || a.y + a.size + 2 <= b.y || b.y + b.size + 2 <= a.y;
            expect(apart).toBe(true);
          }
      }
    }
  });

  it('prints a PDF for every dice set, a page per page of dice', async () => {
    for (const set of DICE_SET_IDS) {
      const pdf = await stickersPdf(set, { paper: 'a4', dice: 3 });
      expect(text(pdf).startsWith('%PDF-')).toBe(true);
      expect(mediaBoxes(pdf)).toHaveLength(1);
    }
    const per = dicePerPage('letter');
    expect(mediaBoxes(await stickersPdf('cozy-organ', { paper: 'letter', dice: per.columns * per.rows + 1 }))).toHaveLength(2);
  });

  it('refuses a silly number of dice', () => {
    expect(() => stickerPages('a4', 0)).toThrow(/1\.\.500/);
  });
});

describe('npm run print', () => {
  it('writes the sheet and the stickers', async () => {
    const dir = scratchDir('clew-print-');
    const [sheet, st] = await Promise.all([
      cli(['sheet', '--chapter', 'clew-5', '--paper', 'letter', '--out', path.join(dir, 's.pdf')]),
      cli(['stickers', '--set', 'cozy-shape', '--dice', '2', '--out', path.join(dir, 't.pdf')]),
    ]);
    expect(sheet.code).toBe(0);
    expect(readFileSync(path.join(dir, 's.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(st.code).toBe(0);
    expect(st.stdout).toContain('t.pdf');
  });

  it('says what is wrong: unknown chapter, unknown set, bad paper', async () => {
    const [a, b, c] = await Promise.all([
      cli(['sheet', '--chapter', 'clew-99', '--out', '/tmp/x.pdf']),
      cli(['stickers', '--set', 'd20', '--out', '/tmp/x.pdf']),
      cli(['sheet', '--chapter', 'clew-1', '--paper', 'a3', '--out', '/tmp/x.pdf']),
    ]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/unknown chapter "clew-99" \(known: clew-1/);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/unknown dice set/);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/paper must be one of a4, letter/);
  });
});

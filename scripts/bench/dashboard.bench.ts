/**
 * The phone dashboard's size as a phone downloads it: the built JS and CSS (dist/client/assets),
 * gzipped at level 9 as a server would send them. Built first when dist/client is missing or older
 * than its sources. Target: JS + CSS ≤ 150 KB gzipped.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CLIENT_OUT, ensureClientBuilt } from '../../web/client/build.js';
import type { BenchModule, Figure } from './types.js';

const KB = 1024;

async function sizes(ext: string): Promise<{ raw: number; gzip: number; files: number }> {
  const dir = path.join(CLIENT_OUT, 'assets');
  const names = (await readdir(dir)).filter((f) => f.endsWith(ext));
  let raw = 0;
  let gzip = 0;
  for (const name of names) {
    const bytes = await readFile(path.join(dir, name));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip, files: names.length };
}

const bench: BenchModule = {
  title: 'dashboard',
  async figures() {
    await ensureClientBuilt({ quiet: true });
    const js = await sizes('.js');
    const css = await sizes('.css');
    const total = (js.gzip + css.gzip) / KB;
    const figures: Figure[] = [
      { id: 'dashboard.gzip.kb', label: 'built dashboard, JS + CSS gzipped', value: total, unit: 'KB', target: { op: '<=', value: 150 }, note: `${js.files} JS + ${css.files} CSS file(s)` },
      { id: 'dashboard.js.gzip.kb', label: 'JS gzipped', value: js.gzip / KB, unit: 'KB', note: `${(js.raw / KB).toFixed(0)} KB before gzip` },
      { id: 'dashboard.css.gzip.kb', label: 'CSS gzipped', value: css.gzip / KB, unit: 'KB', note: `${(css.raw / KB).toFixed(0)} KB before gzip` },
    ];
    return figures;
  },
};

export default bench;

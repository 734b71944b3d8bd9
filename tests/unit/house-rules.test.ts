/**
 * The three rules of the house, checked on the source: pure rules in shared/ (no I/O, clock or
 * randomness), and each hardware/ML library imported only by its own module.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  const abs = path.join(root, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return out;
  }
  for (const name of entries) {
    const full = path.join(abs, name);
    if (statSync(full).isDirectory()) out.push(...sources(path.join(dir, name)));
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(path.join(dir, name));
  }
  return out;
}

const code = (file: string) =>
  readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('house rules', () => {
  it('shared/ is pure: no node built-ins, DOM, clock or randomness', () => {
    const offenders: string[] = [];
    for (const file of sources('shared')) {
      const text = code(file);
      const bad = [
        /from ['"]node:/,
        /from ['"](fs|net|http|path|os|child_process)['"]/,
        /\bDate\.now\(|new Date\(/,
        /Math\.random\(/,
        /\b(window|document|localStorage)\./,
        /\bprocess\./,
      ].filter((re) => re.test(text) && !(file.endsWith('rng.ts') && re.source.includes('random')));
      if (bad.length) offenders.push(`${file}: ${bad.map((b) => b.source).join(', ')}`);
    }
    expect(offenders).toEqual([]);
  });

  it.each([
    ['onoff', 'device/gpio/'],
    ['serialport', 'device/serial/'],
    ['@serialport/', 'device/serial/'],
    ['@tensorflow/', 'vision/'],
  ])('only %s imports live in %s', (lib, home) => {
    const offenders = ['shared', 'vision', 'device', 'web', 'scripts']
      .flatMap(sources)
      .filter((f) => !f.startsWith(home))
      .filter((f) => new RegExp(`from ['"]${lib.replace('/', '\\/')}`).test(code(f)) || new RegExp(`import\\(['"]${lib.replace('/', '\\/')}`).test(code(f)));
    expect(offenders).toEqual([]);
  });
});

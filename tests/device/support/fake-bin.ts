/** A temp folder of fake camera programs (see tests/fixtures/device/fake-camera.mjs). */
import { copyFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchDir } from '../../support/scratch.js';

const script = fileURLToPath(new URL('../../fixtures/device/fake-camera.mjs', import.meta.url));
export const FRAME_A = fileURLToPath(new URL('../../fixtures/device/mjpeg/a.jpg', import.meta.url));
export const FRAME_B = fileURLToPath(new URL('../../fixtures/device/mjpeg/b.jpg', import.meta.url));

export interface FakeSetup {
  programs: string[];
  runs?: ('stream' | 'die' | 'stall' | 'fail' | 'end')[];
  list?: string;
  formats?: Record<string, string>;
}

export function fakeBin(setup: FakeSetup) {
  const dir = scratchDir('clew-fakebin-');
  for (const program of setup.programs) {
    const target = path.join(dir, program);
    copyFileSync(script, target);
    chmodSync(target, 0o755);
  }
  writeFileSync(path.join(dir, 'fake.json'), JSON.stringify({ runs: setup.runs ?? ['stream'], list: setup.list, formats: setup.formats, frames: [FRAME_A, FRAME_B] }));
  return {
    dir,
    bin: (program: string) => path.join(dir, program),
    /** Each capture run's program name and argv. */
    runs: (): { name: string; args: string[] }[] => {
      const log = path.join(dir, 'runs.log');
      return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { name: string; args: string[] }) : [];
    },
  };
}

/** Polls until `check()` is true (real time; fails the test after `ms`, generous for a loaded machine). */
export async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The tray camera's learnt view kept over a restart (web/server/view-memory.ts): what is saved is
 * loaded back; a missing file is no view; a file that cannot be used is reported with its name
 * and why, and ignored, so the view is learnt again; forgetting removes the file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectingLogger } from '../../web/server/logger.js';
import { viewMemory } from '../../web/server/view-memory.js';
import { scratchDir } from '../support/scratch.js';

describe('viewMemory', () => {
  it('loads back what it saved, with when; a missing file is no view, and says nothing', async () => {
    const file = path.join(scratchDir('clew-view-'), 'camera-view.json');
    const logger = collectingLogger();
    const memory = viewMemory(file, logger, () => new Date('2026-11-28T05:00:00Z'));
    expect(memory.load()).toBeNull();
    await memory.save({ learnt: 'overhead', rolls: 20, dice: 151 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ learnt: 'overhead', rolls: 20, dice: 151, at: '2026-11-28T05:00:00.000Z' });
    expect(memory.load()).toEqual({ learnt: 'overhead', rolls: 20, dice: 151 });
    expect(logger.lines).toEqual([]);
  });

  it('forgetting removes the file (the camera moved), and forgetting twice is no error', async () => {
    const file = path.join(scratchDir('clew-view-'), 'camera-view.json');
    const memory = viewMemory(file, collectingLogger());
    await memory.save({ learnt: 'side turned 2', rolls: 12, dice: 40 });
    expect(existsSync(file)).toBe(true);
    await memory.save({ learnt: null, rolls: 0, dice: 0 });
    await memory.save({ learnt: null, rolls: 0, dice: 0 });
    expect(existsSync(file)).toBe(false);
  });

  it('a torn or foreign file is named with what is wrong, and ignored', () => {
    const dir = scratchDir('clew-view-');
    const cases: [string, RegExp][] = [
      ['{"learnt": "overhead", "rol', /camera-view\.json is not JSON/],
      ['{"learnt": "upside down", "rolls": 3, "dice": 9, "at": "x"}', /camera-view\.json is not a learnt view \(learnt: /],
      ['{"learnt": "side", "rolls": -1, "dice": 9, "at": "x"}', /camera-view\.json is not a learnt view \(rolls: /],
      ['{"learnt": "side", "rolls": 1, "dice": 9, "at": "x", "extra": 1}', /camera-view\.json is not a learnt view \(\(root\): /],
    ];
    for (const [text, said] of cases) {
      const file = path.join(dir, 'camera-view.json');
      writeFileSync(file, text);
      const logger = collectingLogger();
      expect(viewMemory(file, logger).load()).toBeNull();
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatchObject({ level: 'warn' });
      expect(logger.lines[0]!.message).toMatch(said);
      expect(logger.lines[0]!.message).toMatch(/the view is learnt again$/);
    }
  });
});

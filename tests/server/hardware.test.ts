/**
 * The hardware at the table: buttons and the status LED are started with the server and stopped
 * (pins released) when it closes; the LED blinks while a roll waits for a person to confirm it.
 */
import { describe, expect, it } from 'vitest';
import type { StatusLed } from '../../device/types.js';
import { startTestServer } from '../support/server.js';

/** Waits until `cond` holds (the button's effect is asynchronous: a queue and a log write with fsync). */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

class TestLed implements StatusLed {
  modes: string[] = [];
  running = false;
  async start() {
    this.running = true;
  }
  async stop() {
    this.running = false;
  }
  set(mode: 'off' | 'on' | 'blink') {
    this.modes.push(mode);
  }
}

describe('buttons and the status LED', () => {
  it('the LED is on while clew runs, blinks while a roll needs confirming, and is off and released at the end', async () => {
    const led = new TestLed();
    const server = await startTestServer({ adapters: { led } });
    expect(led.running).toBe(true);
    expect(server.buttons.running).toBe(true);
    expect(led.modes).toEqual(['on']);

    await server.clew.session.cameraRoll([{ set: 'd6', face: '4', confidence: 0.3, uncertain: true }], 'camera');
    expect(led.modes.at(-1)).toBe('blink');
    server.buttons.press('OK');
    await until(() => server.clew.session.table.roll === null);
    expect(led.modes.at(-1)).toBe('on');

    await server.close();
    expect(led.modes.at(-1)).toBe('off');
    expect(led.running).toBe(false);
    expect(server.buttons.running).toBe(false);
  });

  it('a button that means nothing now changes nothing', async () => {
    const server = await startTestServer();
    server.buttons.press('NEXT'); // Ann has not rolled: nothing to pass on
    server.buttons.press('BACK'); // nothing to undo
    await until(() => server.logger.lines.filter((l) => /^button (NEXT|BACK):/.test(l.message)).length === 2);
    expect(server.clew.session.table.version).toBe(1);
    await server.close();
  });
});

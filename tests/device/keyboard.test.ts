import { createReadStream, openSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { KeyboardButtons, keysToActions, lineToAction } from '../../device/buttons/keyboard.js';
import { memoryLogger } from '../../device/log.js';
import { flush, recordButtons } from './support/collect.js';

/** A PassThrough that claims to be a TTY and records raw-mode switches. */
function fakeTty() {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(mode: boolean): void; rawCalls: boolean[] };
  stream.isTTY = true;
  stream.isRaw = false;
  stream.rawCalls = [];
  stream.setRawMode = (mode: boolean) => {
    stream.rawCalls.push(mode);
    stream.isRaw = mode;
  };
  return stream;
}

describe('keyboard buttons', () => {
  it('keys: n NEXT, b BACK, r READ, o or Enter OK, capitals hold, arrows ignored', () => {
    expect(keysToActions('nbro\r')).toEqual([
      { button: 'NEXT', hold: false },
      { button: 'BACK', hold: false },
      { button: 'READ', hold: false },
      { button: 'OK', hold: false },
      { button: 'OK', hold: false },
    ]);
    expect(keysToActions('N')).toEqual([{ button: 'NEXT', hold: true }]);
    expect(keysToActions('\x1b[A')).toEqual([]);
    // A sequence after a key in the same chunk (fast typing, SSH): the key only, not the sequence's letters.
    expect(keysToActions('n\x1b[B')).toEqual([{ button: 'NEXT', hold: false }]);
    expect(keysToActions('n\x1bOP')).toEqual([{ button: 'NEXT', hold: false }]);
    expect(keysToActions('\x1b[1;5Bn\x1b[15~b')).toEqual([{ button: 'NEXT', hold: false }, { button: 'BACK', hold: false }]);
    expect(keysToActions('\x1bb')).toEqual([]); // Alt+b
    expect(keysToActions('xyz')).toEqual([]);
  });

  it('lines: a letter, a button name, "hold <name>", or empty for OK', () => {
    expect(lineToAction('n')).toEqual({ button: 'NEXT', hold: false });
    expect(lineToAction(' back ')).toEqual({ button: 'BACK', hold: false });
    expect(lineToAction('hold read')).toEqual({ button: 'READ', hold: true });
    expect(lineToAction('R')).toEqual({ button: 'READ', hold: true });
    expect(lineToAction('')).toEqual({ button: 'OK', hold: false });
    expect(lineToAction('jump')).toBeNull();
  });

  it('on a TTY: raw mode while running, each key is a press and release, terminal restored on stop', async () => {
    const tty = fakeTty();
    const keyboard = new KeyboardButtons({ input: tty });
    const seen = recordButtons(keyboard);
    await keyboard.start();
    expect(tty.rawCalls).toEqual([true]);
    tty.write('nO');
    await flush();
    expect(seen).toEqual(['press NEXT', 'release NEXT', 'press OK', 'hold OK', 'release OK']);
    await keyboard.stop();
    expect(tty.rawCalls).toEqual([true, false]);
    tty.write('b');
    await flush();
    expect(seen).toHaveLength(5);
  });

  it('Ctrl-C in raw mode still interrupts', async () => {
    const tty = fakeTty();
    let interrupted = 0;
    const keyboard = new KeyboardButtons({ input: tty, onInterrupt: () => interrupted++ });
    await keyboard.start();
    tty.write('\x03');
    await flush();
    expect(interrupted).toBe(1);
    await keyboard.stop();
  });

  it('piped input is read a line at a time, never in raw mode; unknown lines are warned about', async () => {
    const pipe = new PassThrough();
    const log = memoryLogger();
    const keyboard = new KeyboardButtons({ input: pipe, log });
    const seen = recordButtons(keyboard);
    await keyboard.start();
    pipe.write('ne');
    pipe.write('xt\r\nfly\n\n');
    await flush();
    expect(seen).toEqual(['press NEXT', 'release NEXT', 'press OK', 'release OK']);
    expect(log.messages('warn').join()).toMatch(/ignored input line "fly"/);
    await keyboard.stop();
  });

  it('a listener that throws is logged and does not silence the others', async () => {
    const pipe = new PassThrough();
    const log = memoryLogger();
    const keyboard = new KeyboardButtons({ input: pipe, log });
    keyboard.on('press', () => {
      throw new Error('boom');
    });
    const seen = recordButtons(keyboard);
    await keyboard.start();
    pipe.write('r\n');
    await flush();
    expect(seen).toContain('press READ');
    expect(log.messages('error').join()).toMatch(/press listener for READ threw/);
    await keyboard.stop();
  });

  it('stdin that ends gives no more buttons: the status says so instead of "ok" (a last line without newline still counts)', async () => {
    const pipe = new PassThrough();
    const log = memoryLogger();
    const keyboard = new KeyboardButtons({ input: pipe, log });
    const seen = recordButtons(keyboard);
    await keyboard.start();
    expect(keyboard.status()).toMatchObject({ ok: true });
    pipe.end('n\nb');
    await flush();
    expect(seen).toEqual(['press NEXT', 'release NEXT', 'press BACK', 'release BACK']);
    expect(keyboard.status()).toEqual({ kind: 'keyboard', ok: false, message: 'stdin closed: no keyboard buttons' });
    expect(log.messages('warn').join()).toMatch(/buttons keyboard: stdin closed/);
    await keyboard.stop();
  });

  it('stdin on /dev/null (a systemd service: StandardInput=null) is not ok from the start', async () => {
    // What process.stdin is when fd 0 is /dev/null: an fs.ReadStream on an open descriptor.
    const devNull = createReadStream('', { fd: openSync('/dev/null', 'r') });
    const keyboard = new KeyboardButtons({ input: devNull });
    await keyboard.start();
    expect(keyboard.status()).toMatchObject({ ok: false, message: expect.stringMatching(/^stdin closed: no keyboard buttons/) });
    await flush();
    expect(keyboard.status()).toMatchObject({ ok: false });
    await keyboard.stop();
    devNull.destroy();
  });
});

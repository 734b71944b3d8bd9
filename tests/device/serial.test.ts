import { readFileSync } from 'node:fs';
import { SerialPortMock } from 'serialport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LINE, feedLines, initialLineState, parseLine, type SerialMessage } from '../../device/serial/line-parser.js';
import { serialCandidates, type PortFactory } from '../../device/serial/port.js';
import { SerialButtons, detectSerialBox } from '../../device/serial/serial-buttons.js';
import { memoryLogger } from '../../device/log.js';
import { createRng } from '../../shared/rng.js';
import { recordButtons } from './support/collect.js';
import { FakeClock } from './support/fake-clock.js';
import { until } from './support/fake-bin.js';

// The binding SerialPortMock really uses (importing @serialport/binding-mock directly can give a
// second copy: its ESM build, while serialport requires the CommonJS one).
const MockBinding = SerialPortMock.binding;

const SESSION = new Uint8Array(readFileSync(new URL('../fixtures/device/serial/box-session.bin', import.meta.url)));
const bytes = (text: string) => new TextEncoder().encode(text);

function feedAll(chunks: Uint8Array[]) {
  let state = initialLineState();
  const messages: SerialMessage[] = [];
  for (const chunk of chunks) {
    const step = feedLines(state, chunk);
    state = step.state;
    messages.push(...step.messages);
  }
  return { state, messages };
}

const SESSION_MESSAGES: SerialMessage[] = [
  { kind: 'ignored', line: '\\x00\\xf0\\xfe', reason: 'not ASCII text' },
  { kind: 'hello', name: 'clew-box', version: '1.2' },
  { kind: 'press', button: 'NEXT' },
  { kind: 'release', button: 'NEXT' },
  { kind: 'press', button: 'READ' },
  { kind: 'ignored', line: 'debug: t=1234 ms', reason: 'not a PRESS, RELEASE or HELLO line' },
  { kind: 'release', button: 'READ' },
  { kind: 'ignored', line: 'X'.repeat(24) + '…', reason: `line longer than ${MAX_LINE} bytes` },
  { kind: 'press', button: 'OK' },
  { kind: 'release', button: 'OK' },
  { kind: 'ignored', line: 'PRESS JUMP', reason: 'unknown button "JUMP" (NEXT, BACK, READ or OK)' },
];

describe('serial line parser', () => {
  it('a whole box session in one chunk: CRLF, LF and CR lines, noise, overlong and unknown lines', () => {
    const { state, messages } = feedAll([SESSION]);
    expect(messages).toEqual(SESSION_MESSAGES);
    expect(new TextDecoder().decode(state.pending)).toBe('PRESS BACK');
  });

  it('the same session split at every byte gives the same messages', () => {
    for (let cut = 1; cut < SESSION.length; cut++) {
      expect(feedAll([SESSION.subarray(0, cut), SESSION.subarray(cut)]).messages, `cut at ${cut}`).toEqual(SESSION_MESSAGES);
    }
  });

  it('seeded random chunking gives the same messages', () => {
    const rng = createRng('serial-chunks');
    for (let round = 0; round < 50; round++) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < SESSION.length; ) {
        const n = rng.int(1, 12);
        chunks.push(SESSION.subarray(at, at + n));
        at += n;
      }
      expect(feedAll(chunks).messages).toEqual(SESSION_MESSAGES);
    }
  });

  it('an overlong line is reported once, and the line after it is read normally', () => {
    const { messages } = feedAll([bytes('A'.repeat(300)), bytes('B'.repeat(300)), bytes('\nPRESS OK\n')]);
    expect(messages.map((m) => m.kind)).toEqual(['ignored', 'press']);
  });

  it('the state is a value: feeding does not change the state passed in', () => {
    const start = feedLines(initialLineState(), bytes('PRESS NE')).state;
    feedLines(start, bytes('XT\n'));
    expect(new TextDecoder().decode(start.pending)).toBe('PRESS NE');
  });

  it('lines: extra words, missing words, HELLO without a version', () => {
    expect(parseLine([...bytes('PRESS NEXT NOW')])).toMatchObject({ kind: 'ignored', reason: 'PRESS takes one button name' });
    expect(parseLine([...bytes('RELEASE')])).toMatchObject({ kind: 'ignored' });
    expect(parseLine([...bytes('HELLO pico')])).toEqual({ kind: 'hello', name: 'pico', version: '' });
    expect(parseLine([...bytes('  PRESS\tBACK ')])).toEqual({ kind: 'press', button: 'BACK' });
  });

  it('serial candidates: stable by-id names first, else ttyACM/ttyUSB in order, never the Pi UARTs', () => {
    expect(serialCandidates(['usb-Raspberry_Pi_Pico_E66-if00'], ['ttyACM0'])).toEqual(['/dev/serial/by-id/usb-Raspberry_Pi_Pico_E66-if00']);
    expect(serialCandidates([], ['ttyAMA0', 'ttyS0', 'ttyUSB0', 'ttyACM10', 'ttyACM2', 'tty1'])).toEqual(['/dev/ttyACM2', '/dev/ttyACM10', '/dev/ttyUSB0']);
  });
});

describe('serial button box adapter (serialport with the mock binding)', () => {
  let opened: SerialPortMock[] = [];
  const factory: PortFactory = ({ path, baudRate }) => {
    const port = new SerialPortMock({ path, baudRate, autoOpen: false });
    opened.push(port);
    return port;
  };
  const live = () => opened.at(-1)!;
  const boxes: SerialButtons[] = [];

  beforeEach(() => {
    MockBinding.reset();
    opened = [];
  });
  afterEach(async () => {
    await Promise.all(boxes.splice(0).map((b) => b.stop()));
  });

  function box(clock = new FakeClock()) {
    const log = memoryLogger();
    const buttons = new SerialButtons({ path: '/dev/ttyACM0', baudRate: 115200, holdMs: 800, openPort: factory, log, clock, reconnect: { minMs: 20, maxMs: 100 } });
    boxes.push(buttons);
    return { buttons, log, clock, seen: recordButtons(buttons) };
  }

  it('opens at 115200, asks HELLO?, and turns lines into press and release', async () => {
    MockBinding.createPort('/dev/ttyACM0', { record: true });
    const { buttons, seen } = box();
    await buttons.start();
    expect(live().baudRate).toBe(115200);
    live().port!.emitData(Buffer.from('HELLO clew-box 1.2\r\nPRESS NEXT\r\nRELEASE NEXT\r\n'));
    await until(() => seen.length === 2, 'two events');
    expect(seen).toEqual(['press NEXT', 'release NEXT']);
    expect(buttons.status()).toMatchObject({ ok: true, message: 'serial box clew-box 1.2 on /dev/ttyACM0' });
    await until(() => live().port!.recording.length > 0, 'the HELLO? query');
    expect(live().port!.recording.toString()).toBe('HELLO?\n');
  });

  it('PRESS held without RELEASE for holdMs sends hold; a repeated PRESS is not a second press', async () => {
    MockBinding.createPort('/dev/ttyACM0');
    const { buttons, seen, clock } = box();
    await buttons.start();
    live().port!.emitData(Buffer.from('PRESS OK\nPRESS OK\n'));
    await until(() => seen.length === 1, 'the press');
    clock.advance(900);
    live().port!.emitData(Buffer.from('RELEASE OK\n'));
    await until(() => seen.length === 3, 'hold and release');
    expect(seen).toEqual(['press OK', 'hold OK', 'release OK']);
  });

  it('a box that restarts (its HELLO) while a button is down: that button is released, and the next press is a press', async () => {
    MockBinding.createPort('/dev/ttyACM0');
    const { buttons, seen } = box();
    await buttons.start();
    live().port!.emitData(Buffer.from('PRESS NEXT\nHELLO clew-box 1.2\nPRESS NEXT\nRELEASE NEXT\n'));
    await until(() => seen.length === 4, 'four events');
    expect(seen).toEqual(['press NEXT', 'release NEXT', 'press NEXT', 'release NEXT']);
  });

  it('stopped while the port is still opening: no retry, and the status says stopped', async () => {
    // No such device: the open fails after stop() was called.
    const clock = new FakeClock();
    const { buttons, log } = box(clock);
    const starting = buttons.start();
    await buttons.stop();
    await starting;
    expect(buttons.status()).toMatchObject({ ok: false, message: 'stopped' });
    clock.advance(1000);
    expect(opened).toHaveLength(1);
    expect(log.messages('warn')).toEqual([]);
  });

  it('garbage lines are warned about and ignored', async () => {
    MockBinding.createPort('/dev/ttyACM0');
    const { buttons, seen, log } = box();
    await buttons.start();
    live().port!.emitData(Buffer.from('booting, I am a GPS\nPRESS READ\n'));
    await until(() => seen.length === 1, 'the press');
    expect(log.messages('warn').join('\n')).toMatch(/ignored line "booting, I am a GPS" \(not a PRESS, RELEASE or HELLO line\)/);
  });

  it('an unplugged box releases its pressed buttons, is reported, and is reopened when it is back', async () => {
    MockBinding.createPort('/dev/ttyACM0');
    const clock = new FakeClock();
    const { buttons, seen } = box(clock);
    await buttons.start();
    live().port!.emitData(Buffer.from('PRESS BACK\n'));
    await until(() => seen.length === 1, 'the press');
    MockBinding.reset(); // the device node is gone
    live().close();
    await until(() => /disconnected; retrying in 20 ms/.test(buttons.status().message), 'the disconnect');
    expect(seen).toEqual(['press BACK', 'release BACK']);
    clock.advance(20);
    await until(() => /cannot open \/dev\/ttyACM0.*retrying in 40 ms/.test(buttons.status().message), 'a failed reopen');
    MockBinding.createPort('/dev/ttyACM0'); // plugged back in
    clock.advance(40);
    await until(() => buttons.status().ok, 'the reconnect');
    live().port!.emitData(Buffer.from('PRESS NEXT\n'));
    await until(() => seen.length === 3, 'a press after reconnecting');
  });

  it('auto-detect: the port whose first line is HELLO wins; silent and chatty ports are closed again', async () => {
    MockBinding.createPort('/dev/ttyUSB0', { readyData: Buffer.from('$GPGGA,123519,4807.038,N\r\n') });
    MockBinding.createPort('/dev/ttyACM0');
    MockBinding.createPort('/dev/ttyACM1', { readyData: Buffer.from('\r\nHELLO pico-box 0.3\r\n') });
    const log = memoryLogger();
    const found = await detectSerialBox(['/dev/ttyUSB0', '/dev/ttyACM0', '/dev/ttyACM1', '/dev/ttyACM9'], { baudRate: 115200, detectMs: 300, openPort: factory, log });
    expect(found).toEqual({ path: '/dev/ttyACM1', name: 'pico-box', version: '0.3' });
    expect(opened.every((p) => !p.isOpen)).toBe(true);
    expect(log.messages().join('\n')).toMatch(/ttyACM9 cannot be opened/);
  });
});

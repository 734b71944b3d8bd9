import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REPLAY_FOLDER, deviceConfigSchema, parseDeviceConfig } from '../../device/config.js';

describe('device config', () => {
  it('an empty section gives the design defaults', () => {
    const c = parseDeviceConfig({});
    expect(c.camera.kind).toBe('auto');
    expect(c.gpio.pins).toEqual({ NEXT: 17, BACK: 27, READ: 22, OK: 23 });
    expect(c.gpio.led).toBe(24);
    expect(c.gpio.base).toBe('auto');
    expect(c.serial).toEqual({ path: 'auto', baudRate: 115200, detectMs: 1000 });
    expect(c.keyboard).toBe('auto');
    expect(c.camera.replay.folder).toBe(DEFAULT_REPLAY_FOLDER);
  });

  it('a missing section is the same as an empty one', () => {
    expect(parseDeviceConfig(undefined)).toEqual(parseDeviceConfig({}));
  });

  it('keyboard and gpio.enabled accept true/false as on/off', () => {
    const c = parseDeviceConfig({ keyboard: false, gpio: { enabled: true, base: 512 } });
    expect(c.keyboard).toBe('off');
    expect(c.gpio.enabled).toBe('on');
    expect(c.gpio.base).toBe(512);
  });

  it('parsing a parsed config changes nothing', () => {
    const once = parseDeviceConfig({ camera: { kind: 'replay', fps: 5 }, keyboard: true });
    expect(parseDeviceConfig(once)).toEqual(once);
  });

  it('names every bad key in one error', () => {
    const bad = { camera: { kind: 'webcam' }, gpio: { pins: { NEXT: 40 } }, serial: { baudRate: 7 }, colour: 'red' };
    let message = '';
    try {
      parseDeviceConfig(bad);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/device\.camera\.kind/);
    expect(message).toMatch(/device\.gpio\.pins\.NEXT/);
    expect(message).toMatch(/device\.serial\.baudRate/);
    expect(message).toMatch(/colour/);
  });

  it('two buttons on one pin, or the LED on a button pin, are rejected', () => {
    expect(deviceConfigSchema.safeParse({ gpio: { pins: { NEXT: 27 } } }).success).toBe(false);
    expect(deviceConfigSchema.safeParse({ gpio: { led: 17 } }).success).toBe(false);
    expect(deviceConfigSchema.safeParse({ gpio: { led: null } }).success).toBe(true);
  });

  it('the shipped example config is valid', () => {
    const example = JSON.parse(readFileSync(new URL('../../device/config.example.json', import.meta.url), 'utf8')) as { device: unknown };
    expect(() => parseDeviceConfig(example.device)).not.toThrow();
  });
});

/**
 * Finding the sysfs GPIO number of BCM pin 0 (the "base"). Kernels 6.6+ on Raspberry Pi OS
 * Bookworm number sysfs GPIOs from a dynamic base: 512 on a Pi 4 (chip `pinctrl-bcm2711`), 571 on
 * a Pi 5 (chip `pinctrl-rp1`, the RP1 that drives the header); older kernels use 0. Writing an
 * un-offset number to /sys/class/gpio/export fails with EINVAL. The base is read from
 * `<root>/gpiochip*\/{label,base,ngpio}`; `root` is a parameter so tests use a temp folder.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

export const SYSFS_GPIO_ROOT = '/sys/class/gpio';

export interface GpioChip {
  name: string;
  label: string;
  base: number;
  ngpio: number;
}

/** Chips that drive the 40-pin header, best first (a Pi 5 also has SoC chips we must not pick). */
const HEADER_LABELS = ['pinctrl-rp1', 'pinctrl-bcm2711', 'pinctrl-bcm2835'];

export async function readGpioChips(root = SYSFS_GPIO_ROOT): Promise<GpioChip[]> {
  let names: string[];
  try {
    names = (await readdir(root)).filter((n) => /^gpiochip\d+$/.test(n));
  } catch {
    return [];
  }
  const chips: GpioChip[] = [];
  for (const name of names) {
    const read = (file: string) => readFile(path.join(root, name, file), 'utf8').then((t) => t.trim(), () => '');
    const [label, base, ngpio] = await Promise.all([read('label'), read('base'), read('ngpio')]);
    if (/^\d+$/.test(base)) chips.push({ name, label, base: Number(base), ngpio: /^\d+$/.test(ngpio) ? Number(ngpio) : 0 });
  }
  return chips.sort((a, b) => a.base - b.base);
}

export type BaseChoice = { ok: true; base: number; chip: GpioChip; note?: string } | { ok: false; reason: string };

/** Picks the header's chip from the list (pure). */
export function chooseHeaderChip(chips: readonly GpioChip[]): BaseChoice {
  for (const label of HEADER_LABELS) {
    const chip = chips.find((c) => c.label === label);
    if (chip) return { ok: true, base: chip.base, chip };
  }
  const big = chips.filter((c) => c.ngpio >= 28);
  if (big.length === 1) {
    const chip = big[0]!;
    return { ok: true, base: chip.base, chip, note: `no Raspberry Pi pin controller found; using ${chip.name} (${chip.label || 'no label'}), the only chip with 28+ lines` };
  }
  if (chips.length === 0) return { ok: false, reason: 'no gpiochip in the sysfs GPIO folder (is this a Raspberry Pi with sysfs GPIO enabled?)' };
  const seen = chips.map((c) => `${c.name} "${c.label}" base ${c.base} ngpio ${c.ngpio}`).join('; ');
  return { ok: false, reason: `cannot tell which gpiochip drives the header (${seen}); set device.gpio.base in the config` };
}

export async function findGpioBase(root = SYSFS_GPIO_ROOT): Promise<BaseChoice> {
  return chooseHeaderChip(await readGpioChips(root));
}

/** Die colours for the screen: the palette of shared/dice.ts, with ink that reads on each body. */
import { DIE_COLORS } from '../../../../shared/dice.js';

export const COLOR_NAMES: readonly string[] = Object.keys(DIE_COLORS);

function rgbOf(color: string): readonly [number, number, number] | null {
  const named = DIE_COLORS[color];
  if (named) return named;
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : null;
}

/** CSS colour of a named die colour (or the text itself when it is not a name). */
export function css(color: string): string {
  const rgb = DIE_COLORS[color];
  return rgb ? `rgb(${rgb[0]},${rgb[1]},${rgb[2]})` : color;
}

/** Relative luminance 0..1 (sRGB), for picking ink that reads on a die body. */
export function luminance(color: string): number {
  const rgb = rgbOf(color);
  if (!rgb) return 1;
  const lin = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
}

/** Near-black ink on light bodies, white on dark ones. */
export function inkOn(color: string): string {
  return luminance(color) > 0.3 ? '#1d1d1f' : '#ffffff';
}

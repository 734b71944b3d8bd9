/**
 * A die face drawn with the vision module's face art (the same drawing the classifier learns
 * from and the sticker sheets print), on a body of the die's colour.
 */
import type { DiceSetId } from '../../../../shared/dice.js';
import { BODY_PATH, faceIcon, type FaceIcon } from '../../../../vision/faces/index.js';
import { css, inkOn } from '../logic/colors.js';

const cache = new Map<string, FaceIcon>();

function icon(set: DiceSetId, face: string, body: string): FaceIcon | null {
  const key = `${set}|${face}|${body}`;
  let hit = cache.get(key);
  if (!hit) {
    try {
      hit = faceIcon(set, face, { body: css(body), ink: inkOn(body) });
    } catch {
      return null;
    }
    cache.set(key, hit);
  }
  return hit;
}

export interface DieFaceProps {
  set: DiceSetId;
  face: string;
  /** Named die colour (DIE_COLORS) or CSS colour; white by default. */
  color?: string | undefined;
  size?: number;
  title?: string;
  /**
   * The face is a picture beside words that already name it (a chip's caption, a button's
   * aria-label): hidden from assistive tech, without a title, so the name is not said twice
   * ("brain brain").
   */
  decorative?: boolean;
}

export function DieFace({ set, face, color, size = 56, title, decorative = false }: DieFaceProps) {
  const body = color ?? 'white';
  const art = icon(set, face, body);
  const label = title ?? `${face}`;
  const named = decorative ? { 'aria-hidden': true } : { role: 'img' as const, 'aria-label': label };
  if (!art) {
    return (
      <span class="die-fallback" style={{ width: size, height: size }} {...named}>
        {face}
      </span>
    );
  }
  return (
    <svg class="die" viewBox="-3 -3 106 106" width={size} height={size} {...named}>
      {!decorative && <title>{label}</title>}
      {art.paths.map((p, i) => (
        <path key={i} d={p.d} fill={p.fill} />
      ))}
      <path d={BODY_PATH} fill="none" stroke="#0006" stroke-width="3" />
    </svg>
  );
}

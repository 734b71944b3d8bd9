/** Keyboard activation for controls drawn in SVG (board cells, card spots), which are not buttons. */

/** Enter or Space on a focused control (its default scrolling stopped). */
export function pressed(e: KeyboardEvent): boolean {
  if (e.key !== 'Enter' && e.key !== ' ') return false;
  e.preventDefault();
  return true;
}

/** Plain words for the pending decisions, for prompts and error messages. */
import { cellName } from './board.js';
import type { Place } from './position.js';
import type { Pending } from './state.js';

export function describePending(pos: Place, f: Pending): string {
  switch (f.k) {
    case 'organ':
      return f.must ? `add ${f.types.join(' or ')} to the new worm ${f.worm}` : `add any organ to worm ${f.worm} (its mouth is at a food)`;
    case 'act':
      return `have organs act, in any order: ${names(pos, f.cells)}`;
    case 'food':
      return `add a food that the eye at ${cellName(pos.geo, f.eye)} can see (${f.left} left)`;
    case 'grow':
      return `grow worm ${f.worm} by up to ${f.max - f.grown} more cell${f.max - f.grown === 1 ? '' : 's'}`;
    case 'line':
      return `choose the conga line: ${f.lines.map((l) => l.join('→')).join(' or ')}`;
    case 'conga':
      return `have one organ (not a tail) act on ${f.left} more of worms ${f.worms.filter((w) => !f.used.includes(w)).join(', ')}`;
    case 'partner':
      return `choose worm ${f.worm}'s partner: worm ${f.partners.join(' or ')}`;
    case 'collar':
      return `use ${f.left} collar action${f.left === 1 ? '' : 's'} of worms ${f.worm} and ${f.partner}: place a baby, or give your babies an organ each`;
    case 'babyOrgans':
      return `give baby worm${f.babies.length === 1 ? '' : 's'} ${f.babies.join(', ')} an organ each (not a collar)`;
  }
}

function names(pos: Place, cells: readonly number[]): string {
  let out = '';
  for (const c of cells) out += (out ? ', ' : '') + cellName(pos.geo, c);
  return out;
}

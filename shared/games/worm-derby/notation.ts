/**
 * A one-line Worm Derby position, for tests and failing-test output:
 *
 *   advanced move=4 @bob t3 r5 obst:20/20 | alice 6 P | bob 4+2 !alice@B | carol 6 #1
 *
 * rules (`basic`/`advanced`, then `slalom` if set), phase (`obstacles`, `roll`, `ace=<face>`,
 * `move=<face>`, `over`, plus `stopped`), the active player, turn and roll counts, obstacle tiles
 * placed/dealt, `from:<end>` once this turn's steps were taken from an end; then one field per worm in seat order: id, length, `+eaten`, `P` rounded the pylon,
 * `#place` finished, `~n` tiles still to place, `!biter@end` for each bite binding its next turn.
 * Parsing uses the default die table and names players by their ids.
 */
import { DEFAULT_DIE_TABLE, PIECEPACK_FACES, type DieTable, type PiecepackFace } from './die-table.js';
import { OBSTACLE_TILES, SUIT_COLORS } from './options.js';
import { COINS_PER_WORM, MIN_WORM_LENGTH, type DerbyPhase, type DerbyState, type Worm, type WormEnd } from './state.js';

export function toNotation(state: DerbyState): string {
  const head: string[] = [state.rules];
  if (state.slalom) head.push('slalom');
  const face = state.pending?.face;
  head.push(face && (state.phase === 'move' || state.phase === 'ace') ? `${state.phase}=${face}` : state.phase);
  if (state.stoppedEarly) head.push('stopped');
  if (state.phase !== 'over') head.push(`@${state.worms[state.active]?.player ?? '?'}`);
  head.push(`t${state.turn}`, `r${state.rolls}`, `obst:${state.obstacles.placed}/${state.obstacles.dealt}`);
  if (state.turnEnd) head.push(`from:${state.turnEnd}`);
  const worms = state.worms.map((w) => {
    const parts = [w.player, w.eaten > 0 ? `${w.length}+${w.eaten}` : `${w.length}`];
    if (w.roundedPylon) parts.push('P');
    if (w.place !== null) parts.push(`#${w.place}`);
    if (w.tilesInHand > 0) parts.push(`~${w.tilesInHand}`);
    for (const b of w.bites) parts.push(`!${b.by}@${b.end}`);
    return parts.join(' ');
  });
  return [head.join(' '), ...worms].join(' | ');
}

export class NotationError extends Error {}

function bad(text: string, why: string): never {
  throw new NotationError(`bad Worm Derby notation "${text}": ${why}`);
}

const PHASES: readonly DerbyPhase[] = ['obstacles', 'roll', 'ace', 'move', 'over'];

/** Builds a state from the notation (throws NotationError naming the bad part). */
export function fromNotation(text: string, dieTable: DieTable = DEFAULT_DIE_TABLE): DerbyState {
  const [headText, ...wormTexts] = text.split('|').map((p) => p.trim());
  if (!headText || wormTexts.length < 2 || wormTexts.length > 4) bad(text, 'expected a header and 2–4 worms separated by "|"');
  const tokens = headText.split(/\s+/);
  const rules = tokens.shift();
  if (rules !== 'basic' && rules !== 'advanced') bad(text, `rules must be "basic" or "advanced", not "${rules}"`);
  let slalom = false;
  let phase: DerbyPhase | undefined;
  let face: PiecepackFace | undefined;
  let activeId: string | undefined;
  let turn = 1;
  let rolls = 0;
  let placed = 0;
  let dealt = 0;
  let stoppedEarly = false;
  let turnEnd: WormEnd | undefined;
  for (const t of tokens) {
    let m: RegExpMatchArray | null;
    if (t === 'slalom') slalom = true;
    else if (t === 'stopped') stoppedEarly = true;
    else if ((m = /^(obstacles|roll|ace|move|over)(?:=(\S+))?$/.exec(t))) {
      phase = m[1] as DerbyPhase;
      if (m[2] !== undefined) {
        if (!(PIECEPACK_FACES as readonly string[]).includes(m[2])) bad(text, `"${m[2]}" is not a piecepack face`);
        face = m[2] as PiecepackFace;
      }
    } else if ((m = /^@(\S+)$/.exec(t))) activeId = m[1];
    else if ((m = /^t(\d+)$/.exec(t))) turn = Number(m[1]);
    else if ((m = /^r(\d+)$/.exec(t))) rolls = Number(m[1]);
    else if ((m = /^obst:(\d+)\/(\d+)$/.exec(t))) [placed, dealt] = [Number(m[1]), Number(m[2])];
    else if ((m = /^from:([AB])$/.exec(t))) turnEnd = m[1] as WormEnd;
    else bad(text, `unknown header token "${t}"`);
  }
  if (!phase || !PHASES.includes(phase)) bad(text, 'the header names no phase');
  if ((phase === 'move' || phase === 'ace') && !face) bad(text, `phase ${phase} needs the face, e.g. "${phase}=4"`);
  if (face) {
    // Only a roll being carried out has a face, and it must be one the die table sends to that phase.
    const action = dieTable.faces[face].action;
    if (phase !== 'move' && phase !== 'ace') bad(text, `phase ${phase} carries no face ("${phase}=${face}")`);
    if (phase === 'move' && action !== 'steps') bad(text, `move=${face}: the die table gives ${face} no steps`);
    if (phase === 'ace' && action !== 'obstacle') bad(text, `ace=${face}: the die table does not make ${face} an obstacle face`);
  }
  if (dealt > OBSTACLE_TILES) bad(text, `only ${OBSTACLE_TILES} obstacle tiles exist`);
  if (placed > dealt) bad(text, `obst:${placed}/${dealt}: more obstacle tiles placed than dealt`);

  const worms: Worm[] = wormTexts.map((wt) => {
    const [player, lengthText, ...marks] = wt.split(/\s+/);
    const lm = /^(\d)(?:\+(\d))?$/.exec(lengthText ?? '');
    if (!player || !lm) bad(text, `worm "${wt}" needs an id and a length like "4+2"`);
    const length = Number(lm[1]);
    const eaten = lm[2] === undefined ? COINS_PER_WORM - length : Number(lm[2]);
    if (length < MIN_WORM_LENGTH || length > COINS_PER_WORM) bad(text, `worm "${wt}": a worm is ${MIN_WORM_LENGTH}–${COINS_PER_WORM} coins long`);
    if (length + eaten !== COINS_PER_WORM) bad(text, `worm "${wt}": length and eaten coins must make ${COINS_PER_WORM}`);
    if (rules === 'basic' && length !== COINS_PER_WORM) bad(text, `worm "${wt}": in the basic rules every worm is ${COINS_PER_WORM} coins`);
    const w: Worm = { player, length, eaten, roundedPylon: false, place: null, bites: [], tilesInHand: 0 };
    for (const mk of marks) {
      let m: RegExpMatchArray | null;
      if (mk === 'P') w.roundedPylon = true;
      else if ((m = /^#(\d)$/.exec(mk))) w.place = Number(m[1]);
      else if ((m = /^~(\d+)$/.exec(mk))) w.tilesInHand = Number(m[1]);
      else if ((m = /^!(\S+)@([AB])$/.exec(mk))) w.bites.push({ by: m[1]!, end: m[2] as WormEnd });
      else bad(text, `worm "${wt}": unknown mark "${mk}"`);
    }
    return w;
  });
  const ids = worms.map((w) => w.player);
  if (new Set(ids).size !== ids.length) bad(text, 'two worms share an id');
  const active = phase === 'over' ? 0 : ids.indexOf(activeId ?? '');
  if (active < 0) bad(text, `the active player "${activeId ?? ''}" is not one of the worms`);
  if (phase !== 'over' && worms[active]!.place !== null) bad(text, `the active player "${activeId}" has finished (#${worms[active]!.place}): only racing worms take turns`);
  const finishingOrder = worms
    .filter((w) => w.place !== null)
    .sort((a, b) => a.place! - b.place!)
    .map((w) => w.player);
  // Places are given in finishing order: 1, 2, … each once, and only past the pylon.
  finishingOrder.forEach((id, i) => {
    const w = worms.find((x) => x.player === id)!;
    if (w.place !== i + 1) bad(text, `worm "${id}" is #${w.place}, but ${finishingOrder.length} finished worm${finishingOrder.length === 1 ? ' takes place 1' : 's take places 1–' + finishingOrder.length}, each once`);
    if (!w.roundedPylon) bad(text, `worm "${id}" is #${w.place} without rounding the pylon (P)`);
  });
  for (const w of worms) {
    for (const b of w.bites) {
      // Bites are the cannibal worms' (advanced rules), and a worm is eaten by another in the race.
      if (rules === 'basic') bad(text, `worm "${w.player}": no worm bites in the basic rules (!${b.by}@${b.end})`);
      if (b.by === w.player || !ids.includes(b.by)) bad(text, `worm "${w.player}": the biter "${b.by}" must be another worm in the race`);
    }
  }

  let pending: DerbyState['pending'] = null;
  if (face && (phase === 'move' || phase === 'ace')) {
    const action = dieTable.faces[face];
    const rolled = action.action === 'steps' ? action.steps : 0;
    const steps = Math.min(rolled, worms[active]!.length);
    pending = { face, rolled, steps, lost: rolled - steps, rollAgain: action.rollAgain };
  }
  return {
    game: 'worm-derby',
    rules,
    slalom,
    players: worms.map((w, i) => ({ id: w.player, name: w.player, color: SUIT_COLORS[i]! })),
    dieTable,
    obstacles: { dealt, aside: OBSTACLE_TILES - dealt, placed },
    worms,
    phase,
    active,
    pending,
    lastRoll: null,
    turn,
    rolls,
    finishingOrder,
    stoppedEarly,
    ...(turnEnd ? { turnEnd } : {}),
  };
}

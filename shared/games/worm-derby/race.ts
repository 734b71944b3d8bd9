/**
 * Worm Derby rules: setup, and each reported event applied to the state. Pure and total: a move
 * the rules forbid gives a Failure with a `move/...` code and the state is left as it was.
 */
import { Errors, fail, ok, type ErrorCode, type Failure, type Result } from '../../game.js';
import { DEFAULT_DIE_TABLE, describeFace, parseDieTable, type PiecepackFace } from './die-table.js';
import { forcedEnds, protectedBiters } from './instructions.js';
import type { DerbyMove } from './moves.js';
import { derbyOptionsSchema, OBSTACLE_TILES, seatPlayers, type DerbyOptions } from './options.js';
import { COINS_PER_WORM, isRacing, MIN_WORM_LENGTH, nameOf, wormOf, type DerbyState, type Worm } from './state.js';

export const DerbyErrors = {
  tooManySteps: 'move/too-many-steps',
  tooFewSteps: 'move/too-few-steps',
  mustMoveAway: 'move/must-move-away',
  noCannibals: 'move/basic-rules-no-eating',
  noSuchWorm: 'move/no-such-worm',
  eatSelf: 'move/eat-own-worm',
  victimOffCourse: 'move/victim-finished',
  tooShortToEat: 'move/length-two-cannot-be-attacked',
  mayNotAttackBiter: 'move/may-not-attack-attacker-yet',
  sameDirection: 'move/whole-move-one-direction',
  alreadyRounded: 'move/already-rounded-pylon',
  notRounded: 'move/finish-before-pylon',
  noObstacles: 'move/no-movable-obstacle',
  noEatenCoin: 'move/no-eaten-coin',
} as const satisfies Record<string, ErrorCode>;

export function initialState(options: DerbyOptions): Result<DerbyState> {
  const parsed = derbyOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(Errors.setupInvalid, `bad Worm Derby options: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`);
  }
  const o = parsed.data;
  let dieTable = DEFAULT_DIE_TABLE;
  if (o.dieTable) {
    const table = parseDieTable(o.dieTable, 'the die table in the options');
    if (!table.ok) return fail(Errors.setupInvalid, table.message);
    dieTable = table.table;
  }
  const players = seatPlayers(o);
  const slalom = o.slalom ?? false;
  // Deal the remaining tiles evenly; the extras are put aside. Slalom has no movable obstacles.
  const total = slalom ? 0 : (o.obstacleTiles ?? OBSTACLE_TILES);
  const each = Math.floor(total / players.length);
  const worms: Worm[] = players.map((p) => ({
    player: p.id,
    length: COINS_PER_WORM,
    eaten: 0,
    roundedPylon: false,
    place: null,
    bites: [],
    tilesInHand: each,
  }));
  return ok({
    game: 'worm-derby',
    rules: o.rules ?? 'basic',
    slalom,
    players,
    dieTable,
    obstacles: { dealt: each * players.length, aside: OBSTACLE_TILES - each * players.length, placed: 0 },
    worms,
    phase: each > 0 ? 'obstacles' : 'roll',
    active: 0,
    pending: null,
    lastRoll: null,
    turn: each > 0 ? 0 : 1,
    rolls: 0,
    finishingOrder: [],
    stoppedEarly: false,
  });
}

/** A copy deep enough that applying a move never touches the caller's state. */
function copy(state: DerbyState): DerbyState {
  return {
    ...state,
    obstacles: { ...state.obstacles },
    worms: state.worms.map((w) => ({ ...w, bites: w.bites.slice() })),
    finishingOrder: state.finishingOrder.slice(),
  };
}

function worm(state: DerbyState, index: number): Worm {
  const w = state.worms[index];
  if (!w) throw new RangeError(`no worm at seat ${index}`);
  return w;
}

/** The next seat clockwise (after `from`) matching `want`, or -1. */
function nextSeat(state: DerbyState, from: number, want: (w: Worm) => boolean): number {
  const n = state.worms.length;
  for (let k = 1; k <= n; k++) {
    const i = (from + k) % n;
    if (want(worm(state, i))) return i;
  }
  return -1;
}

/** The active turn ends: its bites are served, play passes clockwise to the next racing worm. */
function endTurn(s: DerbyState): DerbyState {
  const current = worm(s, s.active);
  current.bites = [];
  s.pending = null;
  delete s.turnEnd;
  const racing = s.worms.filter(isRacing).length;
  if (racing <= 1) {
    s.phase = 'over';
    return s;
  }
  s.active = nextSeat(s, s.active, isRacing);
  s.phase = 'roll';
  s.turn += 1;
  return s;
}

/** After an ace or a step move: roll again if the face says so, else the turn ends. */
function afterAction(s: DerbyState, rollAgain: boolean): DerbyState {
  if (rollAgain) {
    s.pending = null;
    s.phase = 'roll';
    return s;
  }
  return endTurn(s);
}

function checkActor(state: DerbyState, player: string, phase: DerbyState['phase'], what: string): Failure | null {
  if (state.phase === 'over') return fail(Errors.gameOver, 'the race is over');
  if (state.phase !== phase) return fail(Errors.wrongPhase, `${what} is not expected now (the table is in the ${state.phase} phase)`);
  const active = worm(state, state.active);
  if (player !== active.player) {
    return fail(Errors.notYourTurn, `${nameOf(state, player)} cannot act: it is ${nameOf(state, active.player)}'s turn`);
  }
  return null;
}

function placeObstacle(state: DerbyState, player: string): Result<DerbyState> {
  const bad = checkActor(state, player, 'obstacles', 'placing an obstacle');
  if (bad) return bad;
  const s = copy(state);
  worm(s, s.active).tilesInHand -= 1;
  s.obstacles.placed += 1;
  const next = nextSeat(s, s.active, (w) => w.tilesInHand > 0);
  if (next >= 0) {
    s.active = next;
    return ok(s);
  }
  // Every dealt tile is down: the race starts with the first player.
  s.phase = 'roll';
  s.active = 0;
  s.turn = 1;
  return ok(s);
}

function roll(state: DerbyState, face: PiecepackFace): Result<DerbyState> {
  if (state.phase === 'over') return fail(Errors.gameOver, 'the race is over');
  if (state.phase !== 'roll') return fail(Errors.wrongPhase, `no roll is expected now (the table is in the ${state.phase} phase)`);
  const s = copy(state);
  const w = worm(s, s.active);
  const action = s.dieTable.faces[face];
  s.rolls += 1;
  s.lastRoll = { player: w.player, face, meaning: describeFace(s.dieTable, face) };
  switch (action.action) {
    case 'none':
      return ok(afterAction(s, action.rollAgain));
    case 'steps': {
      // A worm never moves more steps than its length; the rest are lost.
      const steps = Math.min(action.steps, w.length);
      s.pending = { face, rolled: action.steps, steps, lost: action.steps - steps, rollAgain: action.rollAgain };
      s.phase = 'move';
      return ok(s);
    }
    case 'obstacle': {
      const canObstacle = s.obstacles.placed > 0;
      const canCoin = s.rules === 'advanced' && w.eaten > 0;
      if (!canObstacle && !canCoin) {
        // Nothing to move and nothing to put back: straight on to the next roll.
        return ok(afterAction(s, action.rollAgain));
      }
      s.pending = { face, rolled: 0, steps: 0, lost: 0, rollAgain: action.rollAgain };
      s.phase = 'ace';
      return ok(s);
    }
  }
}

function aceAction(state: DerbyState, move: Extract<DerbyMove, { type: 'move-obstacle' | 'return-coin' | 'pass-ace' }>): Result<DerbyState> {
  const bad = checkActor(state, move.player, 'ace', 'an ace action');
  if (bad) return bad;
  const s = copy(state);
  const w = worm(s, s.active);
  if (move.type === 'move-obstacle' && s.obstacles.placed === 0) {
    return fail(DerbyErrors.noObstacles, s.slalom ? 'the slalom course has no movable obstacles' : 'there is no obstacle tile on the course to move');
  }
  if (move.type === 'return-coin') {
    if (s.rules !== 'advanced') return fail(DerbyErrors.noCannibals, 'coins are only eaten and returned with the advanced (cannibal) rules');
    if (w.eaten === 0) return fail(DerbyErrors.noEatenCoin, `${nameOf(s, w.player)}'s worm has no eaten coin to put back`);
    w.eaten -= 1;
    w.length += 1;
  }
  return ok(afterAction(s, s.pending?.rollAgain ?? false));
}

function moveWorm(state: DerbyState, move: Extract<DerbyMove, { type: 'move' }>): Result<DerbyState> {
  const bad = checkActor(state, move.player, 'move', 'a worm move');
  if (bad) return bad;
  const pending = state.pending;
  if (!pending) return fail(Errors.wrongPhase, 'there is no roll to move by');
  const mover = worm(state, state.active);
  const who = nameOf(state, mover.player);
  if (move.steps > pending.steps) {
    const why = pending.lost > 0 ? ` (a worm never moves more steps than its length, ${mover.length})` : '';
    return fail(DerbyErrors.tooManySteps, `${who} may move at most ${pending.steps} steps${why}`);
  }
  // A worm that crosses the line mid-roll has won: the steps after it are not taken.
  if (move.steps < pending.steps && !move.blocked && !move.ate && !move.finished) {
    return fail(DerbyErrors.tooFewSteps, `${who} rolled ${pending.steps} steps: report all of them, or mark the worm as blocked`);
  }
  if (move.blocked && move.steps === pending.steps) {
    return fail(Errors.malformed, `a blocked worm moves fewer than its ${pending.steps} steps`);
  }
  const ends = forcedEnds(mover);
  if (ends && move.steps > 0 && (!move.from || !ends.includes(move.from))) {
    const biters = protectedBiters(mover).map((p) => nameOf(state, p)).join(' and ');
    return fail(DerbyErrors.mustMoveAway, `${who} was bitten by ${biters} and must move away: take the steps from end ${ends.join(' or ')}`);
  }
  if (state.turnEnd && move.steps > 0 && move.from !== state.turnEnd) {
    return fail(DerbyErrors.sameDirection, `${who}'s worm moved from end ${state.turnEnd} earlier this turn: a worm makes its whole move in one direction, so take these steps from end ${state.turnEnd} too`);
  }
  if (move.ate) {
    const failure = checkBite(state, mover, move.ate.player, move.steps);
    if (failure) return failure;
  }
  if (move.roundedPylon && mover.roundedPylon) return fail(DerbyErrors.alreadyRounded, `${who}'s worm has already rounded the pylon`);
  // Rounding the pylon and crossing the line are things a worm does by moving.
  if ((move.roundedPylon || move.finished) && move.steps === 0) {
    return fail(Errors.malformed, `${who}'s worm took no step: it cannot have ${move.finished ? 'crossed the start line' : 'rounded the pylon'} (undo a move whose report missed it, and report it again)`);
  }
  if (move.finished && !mover.roundedPylon && !move.roundedPylon) {
    return fail(DerbyErrors.notRounded, `${who}'s worm must travel around the far side of the pylon before it can finish`);
  }

  const s = copy(state);
  const w = worm(s, s.active);
  if (move.ate) {
    const victim = wormOf(s, move.ate.player)!;
    // The eaten coin goes back to its owner, who may return it on an ace.
    victim.length -= 1;
    victim.eaten += 1;
    victim.bites.push({ by: w.player, end: move.ate.end });
  }
  if (move.from && move.steps > 0) s.turnEnd = move.from;
  if (move.roundedPylon) w.roundedPylon = true;
  if (move.finished) {
    s.finishingOrder.push(w.player);
    w.place = s.finishingOrder.length;
  }
  // Eating ends the movement for the turn; a finished worm's race is over.
  return ok(afterAction(s, pending.rollAgain && !move.ate && !move.finished));
}

function checkBite(state: DerbyState, mover: Worm, target: string, steps: number): Failure | null {
  const who = nameOf(state, mover.player);
  if (state.rules !== 'advanced') return fail(DerbyErrors.noCannibals, 'worms only eat each other with the advanced (cannibal) rules');
  if (steps < 1) return fail(Errors.malformed, 'a worm eats on a step: report at least one step');
  if (target === mover.player) return fail(DerbyErrors.eatSelf, `${who}'s worm cannot eat its own coin`);
  const victim = wormOf(state, target);
  if (!victim) return fail(DerbyErrors.noSuchWorm, `there is no worm "${target}" in this race`);
  const whom = nameOf(state, target);
  if (!isRacing(victim)) return fail(DerbyErrors.victimOffCourse, `${whom}'s worm has finished and left the course`);
  if (victim.length <= MIN_WORM_LENGTH) return fail(DerbyErrors.tooShortToEat, `${whom}'s worm is ${victim.length} coins long: length-two worms may not be attacked`);
  if (protectedBiters(mover).includes(target)) {
    return fail(DerbyErrors.mayNotAttackBiter, `${who} was bitten by ${whom} and may not attack ${whom} until the turn after this one`);
  }
  return null;
}

function stopRace(state: DerbyState): Result<DerbyState> {
  if (state.phase === 'over') return fail(Errors.gameOver, 'the race is over');
  const s = copy(state);
  s.phase = 'over';
  s.pending = null;
  s.stoppedEarly = true;
  return ok(s);
}

export function applyMove(state: DerbyState, move: DerbyMove): Result<DerbyState> {
  switch (move.type) {
    case 'place-obstacle':
      return placeObstacle(state, move.player);
    case 'roll':
      return roll(state, move.face);
    case 'move-obstacle':
    case 'return-coin':
    case 'pass-ace':
      return aceAction(state, move);
    case 'move':
      return moveWorm(state, move);
    case 'stop-race':
      return stopRace(state);
  }
}

/**
 * A round's bids, as the rules text judges them: collisions, the ghost, the 7/X restriction, the
 * numbers X may name, and the movement order. Pure functions of the revealed dice.
 */
import type { PlayerId } from '../../game.js';
import { BIDS, NUMBERS, type Bid, type BidResult, type Ghost, type Mover, type VoidReason } from './types.js';

/** The faces a player may not bid right after a valid bid of one of them. */
export const RESTRICTED_BIDS: readonly Bid[] = ['7', 'X'];

/** Die order for the ghost: 3 < 4 < … < 7 < X. */
export function bidRank(bid: Bid): number {
  return BIDS.indexOf(bid);
}

/** The ghost bids the higher of its two dice; "if the dice show X and 7, X is higher". */
export function ghostOf(dice: [Bid, Bid]): Ghost {
  const [a, b] = dice;
  return { dice: [a, b], bid: bidRank(a) >= bidRank(b) ? a : b };
}

/**
 * Judges every bid: shared by two or more players → void (numbers and X alike); equal to the
 * ghost's → void; 7 or X by a restricted player → void (the dashboard warned). A void bid is still
 * a bid: it collides with an equal bid and X may not name its number.
 */
export function judgeBids(
  bids: readonly { player: PlayerId; bid: Bid }[],
  restricted: readonly PlayerId[],
  ghost: Ghost | null,
): BidResult[] {
  return bids.map(({ player, bid }) => {
    const reasons: VoidReason[] = [];
    if (bids.filter((b) => b.bid === bid).length > 1) reasons.push('collision');
    if (ghost && ghost.bid === bid) reasons.push('ghost');
    if (restricted.includes(player) && RESTRICTED_BIDS.includes(bid)) reasons.push('restricted');
    return { player, bid, void: reasons };
  });
}

export const isValid = (b: BidResult) => b.void.length === 0;

/** The valid X this round (at most one: two X bids collide). */
export function validX(bids: readonly BidResult[]): BidResult | null {
  return bids.find((b) => b.bid === 'X' && isValid(b)) ?? null;
}

/** Numbers 3–7 that nobody bid this round: void bids count as bid, and so does the ghost's number. */
export function freeNumbers(bids: readonly BidResult[], ghost: Ghost | null): number[] {
  const taken = new Set<string>([...bids.map((b) => b.bid), ...(ghost ? [ghost.bid] : [])]);
  return NUMBERS.filter((n) => !taken.has(String(n)));
}

/** Valid bids move lowest first; the X moves in the slot of the number it named. */
export function movementOrder(bids: readonly BidResult[], xNumber: number | null): Mover[] {
  return bids
    .filter(isValid)
    .map((b) => {
      if (b.bid === 'X' && xNumber === null) throw new RangeError('the order needs the number X named');
      return { player: b.player, bid: b.bid, steps: b.bid === 'X' ? xNumber! : Number(b.bid) };
    })
    .sort((a, b) => a.steps - b.steps);
}

/** After a round, whoever made a valid 7 or X may bid neither next round. */
export function restrictedAfter(bids: readonly BidResult[]): PlayerId[] {
  return bids.filter((b) => isValid(b) && RESTRICTED_BIDS.includes(b.bid)).map((b) => b.player);
}

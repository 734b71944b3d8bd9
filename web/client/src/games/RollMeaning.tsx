/** A pending roll in the game's own terms (what `diceMove` makes of it), with pictures. */
import type { GameId, PlayerInfo } from '../../../../shared/game.js';
import { describeFace, type DerbyState, type PiecepackFace } from '../../../../shared/games/worm-derby/index.js';
import type { RollMeaning } from '../logic/roll.js';
import { DieFace } from '../ui/DieFace.js';

type Move = { type: string } & Record<string, unknown>;

const nameOf = (players: PlayerInfo[], id: string) => players.find((p) => p.id === id)?.name ?? id;

export function RollMeaningView({ game, meaning, state, players }: { game: GameId; meaning: RollMeaning; state: unknown; players: PlayerInfo[] }) {
  if (!meaning.ok) {
    return (
      <p class="meaning bad" data-testid="roll-meaning">
        {meaning.message}
      </p>
    );
  }
  const move = meaning.move as Move;
  let body;
  if (game === 'worm-and-cozy' && move.type === 'roll') {
    const organs = move.organs as [string, string];
    body = (
      <span class="meaning-icons">
        <DieFace set="cozy-shape" face={String(move.shape)} size={40} />
        <b>{String(move.shape)}</b>
        <DieFace set="cozy-organ" face={organs[0]} size={40} />
        <b>{organs[0]}</b>
        <DieFace set="cozy-organ" face={organs[1]} size={40} />
        <b>{organs[1]}</b>
      </span>
    );
  } else if (game === 'worm-up' && move.type === 'reveal') {
    const bids = move.bids as Record<string, string>;
    body = <span>{Object.entries(bids).map(([p, b]) => `${nameOf(players, p)} ${b}`).join(' · ')}</span>;
  } else if (game === 'worm-up' && move.type === 'ghost') {
    body = <span>Ghost rolls {(move.dice as string[]).join(' and ')}</span>;
  } else if (game === 'worm-derby' && move.type === 'roll') {
    body = <span>{describeFace((state as DerbyState).dieTable, move.face as PiecepackFace)}</span>;
  } else if (game === 'the-worm-is-drawn' && move.type === 'roll') {
    body = <span>{(move.dice as string[]).length} dice ready to keep from</span>;
  } else {
    body = <span>{move.type}</span>;
  }
  return (
    <p class="meaning" data-testid="roll-meaning">
      {body}
    </p>
  );
}

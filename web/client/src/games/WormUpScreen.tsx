/**
 * Worm-up: the bids revealed in each player's colour (void bids struck through, with why), the
 * ghost's dice with two players, the X player's choice of number, the movement order with the
 * worm to move now, and the referee's "moved" and "declare the winner".
 */
import { useState } from 'preact/hooks';
import type { BidResult, Round, VoidReason, WormUpMove, WormUpState } from '../../../../shared/games/worm-up/index.js';
import { legalMoves, wormUp } from '../../../../shared/games/worm-up/index.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { css } from '../logic/colors.js';
import { useConnection } from '../ui/context.js';
import { DieFace } from '../ui/DieFace.js';
import { RollPanel } from '../ui/RollPanel.js';
import { RefereeBar } from './RefereeBar.js';

const WHY: Record<VoidReason, string> = { collision: 'same as another bid', ghost: 'same as the ghost', restricted: '7 or X again' };

function describe(move: WormUpMove, name: (id: string) => string): string {
  switch (move.type) {
    case 'x':
      return `X moves as ${move.number}`;
    case 'moved':
      return move.post ? `moved, and swung the ${move.post} finish post` : 'moved';
    case 'finish':
      return `${name(move.winner)} wins`;
    default:
      return move.type;
  }
}

function Bids({ round, seat, ghostToCome = false }: { round: Round; seat: (id: string) => { name: string; color: string } | undefined; ghostToCome?: boolean }) {
  return (
    <div class="bids">
      {round.bids.map((b: BidResult) => {
        const p = seat(b.player);
        return (
          <div key={b.player} class={`bid${b.void.length ? ' void' : ''}`} data-testid={`bid-${b.player}`} data-void={b.void.join(',')}>
            <DieFace set="wurmeln" face={b.bid} color={p?.color} size={52} />
            <span class="bid-name">{p?.name ?? b.player}</span>
            {b.void.length ? (
              <span class="small why">void: {b.void.map((v) => WHY[v]).join(', ')}</span>
            ) : ghostToCome ? (
              // The ghost's roll may still void it.
              <span class="small muted">waits for the ghost</span>
            ) : (
              <span class="small ok">moves</span>
            )}
          </div>
        );
      })}
      {round.ghost && (
        <div class="bid ghost" data-testid="ghost">
          <span class="dice-mini">
            <DieFace set="wurmeln" face={round.ghost.dice[0]} color="grey" size={30} />
            <DieFace set="wurmeln" face={round.ghost.dice[1]} color="grey" size={30} />
          </span>
          <span class="bid-name">Ghost: {round.ghost.bid}</span>
        </div>
      )}
    </div>
  );
}

export function WormUpScreen({ snapshot }: { snapshot: TableSnapshot }) {
  const conn = useConnection();
  const state = snapshot.state as WormUpState;
  const d = wormUp.legalOptions(state, { verbose: true }).detail!;
  const moves = legalMoves(state);
  const you = snapshot.you;
  const referee = you.role === 'referee';
  const seat = (id: string) => state.players.find((p) => p.id === id);
  const name = (id: string) => seat(id)?.name ?? id;
  const send = (move: WormUpMove) => void conn.send({ type: 'move', move }, describe(move, name));
  const [declaring, setDeclaring] = useState(false);
  const score = wormUp.score(state);
  const round = state.current;

  return (
    <div class="screen wormup" data-testid="wormup-screen">
      <p class="headline" data-testid="headline">
        {snapshot.status.headline}
      </p>
      <RollPanel snapshot={snapshot} />
      <RefereeBar snapshot={snapshot} next={state.phase === 'move' ? 'Moved' : null} />

      {state.phase === 'bid' && (
        <section class="card">
          <h2>Round {state.round}: bid in secret</h2>
          <ul class="seat-list">
            {d.bidding.map((b) => (
              <li key={b.player}>
                <span class="swatch" style={{ background: css(b.color) }} /> {name(b.player)}
                {b.warning && <span class="warn small"> no 7 or X this round</span>}
              </li>
            ))}
          </ul>
          {state.players.length === 2 && <p class="muted small">Two players: the ghost bids too, with two spare dice.</p>}
        </section>
      )}

      {!round && d.lastRound && (
        <section class="card" data-testid="last-round">
          <h2>Round {d.lastRound.number}</h2>
          <Bids round={d.lastRound} seat={seat} />
          {d.lastRound.order.length === 0 && <p class="muted small">No bid was valid: no worm moved.</p>}
        </section>
      )}
      {round && (
        <section class="card" data-testid="bids">
          <h2>Round {round.number}: the bids</h2>
          <Bids round={round} seat={seat} ghostToCome={state.phase === 'ghost'} />
          {state.phase === 'x' && d.xPlayer && (
            <div data-testid="x-choice">
              <p>
                <b>{name(d.xPlayer)}</b> bid X: choose the number it moves as (one nobody bid).
              </p>
              {(referee || you.player === d.xPlayer) && (
                <div class="row wrap">
                  {d.free.map((n) => (
                    <button key={n} class="btn big-num" onClick={() => send({ type: 'x', number: n })} data-testid={`x-${n}`}>
                      {n}
                    </button>
                  ))}
                </div>
              )}
            </div>
          )}
          {round.order.length > 0 && (
            <>
              <h3>Movement order</h3>
              <ol class="order" data-testid="order">
                {round.order.map((m, i) => (
                  <li key={m.player} class={i < round.moved ? 'done' : i === round.moved && state.phase === 'move' ? 'now' : ''}>
                    {seat(m.player)?.color && <span class="swatch" style={{ background: css(seat(m.player)!.color!) }} />} {name(m.player)} moves {m.steps}
                    {m.bid === 'X' ? ' (X)' : ''}
                    {i < round.moved ? ' ✓' : ''}
                  </li>
                ))}
              </ol>
            </>
          )}
          {referee && state.phase === 'move' && d.next?.bid === 'X' && (
            <div class="row wrap">
              <button class="btn" onClick={() => send({ type: 'moved', post: 'left' })}>
                Moved, swung the left post
              </button>
              <button class="btn" onClick={() => send({ type: 'moved', post: 'right' })}>
                Moved, swung the right post
              </button>
            </div>
          )}
        </section>
      )}

      <section class="card">
        <h2>{state.phase === 'over' ? 'The winner' : 'The race'}</h2>
        <ul class="seat-list" data-testid="race">
          {state.players.map((p) => (
            <li key={p.id} class={state.winner === p.id ? 'winner' : ''}>
              <span class="swatch" style={{ background: css(p.color) }} /> {p.name}: {score.advanced[p.id] ?? 0} segments moved
              {state.winner === p.id ? ' ★ winner' : ''}
            </li>
          ))}
        </ul>
        {referee && moves.some((m) => m.type === 'finish') && (
          declaring ? (
            <div class="stack" data-testid="declare">
              <p>Whose head reached the finish card?</p>
              {state.players.map((p) => (
                <button key={p.id} class="btn" onClick={() => { setDeclaring(false); send({ type: 'finish', winner: p.id }); }} data-testid={`winner-${p.id}`}>
                  {p.name} wins
                </button>
              ))}
              <button class="btn" onClick={() => setDeclaring(false)}>
                Not yet
              </button>
            </div>
          ) : (
            <button class="btn" onClick={() => setDeclaring(true)} data-testid="declare-winner">
              Declare the winner
            </button>
          )
        )}
      </section>
    </div>
  );
}


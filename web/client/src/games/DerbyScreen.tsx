/**
 * Worm Derby: the roll turned into one instruction in big type, each worm's length as coins (eaten
 * coins hollow), who has rounded the pylon, the finishing order, and the active player's report of
 * the move (steps, from which end, blocked, a bite, the pylon, the finish), checked by the rules
 * on the phone before it is sent.
 */
import { useState } from 'preact/hooks';
import type { DerbyMove, DerbyState, WormEnd } from '../../../../shared/games/worm-derby/index.js';
import { wormDerby } from '../../../../shared/games/worm-derby/index.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { css } from '../logic/colors.js';
import { useConnection } from '../ui/context.js';
import { RollPanel } from '../ui/RollPanel.js';
import { RefereeBar } from './RefereeBar.js';

const ORDINAL = ['1st', '2nd', '3rd', '4th'];

function Coins({ length, eaten, color }: { length: number; eaten: number; color: string }) {
  return (
    <svg viewBox="0 0 66 12" width="132" height="24" role="img" aria-label={`${length} coins${eaten ? `, ${eaten} eaten` : ''}`}>
      {Array.from({ length: 6 }, (_, i) => (
        <circle key={i} cx={6 + i * 10.8} cy="6" r="4.6" fill={i < length ? color : 'none'} stroke="#1d1d1f" stroke-width="1" stroke-dasharray={i < length ? undefined : '1.5 1.5'} />
      ))}
    </svg>
  );
}

function Report({ state, player, onSend }: { state: DerbyState; player: string; onSend: (m: DerbyMove) => void }) {
  const legal = wormDerby.legalOptions(state);
  const s = legal.steps!;
  const [steps, setSteps] = useState(s.steps);
  const [from, setFrom] = useState<WormEnd | null>(s.from === 'either' ? null : (s.from[0] ?? null));
  const [ate, setAte] = useState<{ player: string; end: WormEnd } | null>(null);
  const [rounded, setRounded] = useState(false);
  const [finished, setFinished] = useState(false);
  const name = (id: string) => state.players.find((p) => p.id === id)?.name ?? id;
  const move: DerbyMove = {
    type: 'move',
    player,
    steps,
    ...(from && steps > 0 ? { from } : {}),
    ...(steps < s.steps && !ate ? { blocked: true } : {}),
    ...(ate ? { ate } : {}),
    ...(rounded ? { roundedPylon: true } : {}),
    ...(finished ? { finished: true } : {}),
  };
  const check = wormDerby.apply(state, move);
  return (
    <div class="report" data-testid="derby-report">
      <div class="stepper large">
        <button class="btn" onClick={() => setSteps(Math.max(0, steps - 1))} aria-label="one step less">
          −
        </button>
        <b data-testid="derby-steps">{steps}</b>
        <button class="btn" onClick={() => setSteps(Math.min(s.steps, steps + 1))} aria-label="one step more">
          +
        </button>
        <span>step{steps === 1 ? '' : 's'} of {s.steps}</span>
      </div>
      {steps < s.steps && !ate && <p class="muted small">Fewer steps: blocked by an obstacle or a worm.</p>}
      {s.from !== 'either' && s.from.length > 1 && (
        <div class="row">
          {s.from.map((e) => (
            <button key={e} class={`choice${from === e ? ' on' : ''}`} onClick={() => setFrom(e)}>
              from end {e}
            </button>
          ))}
        </div>
      )}
      {s.mayEat.length > 0 && (
        <div class="stack">
          <span class="muted small">Ate a coin? (ends the move)</span>
          <div class="row wrap">
            <button class={`choice${ate === null ? ' on' : ''}`} onClick={() => setAte(null)}>
              no
            </button>
            {s.mayEat.flatMap((t) =>
              t.ends.map((e) => (
                <button key={`${t.player}${e}`} class={`choice${ate?.player === t.player && ate.end === e ? ' on' : ''}`} onClick={() => setAte({ player: t.player, end: e })}>
                  {name(t.player)} end {e}
                </button>
              )),
            )}
          </div>
        </div>
      )}
      {s.mayRoundPylon && (
        <label class="check">
          <input type="checkbox" checked={rounded} onChange={(e) => setRounded((e.target as HTMLInputElement).checked)} data-testid="derby-pylon" /> Rounded the pylon
        </label>
      )}
      <label class="check">
        <input type="checkbox" checked={finished} onChange={(e) => setFinished((e.target as HTMLInputElement).checked)} data-testid="derby-finished" /> Head reached the finish
      </label>
      {!check.ok && <p class="problem">{check.message}</p>}
      <button class="btn primary wide" disabled={!check.ok} onClick={() => onSend(move)} data-testid="derby-moved">
        Report the move
      </button>
    </div>
  );
}

export function DerbyScreen({ snapshot }: { snapshot: TableSnapshot }) {
  const conn = useConnection();
  const state = snapshot.state as DerbyState;
  const legal = wormDerby.legalOptions(state);
  const you = snapshot.you;
  const active = state.phase === 'over' ? null : state.worms[state.active]!.player;
  const canAct = active !== null && (you.role === 'referee' || (you.role === 'player' && you.player === active));
  const name = (id: string) => state.players.find((p) => p.id === id)?.name ?? id;
  const send = (move: DerbyMove, label: string) => void conn.send({ type: 'move', move }, label);
  return (
    <div class="screen derby" data-testid="derby-screen">
      <p class="instruction" data-testid="instruction">
        {legal.instruction}
      </p>
      <RollPanel snapshot={snapshot} />
      <RefereeBar snapshot={snapshot} next={null} />
      {canAct && state.phase === 'obstacles' && (
        <button class="btn primary wide" onClick={() => send({ type: 'place-obstacle', player: active! }, 'placed an obstacle')} data-testid="derby-placed">
          Placed a tile
        </button>
      )}
      {canAct && state.phase === 'ace' && legal.ace && (
        <div class="stack" data-testid="derby-ace">
          {legal.ace.moveObstacle && (
            <button class="btn" onClick={() => send({ type: 'move-obstacle', player: active! }, 'moved an obstacle')}>
              Moved an obstacle
            </button>
          )}
          {legal.ace.returnCoin && (
            <button class="btn" onClick={() => send({ type: 'return-coin', player: active! }, 'put a coin back')}>
              Put an eaten coin back
            </button>
          )}
          <button class="btn" onClick={() => send({ type: 'pass-ace', player: active! }, 'used nothing')} data-testid="derby-pass-ace">
            Used nothing
          </button>
        </div>
      )}
      {canAct && state.phase === 'move' && legal.steps && <Report key={snapshot.version} state={state} player={active!} onSend={(m) => send(m, 'report the move')} />}
      <section class="card">
        <h2>The worms</h2>
        <ul class="derby-worms" data-testid="derby-worms">
          {state.worms.map((w) => {
            const p = state.players.find((x) => x.id === w.player)!;
            return (
              <li key={w.player} class={w.player === active ? 'now' : ''} data-testid={`worm-${w.player}`}>
                <span class="who">
                  {p.color && <span class="swatch" style={{ background: css(p.color) }} />} {p.name}
                </span>
                <Coins length={w.length} eaten={w.eaten} color={css(p.color ?? 'white')} />
                <span class="small">
                  {w.place ? `${ORDINAL[w.place - 1] ?? `${w.place}th`} ✓` : w.roundedPylon ? 'rounded the pylon' : 'to the pylon'}
                  {w.bites.length ? ` · bitten by ${w.bites.map((b) => `${name(b.by)} (${b.end})`).join(', ')}` : ''}
                </span>
              </li>
            );
          })}
        </ul>
        {state.finishingOrder.length > 0 && (
          <p data-testid="finishing-order">
            Finishing order: {state.finishingOrder.map((id, i) => `${i + 1}. ${name(id)}`).join('  ')}
          </p>
        )}
        {state.phase === 'obstacles' && <p class="muted small">Obstacle tiles placed: {state.obstacles.placed}</p>}
        {legal.dieTable.reconstructed && <p class="muted small">Die table: {legal.dieTable.name} (the text lost the printed table).</p>}
      </section>
      {you.role === 'referee' && state.phase !== 'over' && (
        <button class="btn" onClick={() => send({ type: 'stop-race' }, 'stop the race')} data-testid="derby-stop">
          Stop the race here
        </button>
      )}
    </div>
  );
}

/**
 * The worm is drawn: the roll in the tray grouped by face (which may be kept, which were kept
 * before), the kept dice and their total, the tiles (takeable lit green, stealable tops lit
 * orange), each player's stack, and the final ranking.
 */
import type { PlayerInfo } from '../../../../shared/game.js';
import type { Face, TwidMove, TwidOptions, TwidState } from '../../../../shared/games/the-worm-is-drawn/index.js';
import { FACES, parseMove, theWormIsDrawn } from '../../../../shared/games/the-worm-is-drawn/index.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { css } from '../logic/colors.js';
import { useConnection } from '../ui/context.js';
import { DieFace } from '../ui/DieFace.js';
import { RollPanel } from '../ui/RollPanel.js';
import { Worms } from '../ui/WormMark.js';
import { RefereeBar } from './RefereeBar.js';

const nameOf = (players: PlayerInfo[], id: string) => players.find((p) => p.id === id)?.name ?? id;

function describe(move: TwidMove): string {
  switch (move.type) {
    case 'keep':
      return `keep the ${move.face === 'worm' ? 'worms' : `${move.face}s`}`;
    case 'stop':
      return 'stop and score';
    case 'take':
      return `take tile ${move.tile}`;
    case 'steal':
      return `steal tile ${move.tile}`;
    case 'roll':
      return 'roll';
  }
}

export function TwidScreen({ snapshot }: { snapshot: TableSnapshot }) {
  const conn = useConnection();
  const state = snapshot.state as TwidState;
  const opts: TwidOptions = theWormIsDrawn.legalOptions(state, { verbose: true });
  const d = opts.detail!;
  const you = snapshot.you;
  const current = state.players[state.current]!;
  const canAct = state.phase !== 'over' && (you.role === 'referee' || (you.role === 'player' && you.player === current.id));
  const moves = opts.moves.map(parseMove);
  const send = (move: TwidMove) => void conn.send({ type: 'move', move }, describe(move));
  const set = state.diceSet;
  const worms = (tile: number) => state.tiles.find((t) => t.value === tile)?.worms ?? 0;
  const takeable = new Set(d.takeable.map((t) => t.value));
  const stealable = new Map(d.stealable.map((s) => [s.tile, s]));
  const score = theWormIsDrawn.score(state);

  // The tray grouped by face.
  const tray = new Map<Face, number>();
  for (const f of state.roll ?? []) tray.set(f, (tray.get(f) ?? 0) + 1);

  return (
    <div class="screen twid" data-testid="twid-screen">
      <p class="headline" data-testid="headline">
        {snapshot.status.headline}
      </p>
      <p class="muted small">
        Preset: {state.rules.label} · worm = {state.rules.wormValue}
      </p>
      <RollPanel snapshot={snapshot} />
      <RefereeBar snapshot={snapshot} next={moves.some((m) => m.type === 'stop') ? 'Stop' : null} />

      {state.phase !== 'over' && (
        <section class="card">
          <h2>
            {current.color && <span class="swatch" style={{ background: css(current.color) }} />} {current.name}'s turn
          </h2>
          {state.roll && (
            <div class="tray" data-testid="tray">
              {FACES.filter((f) => tray.has(f)).map((f) => {
                const k = d.keepable.find((x) => x.face === f);
                const blocked = d.blocked.includes(f);
                const move = moves.find((m) => m.type === 'keep' && m.face === f);
                return (
                  <button key={f} class={`face-group${k ? ' keepable' : ''}${blocked ? ' blocked' : ''}`} disabled={!canAct || !move} onClick={() => move && send(move)} data-testid={`keep-${f}`} aria-label={`${tray.get(f)} × ${f}${k ? `: keep for total ${k.totalAfter}` : blocked ? ': kept before' : ''}`}>
                    <span class="dice-mini">
                      {Array.from({ length: tray.get(f)! }, (_, i) => (
                        <DieFace key={i} set={set} face={f === 'worm' && set === 'd6' ? '6' : f} size={34} />
                      ))}
                    </span>
                    <span class="small">{k ? `keep → ${k.totalAfter}` : blocked ? 'kept before' : ''}</span>
                  </button>
                );
              })}
            </div>
          )}
          <div class="kept" data-testid="kept">
            <span class="muted small">Kept</span>
            {state.kept.length === 0 && <span class="muted">nothing yet</span>}
            {state.kept.map((k, i) => (
              <span key={i} class="dice-mini">
                {Array.from({ length: k.count }, (_, j) => (
                  <DieFace key={j} set={set} face={k.face === 'worm' && set === 'd6' ? '6' : k.face} size={26} />
                ))}
              </span>
            ))}
            <span class="total-big" data-testid="twid-total">
              {d.total}
            </span>
            {d.wormHeld ? <span class="badge">worm ✓</span> : state.rules.wormRequired ? <span class="badge warn">needs a worm</span> : null}
          </div>
          {d.whyNot && state.phase === 'choose' && <p class="warn">{d.whyNot}</p>}
          {moves.some((m) => m.type === 'stop') && canAct && (
            <button class="btn" onClick={() => send({ type: 'stop' })} data-testid="stop">
              Stop and take a tile
            </button>
          )}
        </section>
      )}

      <section class="card">
        <h2>Tiles</h2>
        <div class="tiles" data-testid="tiles">
          {state.tiles.map((t) => {
            const onTable = state.table.includes(t.value);
            const removed = state.removed.includes(t.value);
            const take = takeable.has(t.value) && moves.some((m) => m.type === 'take' && m.tile === t.value);
            return (
              <button key={t.value} class={`tile${onTable ? '' : ' gone'}${removed ? ' removed' : ''}${take ? ' takeable' : ''}`} disabled={!take || !canAct} onClick={() => send({ type: 'take', tile: t.value })} data-testid={`tile-${t.value}`}>
                <b>{t.value}</b>
                <Worms n={t.worms} size={6} />
              </button>
            );
          })}
        </div>
      </section>

      <section class="card">
        <h2>{state.phase === 'over' ? 'Final ranking' : 'Stacks'}</h2>
        <ol class="stacks" data-testid="stacks">
          {score.lines.map((l) => {
            const stack = state.stacks[state.players.findIndex((p) => p.id === l.player)] ?? [];
            const top = stack[stack.length - 1];
            // Lit only when stealing is a move now: the verbose detail names the tops the kept total matches in every phase, and mid-roll the engine refuses the steal.
            const steal = top !== undefined && moves.some((m) => m.type === 'steal' && m.tile === top) ? stealable.get(top) : undefined;
            return (
              <li key={l.player} class="stack-line">
                <span class="rank">{state.phase === 'over' ? `${l.rank}.` : ''}</span>
                <span class="who">{nameOf(state.players, l.player)}</span>
                {top !== undefined ? (
                  <button class={`tile small${steal ? ' stealable' : ''}`} disabled={!steal || !canAct} onClick={() => send({ type: 'steal', tile: top })} data-testid={`steal-${top}`} aria-label={steal ? `steal ${top}` : `top tile ${top}`}>
                    <b>{top}</b>
                    <Worms n={worms(top)} size={5} />
                  </button>
                ) : (
                  <span class="muted">no tiles</span>
                )}
                <span class="score-worms" data-testid={`worms-${l.player}`}>
                  {l.worms} <Worms n={1} size={8} /> · {stack.length} tile{stack.length === 1 ? '' : 's'}
                </span>
              </li>
            );
          })}
        </ol>
        {state.last && (
          <p class="muted small" data-testid="last-turn">
            Last turn: {nameOf(state.players, state.last.player)}{' '}
            {state.last.kind === 'took' ? `took ${state.last.tile}` : state.last.kind === 'stole' ? `stole ${state.last.tile} from ${nameOf(state.players, state.last.from)}` : `failed (${state.last.reason})`}
          </p>
        )}
      </section>
    </div>
  );
}

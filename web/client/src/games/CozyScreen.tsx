/**
 * Worm & Cozy at the table: the hour clock, the roll and what it allows (A/B/C), each player's
 * digital twin of their sheet, who is done, and the referee's "end the hour" and "undo". At the
 * end, everyone's score as the sheet's tracks: from the paper sheet where one was given to the
 * seat on *Score a sheet* (marked "from paper"), else from the twin.
 */
import { useState } from 'preact/hooks';
import type { CozyState } from '../../../../shared/games/worm-and-cozy/index.js';
import { scoreState, twinUsed } from '../../../../shared/games/worm-and-cozy/index.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { css } from '../logic/colors.js';
import { DieFace } from '../ui/DieFace.js';
import { RollPanel } from '../ui/RollPanel.js';
import { Board } from './cozy/Board.js';
import { HourClock } from './cozy/HourClock.js';
import { ScoreTracks } from './cozy/ScoreTracks.js';
import { Twin } from './cozy/Twin.js';
import { RefereeBar } from './RefereeBar.js';

export function CozyScreen({ snapshot }: { snapshot: TableSnapshot }) {
  const state = snapshot.state as CozyState;
  const you = snapshot.you;
  const firstToAct = state.players.find((_, i) => !state.sheets[i]!.done)?.id ?? state.players[0]!.id;
  const [chosen, setChosen] = useState<string | null>(null);
  const viewing = you.role === 'player' && you.player && state.players.some((p) => p.id === you.player) ? (chosen ?? you.player) : (chosen && state.players.some((p) => p.id === chosen) ? chosen : firstToAct);
  const canAct = you.role === 'referee' || (you.role === 'player' && you.player === viewing);
  const over = state.phase === 'over';
  const viewingIndex = state.players.findIndex((p) => p.id === viewing);
  // A paper sheet given at the end is shown in place of an empty twin (beside a used one).
  const viewingPaper = viewingIndex >= 0 ? state.paper?.[viewingIndex] ?? null : null;
  return (
    <div class="screen cozy" data-testid="cozy-screen">
      <HourClock chapter={state.chapter} hour={state.hour} over={over} />
      {state.roll && !over && (
        <div class="table-roll" data-testid="table-roll">
          <span class="muted small">The roll</span>
          <DieFace set="cozy-shape" face={state.roll.shape} size={48} />
          <DieFace set="cozy-organ" face={state.roll.organs[0]} size={48} />
          <DieFace set="cozy-organ" face={state.roll.organs[1]} size={48} />
        </div>
      )}
      <RollPanel snapshot={snapshot} />
      <RefereeBar snapshot={snapshot} next={state.phase === 'play' ? 'End the hour' : null} />
      {state.players.length > 1 && (
        <div class="player-chips" role="tablist" aria-label="sheets">
          {state.players.map((p, i) => (
            <button key={p.id} role="tab" aria-selected={p.id === viewing} class={`chip${p.id === viewing ? ' on' : ''}`} onClick={() => setChosen(p.id)} data-testid={`sheet-${p.id}`}>
              {p.color && <span class="swatch" style={{ background: css(p.color) }} />}
              {p.name}
              {state.phase === 'play' && state.sheets[i]!.done ? ' ✓' : ''}
            </button>
          ))}
        </div>
      )}
      {over ? (
        <section class="card" data-testid="final-scores">
          <h2>Final scores</h2>
          {scoreState(state).players.map((s) => {
            const p = state.players.find((x) => x.id === s.player)!;
            // The engine's ranking (paper sheets counted); a solo game has no winner to name.
            const wins = state.players.length > 1 && snapshot.status.ranking?.find((r) => r.player === s.player)?.rank === 0;
            return (
              <div key={s.player} class="final" data-testid={`final-${s.player}`} data-from={s.fromPaper ? 'paper' : 'twin'}>
                <h3>
                  {p.name}: <span data-testid="final-total">{s.total}</span>
                  {s.fromPaper && (
                    <span class="badge from-paper" data-testid="from-paper">
                      from paper
                    </span>
                  )}
                  {wins && (
                    <span class="badge winner" data-testid="winner">
                      wins
                    </span>
                  )}
                </h3>
                {s.twinTotal !== undefined && (
                  <p class="muted small" data-testid="twin-total">
                    The digital twin scored {s.twinTotal}; the paper sheet is the real one, so it counts.
                  </p>
                )}
                <ScoreTracks chapter={state.chapter} score={s} />
              </div>
            );
          })}
        </section>
      ) : null}
      {over && viewingPaper && (
        <section class="card" data-testid="paper-board">
          <h2>{state.players[viewingIndex]!.name}’s paper sheet</h2>
          <Board chapter={state.chapter} worms={viewingPaper.worms} foods={viewingPaper.foods} label={`${state.players[viewingIndex]!.name}'s paper sheet`} />
        </section>
      )}
      {/* A choice in progress survives other players' moves: it resets only when this sheet changes. */}
      {viewing && !(viewingPaper && !twinUsed(state.sheets[viewingIndex]!)) && <Twin key={`${viewing}:${state.hour}:${state.phase}:${JSON.stringify(state.sheets[state.players.findIndex((p) => p.id === viewing)])}`} state={state} player={viewing} canAct={canAct && !over} />}
    </div>
  );
}

/**
 * A player's digital twin of their Worm & Cozy sheet: the sheet drawn as on paper, and this hour's
 * choices from the engine's `legalOptions(state, { player, verbose: true })`: place the rolled
 * shape (legal places lit, rotate and flip), add an organ (legal cells lit, facings offered), wake
 * a worm, and walk a chain reaction one pending choice at a time, brains' die changes included.
 * Every choice is confirmed before it is sent.
 */
import { useMemo, useState } from 'preact/hooks';
import type { CozyMove, CozyState, OrganType } from '../../../../../shared/games/worm-and-cozy/index.js';
import { geometry, hourRegionIndex, legalOptions } from '../../../../../shared/games/worm-and-cozy/index.js';
import type { VerboseMove } from '../../../../../shared/games/worm-and-cozy/options.js';
import {
  babyChoice,
  describeMove,
  dirWord,
  flipKey,
  groupPlacements,
  keyCells,
  movesAtCell,
  optionTexts,
  placementAt,
  placementCells,
  rotateKey,
  startingOrientation,
} from '../../logic/cozy.js';
import { useConnection } from '../../ui/context.js';
import { DieFace } from '../../ui/DieFace.js';
import { Board } from './Board.js';

type Tool = 'place' | 'organ' | 'cells' | 'worm' | 'baby' | 'brain' | 'list' | null;

function toolFor(pending: string | null): Tool {
  switch (pending) {
    case 'organ':
    case 'babyOrgans':
      return 'organ';
    case 'act':
    case 'food':
    case 'grow':
    case 'conga':
      return 'cells';
    case 'partner':
      return 'worm';
    case 'line':
      return 'list';
    case 'collar':
      return 'baby';
    default:
      return null;
  }
}

function ShapePreview({ k }: { k: string }) {
  const pts = keyCells(k);
  const w = Math.max(...pts.map((p) => p[0])) + 1;
  const h = Math.max(...pts.map((p) => p[1])) + 1;
  return (
    <svg class="shape-preview" viewBox={`-0.2 -0.2 ${w + 0.4} ${h + 0.4}`} width={w * 14 + 6} height={h * 14 + 6} aria-hidden="true">
      {pts.map(([x, y], i) => (
        <rect key={i} x={x + 0.05} y={y + 0.05} width="0.9" height="0.9" rx="0.2" />
      ))}
    </svg>
  );
}

export interface TwinProps {
  state: CozyState;
  player: string;
  canAct: boolean;
  wormColor?: string | undefined;
}

export function Twin({ state, player, canAct, wormColor }: TwinProps) {
  const conn = useConnection();
  const opts = useMemo(() => legalOptions(state, { player, verbose: true }), [state, player]);
  const index = state.players.findIndex((p) => p.id === player);
  const sheet = state.sheets[index]!;
  const g = geometry(state.chapter);
  const region = state.phase === 'over' ? [] : g.regionCells[hourRegionIndex(state.chapter, Math.min(state.hour, state.chapter.clock.hours - 1))];
  const verbose: VerboseMove[] = opts.verbose?.moves ?? [];
  const [tool, setTool] = useState<Tool>(() => (opts.step === 'decision' ? toolFor(opts.pending) : null));
  const [selected, setSelected] = useState<CozyMove | null>(null);
  const [choices, setChoices] = useState<VerboseMove[] | null>(null);
  const [organType, setOrganType] = useState<OrganType | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [zoom, setZoom] = useState(false);
  const placements = useMemo(() => groupPlacements(opts.moves), [opts]);
  const dice = opts.dice;
  const [orientation, setOrientation] = useState<string | null>(() => (dice ? startingOrientation(dice.shape, placements) : null));
  const [tap, setTap] = useState<{ cell: string; n: number } | null>(null);

  const organAtCell = (cell: string): OrganType | undefined => {
    const i = g.names.indexOf(cell);
    for (const w of sheet.worms) for (const o of w.organs) if (o.cell === i) return o.type;
    return undefined;
  };
  const send = (move: CozyMove) => {
    setSelected(null);
    setChoices(null);
    setChosen([]);
    void conn.send({ type: 'move', move }, describeMove(move, organAtCell));
  };
  const pick = (tool: Tool) => {
    setTool(tool);
    setSelected(null);
    setChoices(null);
    setChosen([]);
  };

  const byType = (t: CozyMove['type'] | CozyMove['type'][]) => {
    const types = Array.isArray(t) ? t : [t];
    return verbose.filter((v) => types.includes(v.move.type));
  };

  // What the board lights up and what a tap means, for the tool in use.
  let highlight = new Set<string>();
  let onCell: ((cell: string) => void) | undefined;
  const chooseAmong = (cands: VerboseMove[]) => {
    if (cands.length === 1) {
      setSelected(cands[0]!.move);
      setChoices(null);
    } else if (cands.length > 1) {
      setSelected(null);
      setChoices(cands);
    }
  };
  if (canAct && tool === 'place' && orientation) {
    highlight = placementCells(placements, orientation);
    onCell = (cell) => {
      const n = tap && tap.cell === cell ? tap.n + 1 : 0;
      const hit = placementAt(placements, orientation, cell, n);
      setTap({ cell, n });
      if (hit) {
        setOrientation(hit.key);
        setSelected(hit.move);
      }
    };
  } else if (canAct && tool === 'organ') {
    const organMoves = byType('addOrgan');
    const types = [...new Set(organMoves.map((v) => (v.move as Extract<CozyMove, { type: 'addOrgan' }>).organ))];
    const type = organType && types.includes(organType) ? organType : (types[0] ?? null);
    const ofType = organMoves.filter((v) => (v.move as Extract<CozyMove, { type: 'addOrgan' }>).organ === type);
    highlight = new Set(ofType.flatMap((v) => v.cells));
    onCell = (cell) => chooseAmong(movesAtCell(ofType, cell));
  } else if (canAct && (tool === 'cells' || tool === 'worm')) {
    const moves = byType(tool === 'cells' ? ['act', 'food', 'grow'] : opts.step === 'option' ? ['activate'] : ['partner']);
    highlight = new Set(moves.flatMap((v) => v.cells));
    onCell = (cell) => chooseAmong(movesAtCell(moves, cell));
  } else if (canAct && tool === 'baby') {
    const { fits } = babyChoice(opts.moves, chosen);
    highlight = new Set(fits.flatMap((m) => m.cells).filter((c) => !chosen.includes(c)));
    onCell = (cell) => {
      const next = chosen.includes(cell) ? chosen.filter((c) => c !== cell) : [...chosen, cell];
      const r = babyChoice(opts.moves, next);
      if (r.fits.length === 0) return;
      setChosen(next);
      setSelected(r.complete);
    };
  }

  const preview = selected && 'cells' in selected ? (selected.cells as string[]) : selected && 'cell' in selected ? [selected.cell as string] : selected?.type === 'activate' || selected?.type === 'partner' ? verbose.find((v) => v.move === selected)?.cells : undefined;
  const count = (t: CozyMove['type']) => opts.moves.filter((m) => m.type === t).length;
  const has = (t: CozyMove['type']) => count(t) > 0;

  const texts = dice ? optionTexts(dice.shape, dice.organs) : null;

  return (
    <div class="twin" data-testid="twin" data-step={opts.step} data-pending={opts.pending ?? ''}>
      {dice && (
        <div class="my-dice" data-testid="my-dice">
          <DieFace set="cozy-shape" face={dice.shape} size={44} />
          <DieFace set="cozy-organ" face={dice.organs[0]} size={44} />
          <DieFace set="cozy-organ" face={dice.organs[1]} size={44} />
          {sheet.credits > 0 && <span class="badge">{sheet.credits} die change{sheet.credits === 1 ? '' : 's'}</span>}
        </div>
      )}
      <p class="prompt" data-testid="cozy-prompt">
        {opts.prompt}
      </p>

      {canAct && opts.step === 'option' && texts && (
        <div class="options" data-testid="options">
          <button class={`option${tool === 'place' ? ' on' : ''}`} disabled={!has('placeWorm')} onClick={() => pick('place')} data-testid="option-A">
            <b>A</b>
            <span>{texts.A}</span>
          </button>
          {state.hour > 0 && (
            <button class={`option${tool === 'organ' ? ' on' : ''}`} disabled={!has('addOrgan')} onClick={() => pick('organ')} data-testid="option-B">
              <b>B</b>
              <span>{texts.B}</span>
            </button>
          )}
          {state.hour > 0 && (
            <button class={`option${tool === 'worm' ? ' on' : ''}`} disabled={!has('activate')} onClick={() => pick('worm')} data-testid="option-C">
              <b>C</b>
              <span>{texts.C}</span>
            </button>
          )}
          {has('changeDie') && (
            <button class={`option${tool === 'brain' ? ' on' : ''}`} onClick={() => pick('brain')} data-testid="option-brain">
              <DieFace set="cozy-organ" face="brain" size={30} decorative />
              <span>Brains: change a die first</span>
            </button>
          )}
        </div>
      )}

      {canAct && tool === 'place' && orientation && (
        <div class="tool-bar" data-testid="place-tools">
          <ShapePreview k={orientation} />
          <button class="btn" onClick={() => { setOrientation(rotateKey(orientation)); setSelected(null); }} data-testid="rotate">
            ⟳ Rotate
          </button>
          <button class="btn" onClick={() => { setOrientation(flipKey(orientation)); setSelected(null); }} data-testid="flip">
            ⇋ Flip
          </button>
          <span class="muted small">{placementCells(placements, orientation).size ? 'tap a lit cell' : 'no room this way: rotate or flip'}</span>
        </div>
      )}
      {canAct && tool === 'organ' && (
        <div class="tool-bar" data-testid="organ-tools">
          {[...new Set(byType('addOrgan').map((v) => (v.move as Extract<CozyMove, { type: 'addOrgan' }>).organ))].map((t) => (
            <button key={t} class={`icon-choice${(organType ?? byType('addOrgan').map((v) => (v.move as Extract<CozyMove, { type: 'addOrgan' }>).organ)[0]) === t ? ' on' : ''}`} onClick={() => { setOrganType(t); setSelected(null); setChoices(null); }} data-testid={`organ-${t}`} aria-label={t}>
              <DieFace set="cozy-organ" face={t} size={40} decorative />
              <span>{t}</span>
            </button>
          ))}
        </div>
      )}
      {canAct && tool === 'brain' && (
        <div class="brain-tools" data-testid="brain-tools">
          {([0, 1, 2] as const).map((die) => {
            const moves = opts.moves.filter((m): m is Extract<CozyMove, { type: 'changeDie' }> => m.type === 'changeDie' && m.die === die);
            const faces = [...new Set(moves.map((m) => m.face))];
            if (faces.length === 0) return null;
            return (
              <div key={die} class="brain-row">
                <span>{die === 0 ? 'Shape die →' : `Organ die ${die} →`}</span>
                <div class="wrap-row">
                  {faces.map((f) => (
                    <button
                      key={f}
                      class="icon-choice"
                      // Where more than one source offers the change (last hour's brains, a brain to fill here and there), the player picks
                      // which: a filled brain never acts again (it always took the first, so the others could not be filled).
                      onClick={() => chooseAmong(byType('changeDie').filter((v) => { const m = v.move as Extract<CozyMove, { type: 'changeDie' }>; return m.die === die && m.face === f; }))}
                      aria-label={`change to ${f}`}
                      data-testid={`change-${die}-${f}`}
                    >
                      <DieFace set={die === 0 ? 'cozy-shape' : 'cozy-organ'} face={f} size={36} />
                    </button>
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      )}
      {canAct && tool === 'list' && (
        <div class="stack" data-testid="list-tools">
          {opts.moves
            .filter((m) => m.type === 'congaLine')
            .map((m, i) => (
              <button key={i} class="btn" onClick={() => setSelected(m)}>
                {describeMove(m)}
              </button>
            ))}
        </div>
      )}
      {canAct && tool === 'baby' && has('babyOrgans') && (
        <button class="btn" onClick={() => setSelected(opts.moves.find((m) => m.type === 'babyOrgans')!)} data-testid="baby-organs">
          Give the babies an organ each instead
        </button>
      )}

      <div class="board-tools">
        <button class="btn small-text" onClick={() => setZoom(!zoom)} aria-pressed={zoom} data-testid="zoom">
          {zoom ? 'Fit the board' : 'Bigger cells'}
        </button>
      </div>
      <Board chapter={state.chapter} worms={sheet.worms} foods={sheet.foods} region={region} highlight={highlight} preview={preview} chosen={chosen} onCell={onCell} wormColor={wormColor} zoom={zoom} label={`${state.players[index]?.name ?? player}'s sheet`} />

      {choices && (
        <div class="stack choices-list" data-testid="choices">
          <p class="muted small">More than one way here:</p>
          {choices.map((c, i) => (
            <button key={i} class="btn" onClick={() => { setSelected(c.move); setChoices(null); }} data-testid={`choice-${i}`}>
              {c.move.type === 'addOrgan' && c.move.facing ? `Facing ${dirWord(c.move.facing)}` : describeMove(c.move, organAtCell)}
            </button>
          ))}
        </div>
      )}

      {canAct && (opts.step === 'option' || opts.step === 'decision') && (
        <div class="row wrap">
          {has('pass') && (
            <button class="btn" onClick={() => send({ type: 'pass', player })} data-testid="pass">
              Skip this
            </button>
          )}
          {has('done') && (
            <button class="btn" onClick={() => send({ type: 'done', player })} data-testid="done">
              Nothing more this hour
            </button>
          )}
        </div>
      )}

      {selected && canAct && (
        <div class="confirm-bar" data-testid="confirm-bar">
          <span data-testid="confirm-text">{describeMove(selected, organAtCell)}</span>
          <div class="row">
            <button class="btn primary" onClick={() => send(selected)} data-testid="confirm">
              Confirm
            </button>
            <button class="btn" onClick={() => setSelected(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <p class="muted small sheet-summary">
        {sheet.worms.length} worm{sheet.worms.length === 1 ? '' : 's'} · {sheet.foods.length} food{sheet.foods.length === 1 ? '' : 's'}
        {sheet.done ? ' · done this hour' : ''}
      </p>
    </div>
  );
}

/**
 * Tapeworm: whose turn, the colour locked this turn, hand/deck/discard counts, the tapeworms on the
 * table (open ends marked), the effect to resolve, and the winner. The active player records a
 * play by choosing the card, then a lit spot and a turn of the card: the rules list the legal
 * spots (`legalOptions(state, { cards })`), so nothing is typed.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CardKind, CutOption, PlacedCard, PlacementOption, TapewormMove, TapewormState } from '../../../../shared/games/tapeworm/index.js';
import { effectText, expandDeck, hiddenKinds, kindsAfterDraw, tapeworm } from '../../../../shared/games/tapeworm/index.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';
import { useConnection } from '../ui/context.js';
import { Modal } from '../ui/Modal.js';
import { RefereeBar } from './RefereeBar.js';
import { pressed } from '../ui/keys.js';

const INK: Record<string, string> = { red: '#d0312d', pink: '#f29ac0', white: '#fbfbf7', black: '#1d1d1f' };
/** The card icons, drawn (no emoji font on a Pi or in headless Chromium), in a 10 x 10 box. */
const EFFECT_MARK: Record<string, string> = {
  cut: 'M2 2 L8 8 M8 2 L2 8 M2.2 8.6 a1.3 1.3 0 1 0 0.01 0 M7.8 8.6 a1.3 1.3 0 1 0 0.01 0',
  peek: 'M1 5 Q5 1 9 5 Q5 9 1 5 Z M5 4 a1 1 0 1 0 0.01 0',
  hatch: 'M5 1 C8 1 8.6 6 8.6 6.6 C8.6 8.4 7 9.4 5 9.4 C3 9.4 1.4 8.4 1.4 6.6 C1.4 6 2 1 5 1 Z M2 5.5 L3.5 4.5 L5 5.8 L6.5 4.5 L8 5.5',
  swap: 'M1.5 3.5 H8.5 M6.5 1.5 L8.5 3.5 L6.5 5.5 M8.5 6.5 H1.5 M3.5 4.5 L1.5 6.5 L3.5 8.5',
  dig: 'M8.5 1.5 L4 6 M2 5 L5 8 L3 9.5 L0.8 7.2 Z',
};
const EFFECT_NAME: Record<string, string> = { cut: 'Cut', peek: 'Peek', hatch: 'Hatch', swap: 'Swap', dig: 'Dig' };
const MID: Record<string, [number, number]> = { N: [20, 0], E: [40, 20], S: [20, 40], W: [0, 20] };
const EDGE_NAMES = ['N', 'E', 'S', 'W'] as const;

/** One card, 40 x 40 units, turned `rotation` quarter turns clockwise. */
export function Card({ kind, rotation, color, x = 0, y = 0 }: { kind: CardKind; rotation: number; color?: string | undefined; x?: number; y?: number }) {
  const segments = kind.segment[0]!;
  const colors = kind.edges[0]!;
  const groups = new Map<number, number[]>();
  segments.forEach((s, edge) => {
    if (s >= 0) groups.set(s, [...(groups.get(s) ?? []), edge]);
  });
  const ink = (edge: number) => {
    const c = colors[edge];
    return c === 'wild' ? (color ? INK[color] ?? color : 'url(#rainbow)') : INK[c ?? ''] ?? '#888';
  };
  return (
    <g transform={`translate(${x} ${y}) rotate(${rotation * 90} 20 20)`}>
      <rect x="0.8" y="0.8" width="38.4" height="38.4" rx="3" class="card-body" />
      {[...groups.values()].map((edges, i) => {
        const [a, b] = edges;
        if (b === undefined || edges.length > 2) {
          // A head, or the start card's arms (one knot joining all four): from each edge to the middle.
          return (
            <g key={i}>
              {edges.map((e) => {
                const p = MID[EDGE_NAMES[e]!]!;
                return <path key={`o${e}`} d={`M${p[0]} ${p[1]} L20 20`} stroke="#1d1d1f" stroke-width="10" stroke-linecap="round" />;
              })}
              {edges.map((e) => {
                const p = MID[EDGE_NAMES[e]!]!;
                return <path key={`i${e}`} d={`M${p[0]} ${p[1]} L20 20`} stroke={ink(e)} stroke-width="7.5" stroke-linecap="round" />;
              })}
              {kind.start ? <circle cx="20" cy="20" r="4.5" fill="#1d1d1f" /> : <circle cx="20" cy="20" r="6" fill={ink(a!)} stroke="#1d1d1f" stroke-width="1.2" />}
            </g>
          );
        }
        const pa = MID[EDGE_NAMES[a!]!]!;
        const pb = MID[EDGE_NAMES[b]!]!;
        const d = `M${pa[0]} ${pa[1]} Q20 20 ${pb[0]} ${pb[1]}`;
        const split = colors[a!] !== colors[b];
        return (
          <g key={i}>
            <path d={d} stroke="#1d1d1f" stroke-width="10" fill="none" />
            {split ? (
              <>
                <path d={`M${pa[0]} ${pa[1]} Q${(pa[0] + 20) / 2} ${(pa[1] + 20) / 2} 20 20`} stroke={ink(a!)} stroke-width="7.5" fill="none" />
                <path d={`M20 20 Q${(pb[0] + 20) / 2} ${(pb[1] + 20) / 2} ${pb[0]} ${pb[1]}`} stroke={ink(b)} stroke-width="7.5" fill="none" />
              </>
            ) : (
              <path d={d} stroke={ink(a!)} stroke-width="7.5" fill="none" />
            )}
          </g>
        );
      })}
      {kind.effect && (
        <g transform={`rotate(${-rotation * 90} 33 8) translate(28 3)`}>
          <rect x="-0.5" y="-0.5" width="11" height="11" rx="2" fill="#fffdf5" stroke="#6b5b3a" stroke-width="0.6" />
          <path d={EFFECT_MARK[kind.effect]} class="card-mark" fill="none" stroke-width="1.1" stroke-linecap="round" stroke-linejoin="round">
            <title>{EFFECT_NAME[kind.effect]}</title>
          </path>
        </g>
      )}
    </g>
  );
}

function Rainbow() {
  return (
    <defs>
      <linearGradient id="rainbow" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#d0312d" />
        <stop offset="0.33" stop-color="#f29ac0" />
        <stop offset="0.66" stop-color="#fbfbf7" />
        <stop offset="1" stop-color="#1d1d1f" />
      </linearGradient>
    </defs>
  );
}

function MiniCard({ kind, rotation = 0, size = 52 }: { kind: CardKind; rotation?: number; size?: number }) {
  return (
    <svg viewBox="0 0 40 40" width={size} height={size} aria-hidden="true">
      <Rainbow />
      <Card kind={kind} rotation={rotation} />
    </svg>
  );
}

function TableView({ state, spots, cuts, onSpot, onCut, chosen }: { state: TapewormState; spots: PlacementOption[]; cuts: CutOption[]; onSpot?: (x: number, y: number) => void; onCut?: (c: CutOption) => void; chosen?: PlacedCard | null }) {
  const deck = expandDeck(state.deck);
  const cells = [...state.table.map((c) => [c.x, c.y]), ...spots.map((s) => [s.x, s.y])];
  const xs = cells.map((c) => c[0]!);
  const ys = cells.map((c) => c[1]!);
  const x0 = Math.min(...xs, -1) - 0.3;
  const y0 = Math.min(...ys, -1) - 0.3;
  const x1 = Math.max(...xs, 1) + 1.3;
  const y1 = Math.max(...ys, 1) + 1.3;
  const ends = tapeworm.legalOptions(state).openEnds;
  const spotCells = [...new Map(spots.map((s) => [`${s.x},${s.y}`, s])).values()];
  return (
    <svg class="tw-table" viewBox={`${x0 * 40} ${y0 * 40} ${(x1 - x0) * 40} ${(y1 - y0) * 40}`} role="img" aria-label="the tapeworms on the table" data-testid="tw-table">
      <Rainbow />
      {state.table.map((c, i) => (
        <Card key={i} kind={deck.kinds.get(c.card)!} rotation={c.rotation} color={c.color} x={c.x * 40} y={c.y * 40} />
      ))}
      {ends.map((e, i) => {
        const m = MID[e.edge]!;
        return <circle key={i} cx={e.x * 40 + m[0]} cy={e.y * 40 + m[1]} r="4" class="open-end" fill={INK[e.color] ?? '#888'} />;
      })}
      {spotCells.map((s) => (
        <rect
          key={`${s.x},${s.y}`}
          class="tw-spot"
          x={s.x * 40 + 2}
          y={s.y * 40 + 2}
          width="36"
          height="36"
          rx="4"
          onClick={onSpot ? () => onSpot(s.x, s.y) : undefined}
          {...(onSpot ? { tabindex: 0, role: 'button', 'aria-label': `play the card at column ${s.x}, row ${s.y}`, onKeyDown: (e: KeyboardEvent) => pressed(e) && onSpot(s.x, s.y) } : {})}
          data-spot={`${s.x},${s.y}`}
        />
      ))}
      {cuts.map((c, i) => {
        const m = MID[c.edge]!;
        return (
          <g
            key={`c${i}`}
            onClick={onCut ? () => onCut(c) : undefined}
            {...(onCut ? { tabindex: 0, role: 'button', 'aria-label': `cut at column ${c.x}, row ${c.y}, ${c.edge} edge`, onKeyDown: (e: KeyboardEvent) => pressed(e) && onCut(c) } : {})}
            data-cut={`${c.x},${c.y},${c.edge}`}
            class="tw-cut"
          >
            <circle cx={c.x * 40 + m[0]} cy={c.y * 40 + m[1]} r="7" />
            <text x={c.x * 40 + m[0]} y={c.y * 40 + m[1] + 3.5}>
              ✂
            </text>
          </g>
        );
      })}
      {chosen && (
        <g opacity="0.85">
          <Card kind={deck.kinds.get(chosen.card)!} rotation={chosen.rotation} x={chosen.x * 40} y={chosen.y * 40} />
        </g>
      )}
    </svg>
  );
}

function CardPicker({ kinds, lock, title, onPick, onClose }: { kinds: CardKind[]; lock: string | null; title: string; onPick: (k: CardKind) => void; onClose: () => void }) {
  const colours = ['red', 'pink', 'white', 'black', 'wild'];
  const [colour, setColour] = useState<string>(lock ?? 'red');
  const shown = kinds.filter((k) => (colour === 'wild' ? k.wild : k.colors.includes(colour)));
  return (
    <Modal title={title} onClose={onClose}>
      <div class="row wrap">
        {colours.map((c) => (
          <button key={c} class={`choice${colour === c ? ' on' : ''}`} onClick={() => setColour(c)} data-testid={`colour-${c}`}>
            {c === 'wild' ? 'rainbow' : c}
          </button>
        ))}
      </div>
      <div class="card-grid">
        {shown.map((k) => (
          <button key={k.id} class="card-choice" onClick={() => onPick(k)} data-testid={`card-${k.id}`} aria-label={k.id.replace(/-/g, ' ')}>
            <MiniCard kind={k} />
            <span class="small">{k.id.replace(/-/g, ' ')}</span>
          </button>
        ))}
      </div>
    </Modal>
  );
}

function describe(move: TapewormMove, name: (id: string) => string): string {
  switch (move.type) {
    case 'draw':
      return 'drew a card';
    case 'place':
      return `played ${move.card.replace(/-/g, ' ')}`;
    case 'cut':
      return `cut with ${move.card.replace(/-/g, ' ')}`;
    case 'end-turn':
      return 'end the turn';
    case 'peek':
      return 'peeked';
    case 'dig':
      return `dug, discarding ${move.discard.replace(/-/g, ' ')}`;
    case 'hatch':
      return `${name(move.target)} draws a card`;
    case 'swap':
      return move.traded ? `swapped a card with ${name(move.target)}` : `looked at ${name(move.target)}'s hand, no trade`;
    case 'ringworm':
      return move.discard.length ? `discarded ${move.discard.map((d) => d.replace(/-/g, ' ')).join(' and ')}` : 'discarded nothing';
    case 'decline':
      return 'left the effect unused';
  }
}

export function TapewormScreen({ snapshot }: { snapshot: TableSnapshot }) {
  const conn = useConnection();
  const state = snapshot.state as TapewormState;
  const you = snapshot.you;
  const legal = tapeworm.legalOptions(state, { verbose: state.phase === 'effect' });
  const active = state.phase === 'over' ? null : state.players[state.active]!.id;
  const canAct = active !== null && (you.role === 'referee' || (you.role === 'player' && you.player === active));
  const name = (id: string) => state.players.find((p) => p.id === id)?.name ?? id;
  const send = (move: TapewormMove) => {
    setCard(null);
    setChosen(null);
    // The Ringworm's picks belong to that effect: left over after "Leave it unused", the next
    // Ringworm opened with them and sent them.
    setRing([]);
    void conn.send({ type: 'move', move }, describe(move, name));
  };
  const [picking, setPicking] = useState<'play' | 'dig' | 'ring' | null>(null);
  const [card, setCard] = useState<CardKind | null>(null);
  const [chosen, setChosen] = useState<PlacedCard | null>(null);
  const [ring, setRing] = useState<string[]>([]);
  const options = card ? tapeworm.legalOptions(state, { cards: [card.id] }) : null;
  const spots = options?.placements ?? [];
  const cuts = options?.cuts ?? [];
  const at = chosen ? spots.filter((s) => s.x === chosen.x && s.y === chosen.y) : [];
  const pending = state.pending[0];
  // Gone another way (another phone, the referee, BACK): the picks go with it.
  useEffect(() => {
    if (pending?.effect !== 'ringworm') setRing([]);
  }, [pending?.effect, snapshot.version]);
  const effectMoves = (legal.detail ?? []).filter((m) => m.type !== 'decline');

  return (
    <div class="screen tapeworm" data-testid="tapeworm-screen">
      <p class="headline" data-testid="headline">
        {legal.instruction}
      </p>
      <RefereeBar snapshot={snapshot} next={null} />
      <div class="tw-status">
        <span class="chip" data-testid="tw-lock">
          Lock: {state.lock ? <b style={{ color: state.lock === 'white' ? '#555' : INK[state.lock] }}>{state.lock}</b> : 'none yet'}
        </span>
        <span class="chip">Deck {state.drawPile}</span>
        <span class="chip">Discards {state.discard.length}</span>
      </div>
      <ul class="hands" data-testid="tw-hands">
        {legal.hands.map((h) => (
          <li key={h.player} class={h.player === active ? 'now' : ''}>
            <b>{name(h.player)}</b> {h.cards} card{h.cards === 1 ? '' : 's'}
            {state.winner === h.player ? ' ★ winner' : ''}
          </li>
        ))}
      </ul>
      <TableView state={state} spots={chosen ? [] : spots} cuts={chosen ? [] : cuts} chosen={chosen} onSpot={(x, y) => { const first = spots.find((s) => s.x === x && s.y === y)!; setChosen({ card: first.card, x, y, rotation: first.rotation }); }} onCut={(c) => send({ type: 'cut', player: active!, card: c.card, x: c.x, y: c.y, edge: c.edge })} />

      {canAct && state.phase === 'draw' && (
        <button class="btn primary wide" onClick={() => send({ type: 'draw', player: active! })} data-testid="tw-draw">
          Drew a card
        </button>
      )}
      {canAct && state.phase === 'play' && (
        <div class="stack" data-testid="tw-play">
          {card ? (
            <div class="tool-bar">
              <MiniCard kind={card} rotation={chosen?.rotation ?? 0} size={44} />
              <span>{spots.length || cuts.length ? (chosen ? 'turn it to fit, then confirm' : 'tap a lit spot') : 'this card fits nowhere now'}</span>
              <button class="btn" onClick={() => { setCard(null); setChosen(null); }}>
                Other card
              </button>
            </div>
          ) : (
            <button class="btn primary wide" onClick={() => setPicking('play')} data-testid="tw-play-card">
              Play a card
            </button>
          )}
          {chosen && at.length > 0 && (
            <div class="row wrap" data-testid="tw-rotations">
              {at.map((s) => (
                <button key={s.rotation} class={`card-choice${chosen.rotation === s.rotation ? ' on' : ''}`} onClick={() => setChosen({ ...chosen, rotation: s.rotation })} aria-label={`turned ${s.rotation * 90} degrees`}>
                  <MiniCard kind={card!} rotation={s.rotation} size={48} />
                </button>
              ))}
            </div>
          )}
          {chosen && (
            <button class="btn primary wide" onClick={() => send({ type: 'place', player: active!, card: chosen.card, x: chosen.x, y: chosen.y, rotation: chosen.rotation })} data-testid="tw-confirm">
              Confirm: {chosen.card.replace(/-/g, ' ')} here
            </button>
          )}
          <button class="btn" onClick={() => send({ type: 'end-turn', player: active! })} data-testid="tw-end-turn">
            {state.played ? 'End my turn' : 'Pass: nothing to play'}
          </button>
        </div>
      )}
      {canAct && state.phase === 'effect' && pending && (
        <div class="card stack" data-testid="tw-effect">
          <p>
            <b>{effectText(pending.effect)}</b>
          </p>
          {pending.effect === 'dig' ? (
            effectMoves.length > 0 && (
              <button class="btn" onClick={() => setPicking('dig')}>
                Dug: choose the discarded card
              </button>
            )
          ) : pending.effect === 'ringworm' ? (
            <>
              <p class="muted small">Discarded: {ring.length ? ring.join(', ') : 'nothing yet'}</p>
              <div class="row wrap">
                {ring.length < 2 && (
                  <button class="btn" onClick={() => setPicking('ring')}>
                    + a discarded card
                  </button>
                )}
                <button class="btn primary" onClick={() => { send({ type: 'ringworm', player: active!, discard: ring }); setRing([]); }}>
                  Done discarding
                </button>
              </div>
            </>
          ) : (
            effectMoves.map((m, i) => (
              <button key={i} class="btn" onClick={() => send(m)} data-testid={`tw-effect-${i}`}>
                {describe(m, name)}
              </button>
            ))
          )}
          <button class="btn" onClick={() => send({ type: 'decline', player: active! })} data-testid="tw-decline">
            Leave it unused
          </button>
        </div>
      )}
      {picking && (
        <CardPicker
          kinds={picking === 'dig' ? kindsAfterDraw(state) : hiddenKinds(state)}
          lock={picking === 'play' ? state.lock : null}
          title={picking === 'play' ? 'Which card?' : 'Which card was discarded?'}
          onClose={() => setPicking(null)}
          onPick={(k) => {
            const mode = picking;
            setPicking(null);
            if (mode === 'play') {
              setCard(k);
              setChosen(null);
            } else if (mode === 'dig') send({ type: 'dig', player: active!, discard: k.id });
            else setRing([...ring, k.id]);
          }}
        />
      )}
      {state.phase === 'over' && (
        <section class="card" data-testid="tw-over">
          <h2>{state.winner ? `${name(state.winner)} wins` : 'No winner'}</h2>
        </section>
      )}
      {!legal.deck.official && <p class="muted small">Deck: {legal.deck.name} (not the publisher's card list).</p>}
    </div>
  );
}

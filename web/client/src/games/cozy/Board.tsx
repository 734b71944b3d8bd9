/**
 * A Worm & Cozy sheet as SVG: the grid with rocks, the hour's region tinted, the worms drawn as
 * worms (a thick line through their cells) with their organs (the organ dice's own art) and
 * foods, and on top the highlights: legal cells, the chosen move, problems. Each cell is a target
 * (`data-cell="C4"`); the score editor also draws worms by dragging.
 */
import { useRef } from 'preact/hooks';
import type { Chapter, Worm } from '../../../../../shared/games/worm-and-cozy/index.js';
import { geometry, type Geometry } from '../../../../../shared/games/worm-and-cozy/index.js';
import { classOf, faceArt, type FaceArt } from '../../../../../vision/faces/index.js';
import { pressed } from '../../ui/keys.js';

export const CELL = 10;
const M = 7;

const organArt = new Map<string, FaceArt>();
function art(type: string): FaceArt {
  let a = organArt.get(type);
  if (!a) {
    a = faceArt(classOf('cozy-organ', type));
    organArt.set(type, a);
  }
  return a;
}

export interface DragHandlers {
  start(cell: string): void;
  enter(cell: string): void;
  end(): void;
}

export interface BoardProps {
  chapter: Chapter;
  worms: readonly Worm[];
  foods: readonly number[];
  /** Cell indices of the hour's region. */
  region?: readonly number[] | undefined;
  /** Legal cells for what is being chosen. */
  highlight?: ReadonlySet<string> | undefined;
  /** Cells of the move about to be confirmed. */
  preview?: readonly string[] | undefined;
  /** Cells with a problem (score editor). */
  marks?: ReadonlySet<string> | undefined;
  /** Cells chosen so far (a path being drawn, a baby's cells). */
  chosen?: readonly string[] | undefined;
  onCell?: ((cell: string) => void) | undefined;
  drag?: DragHandlers | undefined;
  wormColor?: string | undefined;
  zoom?: boolean | undefined;
  label?: string;
}

const centre = (g: Geometry, cell: number): [number, number] => {
  const x = cell % g.width;
  const y = (cell - x) / g.width;
  return [M + x * CELL + CELL / 2, M + y * CELL + CELL / 2];
};

const corner = (g: Geometry, name: string): [number, number] | null => {
  const i = g.names.indexOf(name);
  if (i < 0) return null;
  const x = i % g.width;
  return [M + x * CELL, M + ((i - x) / g.width) * CELL];
};

const ARROW: Record<string, string> = {
  N: 'M0 -4.6 L1.6 -3.2 L-1.6 -3.2 Z',
  S: 'M0 4.6 L1.6 3.2 L-1.6 3.2 Z',
  E: 'M4.6 0 L3.2 1.6 L3.2 -1.6 Z',
  W: 'M-4.6 0 L-3.2 1.6 L-3.2 -1.6 Z',
};

function WormShape({ g, worm, color }: { g: Geometry; worm: Worm; color: string }) {
  const pts = worm.cells.map((c) => centre(g, c).join(',')).join(' ');
  return (
    <g class="worm" data-worm={worm.id}>
      <polyline points={pts} fill="none" stroke="#5a2f2f" stroke-width="7.6" stroke-linecap="round" stroke-linejoin="round" />
      <polyline points={pts} fill="none" stroke={color} stroke-width="6.2" stroke-linecap="round" stroke-linejoin="round" />
      {worm.organs.map((o) => {
        const [cx, cy] = centre(g, o.cell);
        const a = art(o.type);
        return (
          <g key={o.cell} transform={`translate(${cx} ${cy})`} data-organ={o.type}>
            <circle r="3.7" fill={o.filled ? '#8a8a8a' : '#fffdf5'} stroke="#5a2f2f" stroke-width="0.5" />
            <g transform="translate(-3.1 -3.1) scale(0.062)">
              {a.paths.map((p, i) => (
                <path key={i} d={p.d} fill={p.fill === 'ink' ? '#1d1d1f' : '#fffdf5'} />
              ))}
            </g>
            {o.facing && <path d={ARROW[o.facing]} fill="#1d1d1f" />}
            {o.filled && <path d="M-3 -3 L3 3 M3 -3 L-3 3" stroke="#1d1d1f" stroke-width="0.8" />}
          </g>
        );
      })}
    </g>
  );
}

export function Board(props: BoardProps) {
  const { chapter, worms, foods, region, highlight, preview, marks, chosen, onCell, drag, wormColor = '#f0a3a3', zoom } = props;
  const g = geometry(chapter);
  const W = M * 2 + g.width * CELL;
  const H = M * 2 + g.height * CELL;
  const svg = useRef<SVGSVGElement>(null);
  const dragging = useRef(false);
  const regionSet = new Set(region ?? []);

  const cellAt = (clientX: number, clientY: number): string | null => {
    const el = svg.current;
    const m = el?.getScreenCTM();
    if (!el || !m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    const x = Math.floor((p.x - M) / CELL);
    const y = Math.floor((p.y - M) / CELL);
    if (x < 0 || y < 0 || x >= g.width || y >= g.height) return null;
    return g.names[y * g.width + x] ?? null;
  };

  const pointer = drag
    ? {
        onPointerDown: (e: PointerEvent) => {
          const c = cellAt(e.clientX, e.clientY);
          if (!c) return;
          dragging.current = true;
          (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
          e.preventDefault();
          drag.start(c);
        },
        onPointerMove: (e: PointerEvent) => {
          if (!dragging.current) return;
          const c = cellAt(e.clientX, e.clientY);
          if (c) drag.enter(c);
        },
        onPointerUp: () => {
          if (!dragging.current) return;
          dragging.current = false;
          drag.end();
        },
        onPointerCancel: () => {
          dragging.current = false;
          drag.end();
        },
      }
    : {};

  const cells = [];
  for (let i = 0; i < g.size; i++) {
    const name = g.names[i]!;
    const x = i % g.width;
    const y = (i - x) / g.width;
    const px = M + x * CELL;
    const py = M + y * CELL;
    const cls = ['cell', regionSet.has(i) ? 'region' : '', highlight?.has(name) ? 'legal' : '', marks?.has(name) ? 'mark' : ''].filter(Boolean).join(' ');
    const tap = onCell && !drag ? () => onCell(name) : undefined;
    // The lit cells (where a move may go) are buttons for the keyboard and screen readers too.
    const lit = tap && highlight?.has(name);
    cells.push(
      <rect
        key={name}
        class={cls}
        data-cell={name}
        x={px}
        y={py}
        width={CELL}
        height={CELL}
        onClick={tap}
        {...(lit ? { tabindex: 0, role: 'button', 'aria-label': name, onKeyDown: (e: KeyboardEvent) => pressed(e) && tap() } : {})}
      />,
    );
    if (g.rock[i]) {
      cells.push(<rect key={`r${name}`} class="rock" x={px + 1.2} y={py + 1.2} width={CELL - 2.4} height={CELL - 2.4} rx="3" pointer-events="none" />);
    }
  }
  const labels = [];
  for (let x = 0; x < g.width; x++) {
    labels.push(
      <text key={`c${x}`} x={M + x * CELL + CELL / 2} y={M - 1.8} class="axis">
        {String.fromCharCode(65 + x)}
      </text>,
    );
  }
  for (let y = 0; y < g.height; y++) {
    labels.push(
      <text key={`r${y}`} x={M / 2} y={M + y * CELL + CELL / 2 + 1.5} class="axis">
        {y + 1}
      </text>,
    );
  }
  const box = (name: string, cls: string, key: string) => {
    const c = corner(g, name);
    return c ? <rect key={key} class={cls} x={c[0] + 0.6} y={c[1] + 0.6} width={CELL - 1.2} height={CELL - 1.2} rx="1.5" pointer-events="none" /> : null;
  };
  return (
    <div class={`board-wrap${zoom ? ' zoom' : ''}`}>
      <svg ref={svg} class="board" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label ?? 'the sheet'} {...pointer}>
        {cells}
        {labels}
        {foods.map((f) => {
          const [cx, cy] = centre(g, f);
          return (
            <g key={`f${f}`} class="food" pointer-events="none" data-food={g.names[f]}>
              <circle cx={cx} cy={cy + 0.4} r="2.6" fill="#c0392b" stroke="#5a1a12" stroke-width="0.4" />
              <path d={`M${cx} ${cy - 2} q1.4 -1.8 2.6 -1.4`} stroke="#2e7d32" stroke-width="0.8" fill="none" />
            </g>
          );
        })}
        <g pointer-events="none">
          {worms.map((w) => (
            <WormShape key={w.id} g={g} worm={w} color={wormColor} />
          ))}
        </g>
        {/* Lit and marked cells stay visible on top of the worms drawn over them. */}
        {[...(highlight ?? [])].map((c) => box(c, 'legal-top', `lt${c}`))}
        {[...(marks ?? [])].map((c) => box(c, 'mark-top', `mk${c}`))}
        {(chosen ?? []).map((c, i) => box(c, 'chosen', `ch${i}`))}
        {(preview ?? []).map((c, i) => box(c, 'preview', `pv${i}`))}
      </svg>
    </div>
  );
}

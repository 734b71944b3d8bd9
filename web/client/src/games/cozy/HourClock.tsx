/**
 * The hour clock: one sector per region of the board (1 … 8), the current hour's lit, the hours
 * already played this half shaded, and the hour in big type beside it ("3 AM").
 */
import type { Chapter } from '../../../../../shared/games/worm-and-cozy/index.js';
import { hourLabel } from '../../../../../shared/games/worm-and-cozy/index.js';

export function HourClock({ chapter, hour, over }: { chapter: Chapter; hour: number; over: boolean }) {
  const n = chapter.clock.regions.length;
  const current = Math.min(hour, chapter.clock.hours - 1);
  const inHalf = current % n;
  const half = chapter.clock.halves[Math.floor(current / n)] ?? '';
  const R = 46;
  const r = 20;
  const sectors = [];
  for (let i = 0; i < n; i++) {
    const a0 = ((i - 0.5) / n) * 2 * Math.PI - Math.PI / 2;
    const a1 = ((i + 0.5) / n) * 2 * Math.PI - Math.PI / 2;
    const p = (a: number, rad: number) => `${(50 + rad * Math.cos(a)).toFixed(2)} ${(50 + rad * Math.sin(a)).toFixed(2)}`;
    const d = `M${p(a0, r)} L${p(a0, R)} A${R} ${R} 0 0 1 ${p(a1, R)} L${p(a1, r)} A${r} ${r} 0 0 0 ${p(a0, r)} Z`;
    const state = over ? 'past' : i === inHalf ? 'now' : i < inHalf ? 'past' : 'future';
    const mid = (i / n) * 2 * Math.PI - Math.PI / 2;
    sectors.push(
      <g key={i} class={`sector ${state}`}>
        <path d={d} />
        <text x={50 + 33 * Math.cos(mid)} y={50 + 33 * Math.sin(mid) + 4}>
          {i + 1}
        </text>
      </g>,
    );
  }
  return (
    <div class="clock" data-testid="hour-clock">
      <svg viewBox="0 0 100 100" width="108" height="108" role="img" aria-label={`hour ${hourLabel(chapter, current)}`}>
        {sectors}
        <text x="50" y="55" class="half">
          {half}
        </text>
      </svg>
      <div>
        <p class="hour" data-testid="hour">
          {over ? 'Over' : hourLabel(chapter, current)}
        </p>
        <p class="muted small">
          hour {Math.min(hour + 1, chapter.clock.hours)} of {chapter.clock.hours}
        </p>
      </div>
    </div>
  );
}

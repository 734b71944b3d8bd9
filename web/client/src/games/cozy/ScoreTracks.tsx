/**
 * The score as the sheet prints it: each reward's track of symbols under their numbers, the ones
 * earned circled, then the penalty track, the total and the rubric line.
 */
import type { Chapter, CozyScore, TrackSymbol } from '../../../../../shared/games/worm-and-cozy/index.js';
import { circledSymbols } from '../../../../../shared/games/worm-and-cozy/index.js';

function Symbol({ s, x }: { s: TrackSymbol['symbol']; x: number }) {
  if (s === 'star') {
    const pts = Array.from({ length: 10 }, (_, i) => {
      const a = (i * Math.PI) / 5 - Math.PI / 2;
      const r = i % 2 ? 2.6 : 6;
      return `${(x + r * Math.cos(a)).toFixed(2)},${(8 + r * Math.sin(a)).toFixed(2)}`;
    }).join(' ');
    return <polygon points={pts} class="sym-star" />;
  }
  if (s === 'circle') return <circle cx={x} cy={8} r={4.4} class="sym-circle" />;
  return <path d={`M${x - 4} 4 L${x + 4} 12 M${x + 4} 4 L${x - 4} 12`} class="sym-x" />;
}

function Track({ track, count, label }: { track: readonly TrackSymbol[]; count: number; label: string }) {
  const circled = circledSymbols(track, count);
  return (
    <div class="track" role="img" aria-label={`${label}: ${circled} of ${track.length} circled`}>
      {track.map((t, i) => {
        const n = t.count ?? 1;
        const w = Math.max(16, n * 14);
        return (
          <div key={i} class={`track-cell${i < circled ? ' circled' : ''}`} data-circled={i < circled ? 'yes' : 'no'}>
            <span class="at">{t.at}</span>
            <svg viewBox={`0 0 ${w} 16`} width={w + 4} height="20" aria-hidden="true">
              {Array.from({ length: n }, (_, k) => (
                <Symbol key={k} s={t.symbol} x={7 + k * 14 + (w - n * 14) / 2} />
              ))}
              {i < circled && <ellipse cx={w / 2} cy={8} rx={w / 2 - 0.5} ry={7.5} class="ring" />}
            </svg>
          </div>
        );
      })}
    </div>
  );
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function ScoreTracks({ chapter, score }: { chapter: Chapter; score: CozyScore }) {
  return (
    <div class="score-tracks" data-testid="score-tracks">
      {chapter.rewards.map((r, i) => {
        const s = score.rewards[i]!;
        return (
          <div key={r.name} class="reward">
            <div class="reward-head">
              <b>{r.name}</b>
              <span class="muted small">{r.text ?? ''}</span>
              <span class="count" data-testid={`reward-${i}`}>
                {s.count} → {signed(s.points)}
              </span>
            </div>
            <Track track={r.track} count={s.count} label={r.name} />
          </div>
        );
      })}
      <div class="reward penalty">
        <div class="reward-head">
          <b>{chapter.penalty.name}</b>
          <span class="count" data-testid="penalty">
            {score.penalty.count} → {signed(score.penalty.points)}
          </span>
        </div>
        <Track track={chapter.penalty.track} count={score.penalty.count} label={chapter.penalty.name} />
      </div>
      <div class="total">
        <span class="big" data-testid="total">
          {score.total}
        </span>
        <span class="rubric" data-testid="rubric">
          {score.rubric}
        </span>
      </div>
    </div>
  );
}

/** A little worm, for counting worms on tiles and in stacks (drawn, not a font glyph). */
export function WormMark({ size = 14 }: { size?: number }) {
  return (
    <svg viewBox="0 0 24 12" width={size * 2} height={size} aria-hidden="true" class="worm-mark">
      <path d="M2 8 C5 2, 8 2, 10 6 S15 10, 17 6 S21 3, 22 5" fill="none" stroke="currentColor" stroke-width="3.2" stroke-linecap="round" />
      <circle cx="21.6" cy="4.6" r="0.9" fill="#fff" />
    </svg>
  );
}

export function Worms({ n, size }: { n: number; size?: number }) {
  return (
    <span class="worms" aria-label={`${n} worm${n === 1 ? '' : 's'}`}>
      {Array.from({ length: n }, (_, i) => (
        <WormMark key={i} size={size} />
      ))}
    </span>
  );
}

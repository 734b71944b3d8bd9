/**
 * Game end: for each reward count its number, circle the track's symbols from the leftmost up to
 * those printed under that number (never more than are printed), add the stars, subtract the X's.
 */
import type { Chapter, Reward, TrackSymbol } from './chapters.js';
import { counterNamed, type BoardView } from './counters.js';

export interface RewardScore {
  name: string;
  count: number;
  points: number;
}

/** Exactly what `npm run score` prints. */
export interface CozyScore {
  rewards: RewardScore[];
  penalty: { count: number; points: number };
  total: number;
  rubric: string;
}

export function symbolPoints(s: TrackSymbol): number {
  const n = s.count ?? 1;
  return s.symbol === 'star' ? n : s.symbol === 'x' ? -n : 0;
}

/** How many symbols of the track are circled for `count`: every one printed under a number ≤ count. */
export function circledSymbols(track: readonly TrackSymbol[], count: number): number {
  let k = 0;
  while (k < track.length && track[k]!.at <= count) k++;
  return k;
}

export function trackPoints(track: readonly TrackSymbol[], count: number): number {
  let points = 0;
  const k = circledSymbols(track, count);
  for (let i = 0; i < k; i++) points += symbolPoints(track[i]!);
  return points;
}

export function countReward(reward: Reward, view: BoardView): number {
  const counter = counterNamed(reward.counter);
  if (!counter) throw new Error(`unknown counter "${reward.counter}" in reward "${reward.name}"`);
  return counter.count(view, reward.params ?? {});
}

export function rubricLine(chapter: Chapter, total: number): string {
  let line = chapter.rubric.lowest;
  for (const s of chapter.rubric.steps) if (total >= s.from) line = s.label;
  return line;
}

export function scoreBoard(chapter: Chapter, view: BoardView): CozyScore {
  const rewards = chapter.rewards.map((r) => {
    const count = countReward(r, view);
    return { name: r.name, count, points: trackPoints(r.track, count) };
  });
  const penaltyCount = countReward(chapter.penalty, view);
  const penalty = { count: penaltyCount, points: trackPoints(chapter.penalty.track, penaltyCount) };
  const total = rewards.reduce((t, r) => t + r.points, 0) + penalty.points;
  return { rewards, penalty, total, rubric: rubricLine(chapter, total) };
}

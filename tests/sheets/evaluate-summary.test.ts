/**
 * eval:sheets' figures: a photo the reader refuses is unreadable, not "wrong and not flagged"
 * (a refused photo has no doubts, and was counted as read wrong without a word).
 */
import { describe, expect, it } from 'vitest';
import { summarise, type PhotoResult } from '../../vision/sheet/evaluate.js';

const photo = (over: Partial<PhotoResult>): PhotoResult => ({ seed: 's', chapter: 'clew-1', trueTotal: -10, cells: 95, cellsRight: 95, organs: 10, organsRight: 10, readTotal: -10, uncertain: 0, uncertainAffectingScore: 0, wrongCells: [], wrongOrgans: [], ms: 1, ...over });

describe('the sheet evaluation summary', () => {
  it('counts a refused photo as unreadable, a wrong score without a doubt that matters as silently wrong, and one with such a doubt as neither', () => {
    const s = summarise([
      photo({}),
      photo({ readTotal: -9 }),
      photo({ readTotal: -9, uncertainAffectingScore: 1 }),
      photo({ readTotal: null, cells: 0, cellsRight: 0, organs: 0, organsRight: 0, error: 'part of the board is covered' }),
    ]);
    expect(s).toMatchObject({ photos: 4, silentlyWrong: 1, failed: 1, scoreEqual: 0.25 });
  });
});

/**
 * The by-eye audit of the reader's errors (eval:errors): the CSV a person fills in, and what
 * the share judged readable says about the best any reader could do on the split.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_HEADER, auditCsv, parseAudit, summariseAudit, wilson, type AuditRow } from '../../vision/model/error-audit.js';

const row = (n: number, readable?: boolean): AuditRow => ({ n, index: 100 + n, set: 'wurmeln', truth: 'num-3', read: 'num-5', confidence: 0.5, ...(readable === undefined ? {} : { readable }) });

describe('the audit CSV', () => {
  it('is written with an empty verdict to fill in, and read back once judged', () => {
    const text = auditCsv([row(0), row(1)]);
    expect(text.split('\n')).toEqual([AUDIT_HEADER, '0,100,wurmeln,num-3,num-5,0.500,', '1,101,wurmeln,num-3,num-5,0.500,', '']);
    const judged = text.replace('0.500,\n1', '0.500,y\n1').replace(/0\.500,\n$/, '0.500,N\n');
    expect(parseAudit(judged).map((r) => r.readable)).toEqual([true, false]);
  });

  it('names the line of a row left unjudged or malformed', () => {
    expect(() => parseAudit(`${AUDIT_HEADER}\n0,100,d6,pips-1,pips-2,0.4,y\n1,101,d6,pips-1,pips-2,0.4,\n`, 'a.csv')).toThrow('a.csv:3: readable must be y or n, got ""');
    expect(() => parseAudit(`${AUDIT_HEADER}\n0,100,d6,pips-1,pips-2,1.4,y\n`, 'a.csv')).toThrow('a.csv:2: confidence must be 0..1');
    expect(() => parseAudit(`${AUDIT_HEADER}\n0,x,d6,pips-1,pips-2,0.4,y\n`, 'a.csv')).toThrow('a.csv:2: index must be a whole number');
    expect(() => parseAudit(`${AUDIT_HEADER}\n0,100,d6,pips-1\n`, 'a.csv')).toThrow('a.csv:2: expected 7 cells, got 4');
    expect(() => parseAudit('n,index\n', 'a.csv')).toThrow('a.csv:1: expected the header');
    expect(() => parseAudit(`${AUDIT_HEADER}\n`, 'a.csv')).toThrow('a.csv: no judged rows');
  });
});

describe('what the audit implies', () => {
  it("Wilson's interval: 53 of 128 is 33.2–50.1 %, and it stays within 0..1 at the ends", () => {
    const [lo, hi] = wilson(53, 128);
    expect(lo).toBeCloseTo(0.332, 3);
    expect(hi).toBeCloseTo(0.501, 3);
    expect(wilson(0, 10)[0]).toBe(0);
    expect(wilson(10, 10)[1]).toBeCloseTo(1, 12);
  });

  it('the ceiling counts the unreadable share of the errors as errors still: 366 errors of 2,800, 53 of 128 readable → 92.3 %', () => {
    const rows = Array.from({ length: 128 }, (_, n) => row(n, n < 53));
    const s = summariseAudit(rows, 366, 2800);
    expect(s.readable).toBe(53);
    expect(s.share).toBeCloseTo(53 / 128, 12);
    expect(s.ceiling).toBeCloseTo(1 - (366 * 75) / 128 / 2800, 12);
    expect(s.ceiling).toBeCloseTo(0.923, 3);
    // A larger readable share means fewer errors left: the interval's order follows.
    expect(s.ceilingInterval[0]).toBeLessThan(s.ceiling);
    expect(s.ceilingInterval[1]).toBeGreaterThan(s.ceiling);
  });

  it('every error readable: the ceiling is every die read right', () => {
    expect(summariseAudit([row(0, true), row(1, true)], 10, 100).ceiling).toBe(1);
  });

  it('refuses counts that cannot be', () => {
    expect(() => summariseAudit([row(0, true)], 11, 10)).toThrow(RangeError);
    expect(() => summariseAudit([row(0)], 1, 10)).toThrow('no judged rows');
  });
});

/**
 * A by-eye audit of the reader's errors on a rendered split: a seeded sample of the errors is
 * shown to a person, who marks each "could a careful player read this die's top face?" (y/n).
 * From that share follows how far a reader would get that read right every die the person can
 * read, and no other. It is a person's bound, not the split's: a net trained on the renderer's
 * looks read 52 of 75 crops judged unreadable (docs/notes/vision-model.md, "How far the split
 * can be read"). Pure: the CSV in and out, and the figures.
 */

export interface AuditRow {
  /** Position in the sample (as numbered on the contact sheet). */
  n: number;
  /** The crop's index in the split. */
  index: number;
  set: string;
  truth: string;
  read: string;
  confidence: number;
  /** The person's verdict; undefined until judged. */
  readable?: boolean;
}

export const AUDIT_HEADER = 'n,index,set,truth,read,confidence,readable';

export function auditCsv(rows: readonly AuditRow[]): string {
  const cell = (r: AuditRow) => (r.readable === undefined ? '' : r.readable ? 'y' : 'n');
  return [AUDIT_HEADER, ...rows.map((r) => `${r.n},${r.index},${r.set},${r.truth},${r.read},${r.confidence.toFixed(3)},${cell(r)}`)].join('\n') + '\n';
}

/** Parses a judged audit; every row must be judged y or n. Errors name the line. */
export function parseAudit(text: string, file = 'audit'): AuditRow[] {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== AUDIT_HEADER) throw new Error(`${file}:1: expected the header "${AUDIT_HEADER}", got "${lines[0] ?? ''}"`);
  const rows: AuditRow[] = [];
  lines.slice(1).forEach((line, k) => {
    if (line.trim() === '') return;
    const at = `${file}:${k + 2}`;
    const cells = line.split(',');
    if (cells.length !== 7) throw new Error(`${at}: expected 7 cells, got ${cells.length}`);
    const [n, index, set, truth, read, confidence, verdict] = cells as [string, string, string, string, string, string, string];
    const whole = (name: string, v: string) => {
      const x = Number(v);
      if (!Number.isInteger(x) || x < 0) throw new Error(`${at}: ${name} must be a whole number ≥ 0, got "${v}"`);
      return x;
    };
    const c = Number(confidence);
    if (!(c >= 0 && c <= 1)) throw new Error(`${at}: confidence must be 0..1, got "${confidence}"`);
    const v = verdict.trim().toLowerCase();
    if (v !== 'y' && v !== 'n') throw new Error(`${at}: readable must be y or n, got "${verdict}"`);
    rows.push({ n: whole('n', n), index: whole('index', index), set, truth, read, confidence: c, readable: v === 'y' });
  });
  if (rows.length === 0) throw new Error(`${file}: no judged rows`);
  return rows;
}

/** Wilson's 95 % interval for a share k of n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n <= 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, mid - half), Math.min(1, mid + half)];
}

export interface AuditSummary {
  judged: number;
  readable: number;
  /** Share of the sampled errors judged readable, and its 95 % interval. */
  share: number;
  shareInterval: [number, number];
  /**
   * The accuracy a reader would reach on the split reading every readable die right and every
   * other die as this reader does: 1 − (errors × unreadable share) / crops; with the interval
   * that follows from the share's. A bound for readers that see what a person sees; a net can
   * pass it.
   */
  ceiling: number;
  ceilingInterval: [number, number];
}

export function summariseAudit(rows: readonly AuditRow[], errors: number, crops: number): AuditSummary {
  if (!(crops > 0 && errors >= 0 && errors <= crops)) throw new RangeError(`summariseAudit: need 0 ≤ errors ≤ crops and crops > 0, got ${errors} of ${crops}`);
  const judged = rows.filter((r) => r.readable !== undefined);
  if (judged.length === 0) throw new Error('summariseAudit: no judged rows');
  const readable = judged.filter((r) => r.readable).length;
  const [lo, hi] = wilson(readable, judged.length);
  const ceilingAt = (share: number) => 1 - (errors * (1 - share)) / crops;
  return { judged: judged.length, readable, share: readable / judged.length, shareInterval: [lo, hi], ceiling: ceilingAt(readable / judged.length), ceilingInterval: [ceilingAt(lo), ceilingAt(hi)] };
}

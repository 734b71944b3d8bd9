/** One measured figure for `npm run bench`. Each file in scripts/bench/ exports `figures()`. */
export interface Figure {
  /** Stable key for --json, e.g. "cozy.legalOptions.ms". */
  id: string;
  label: string;
  value: number;
  unit: string;
  /** The target, when it names one. */
  target?: { op: '<=' | '>='; value: number };
  note?: string;
}

export interface BenchModule {
  /** Group title in the table. */
  title: string;
  figures(options: { quick: boolean }): Promise<Figure[]>;
}

/**
 * A small leveled logger. The server logs what it chose and what went wrong to the terminal (or
 * the journal on a Pi); tests pass a collecting logger to read the warnings. Its shape is a
 * superset of device/'s logger, so the same one is handed to the adapters.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
type Write = (message: string, fields?: LogFields) => void;

export interface Logger {
  debug: Write;
  info: Write;
  warn: Write;
  error: Write;
}

const rank: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function consoleLogger(level: Level = 'info', write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const at =
    (lvl: Level): Write =>
    (message, fields) => {
      if (rank[lvl] < rank[level]) return;
      const extra = fields && Object.keys(fields).length ? ' ' + JSON.stringify(fields) : '';
      write(`clew ${lvl.padEnd(5)} ${message}${extra}`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Keeps every line in memory (for tests). */
export function collectingLogger(): Logger & { lines: { level: Level; message: string }[] } {
  const lines: { level: Level; message: string }[] = [];
  const at =
    (level: Level): Write =>
    (message) =>
      void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * A small leveled logger. The server logs what it chose and what went wrong to the terminal (or
 * the journal on a Pi); tests pass a collecting logger to read the warnings.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const rank: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function consoleLogger(level: Level = 'info', write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const at = (lvl: Level) => (message: string) => {
    if (rank[lvl] >= rank[level]) write(`clew ${lvl.padEnd(5)} ${message}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Keeps every line in memory (for tests), optionally passing them on. */
export function collectingLogger(): Logger & { lines: { level: Level; message: string }[] } {
  const lines: { level: Level; message: string }[] = [];
  const at = (level: Level) => (message: string) => void lines.push({ level, message });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

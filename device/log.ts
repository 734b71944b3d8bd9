/**
 * The small logger every device adapter takes. The server passes its own; tests pass a
 * `memoryLogger()` and read what was said. Fields are plain JSON-able values (paths, pins, codes).
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type LogLevel = keyof Logger;

export interface LogEntry {
  level: LogLevel;
  message: string;
  fields?: LogFields;
}

/** Says nothing. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** One line per message on stderr: `[clew:device] warn  message {"pin":17}`. */
export function consoleLogger(prefix = 'clew:device'): Logger {
  const write = (level: LogLevel) => (message: string, fields?: LogFields) => {
    const extra = fields && Object.keys(fields).length ? ' ' + JSON.stringify(fields) : '';
    process.stderr.write(`[${prefix}] ${level.padEnd(5)} ${message}${extra}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

/** Keeps every entry in memory (for tests and for the health page's recent messages). */
export function memoryLogger(): Logger & { entries: LogEntry[]; messages(level?: LogLevel): string[] } {
  const entries: LogEntry[] = [];
  const write = (level: LogLevel) => (message: string, fields?: LogFields) => {
    entries.push(fields ? { level, message, fields } : { level, message });
  };
  return {
    entries,
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    messages: (level) => entries.filter((e) => !level || e.level === level).map((e) => e.message),
  };
}

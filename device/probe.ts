/**
 * How device/ looks at the machine: find a program on PATH, run a short command, list a folder.
 * Detection code takes a `Probe` so tests can point it at fake programs and temp folders.
 * None of these throws: a missing program or folder is an ordinary answer.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface RunResult {
  /** Exit code, or null when the program could not be run or was killed on timeout. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Probe {
  findExecutable(name: string): Promise<string | null>;
  run(bin: string, args: string[], timeoutMs: number): Promise<RunResult>;
  listDir(dir: string): Promise<string[]>;
}

export function systemProbe(searchPath = process.env.PATH ?? ''): Probe {
  return {
    async findExecutable(name) {
      if (name.includes('/')) return (await isExecutable(name)) ? name : null;
      for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
        const candidate = path.join(dir, name);
        if (await isExecutable(candidate)) return candidate;
      }
      return null;
    },
    run(bin, args, timeoutMs) {
      return new Promise((resolve) => {
        execFile(bin, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          resolve({ code, stdout: stdout ?? '', stderr: (stderr ?? '') || (error && code === null ? error.message : '') });
        });
      });
    },
    async listDir(dir) {
      try {
        return await readdir(dir);
      } catch {
        return [];
      }
    },
  };
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

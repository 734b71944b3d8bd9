/**
 * The table server's figures, measured on the real thing.
 *
 * Latency: the server runs in this process (the real table, log with fsync, socket.io) and 50
 * phones run in a worker thread (their own event loop, as phones have their own CPUs); times are
 * absolute (timeOrigin + now) so both sides compare.
 * - delivery: from the server's broadcast of a change to each phone holding the new snapshot;
 * - intent → phone: from the referee sending an intent to each phone holding the result
 *   (validation, the move, the fsync, the broadcast and the decode on the phone);
 * - settled roll → phone: from a settled camera roll entering the table to each phone showing it.
 * Memory: `npm start`'s entry as a child process (replay camera, the model when it loads) with 50
 * phones connected during a game; the resident memory of it and its children.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import type { Ack, TableSnapshot } from '../../shared/protocol.js';
import { parseConfig } from '../../web/server/config.js';
import { silentLogger } from '../../web/server/logger.js';
import { startClew } from '../../web/server/main.js';
import type { BenchModule, Figure } from './types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHONES = 50;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Resident memory of a process and its descendants, in MB (Linux /proc). */
async function treeRssMb(pid: number): Promise<number> {
  let kb = 0;
  const visit = async (p: number): Promise<void> => {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    if (m) kb += Number(m[1]);
    const children = await readFile(`/proc/${p}/task/${p}/children`, 'utf8').catch(() => '');
    for (const c of children.trim().split(/\s+/).filter(Boolean)) await visit(Number(c));
  };
  await visit(pid);
  return kb / 1024;
}

function send(socket: Socket, version: number, intent: unknown): Promise<Ack> {
  return new Promise((resolve) => socket.emit('intent', { version, intent }, resolve));
}

async function startCompanion(dataDir: string): Promise<{ pid: number; port: number; v8Flags: string[]; stop: () => Promise<void> }> {
  const config = path.join(dataDir, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logLevel: 'warn',
      table: { game: 'worm-and-cozy' },
      limits: { intentsPerSecond: 10_000, intentBurst: 100_000 },
      device: { camera: { kind: 'replay' }, keyboard: 'off', gpio: { enabled: 'off' }, serial: { path: 'none' } },
    }),
  );
  // The same V8 flags as `npm start` (package.json), so the figure is the companion's.
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const v8Flags = pkg.scripts.start.match(/--max-[\w-]+=\d+/g) ?? [];
  const child = spawn(process.execPath, [...v8Flags, '--import', 'tsx', path.join(root, 'scripts/start.ts'), '--config', config, '--no-qr'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /clew is running: \S+:(\d+)/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    void exited.then(() => reject(new Error(`the companion exited: ${stderr.slice(-2000)}`)));
  });
  return {
    pid: child.pid!,
    port,
    v8Flags,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}


const abs = () => performance.timeOrigin + performance.now();

/** The phones' side, in a worker thread: connect, record when each version arrives, report. */
const PHONES_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { io } = require(workerData.client);
const now = () => performance.timeOrigin + performance.now();
const arrivals = [];
const sockets = [];
let waitFor = null;
function check() {
  if (waitFor !== null && arrivals.every((a) => a[waitFor] !== undefined)) {
    const v = waitFor;
    waitFor = null;
    parentPort.postMessage({ type: 'all', version: v });
  }
}
(async () => {
  for (let i = 0; i < workerData.phones; i++) {
    arrivals.push({});
    await new Promise((resolve, reject) => {
      const s = io(workerData.url, { transports: ['websocket'], reconnection: false, forceNew: true });
      s.on('snapshot', (snap) => {
        if (arrivals[i][snap.version] === undefined) arrivals[i][snap.version] = now();
        check();
      });
      s.once('snapshot', resolve);
      s.once('connect_error', reject);
      sockets.push(s);
    });
  }
  parentPort.postMessage({ type: 'ready' });
})();
parentPort.on('message', (m) => {
  if (m.type === 'wait') { waitFor = m.version; check(); }
  if (m.type === 'report') parentPort.postMessage({ type: 'arrivals', arrivals });
  if (m.type === 'close') { for (const s of sockets) s.disconnect(); parentPort.close(); }
});
`;

function phonesWorker(url: string, phones: number) {
  const client = createRequire(import.meta.url).resolve('socket.io-client');
  const worker = new Worker(PHONES_WORKER, { eval: true, workerData: { url, phones, client } });
  const waiting = new Map<string, (m: { type: string; version?: number; arrivals?: Record<number, number>[] }) => void>();
  worker.on('message', (m: { type: string; version?: number }) => {
    const key = m.type === 'all' ? `all:${m.version}` : m.type;
    waiting.get(key)?.(m);
    waiting.delete(key);
  });
  const next = <T>(key: string) => new Promise<T>((resolve) => waiting.set(key, resolve as (m: unknown) => void));
  return {
    ready: next<void>('ready'),
    /** Resolves when every phone holds `version`. */
    all(version: number): Promise<unknown> {
      const p = next(`all:${version}`);
      worker.postMessage({ type: 'wait', version });
      return p;
    },
    async arrivals(): Promise<Record<number, number>[]> {
      const p = next<{ arrivals: Record<number, number>[] }>('arrivals');
      worker.postMessage({ type: 'report' });
      return (await p).arrivals;
    },
    async close() {
      worker.postMessage({ type: 'close' });
      await new Promise((r) => worker.once('exit', r));
    },
  };
}

function connect(url: string, auth?: Record<string, unknown>): Promise<{ socket: Socket; latest: () => TableSnapshot | null }> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...(auth ? { auth } : {}) });
    let latest: TableSnapshot | null = null;
    socket.on('snapshot', (s: TableSnapshot) => (latest = s));
    socket.once('connect_error', reject);
    socket.once('snapshot', () => resolve({ socket, latest: () => latest }));
  });
}

const ROLL = [
  { set: 'd6', face: '2', color: 'red' },
  { set: 'd6', face: '1', color: 'white' },
  { set: 'd6', face: '6', color: 'white' },
] as const;

async function latency(quick: boolean): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'clew-bench-latency-'));
  const config = parseConfig({ port: 0, host: '127.0.0.1', dataDir, table: { game: 'worm-and-cozy' }, limits: { intentsPerSecond: 10_000, intentBurst: 100_000 } }, {});
  const clew = await startClew({ config, logger: silentLogger, adapters: { camera: null, phoneCamera: null, buttons: [], led: null } });
  const emitted = new Map<number, number>();
  const broadcast = clew.transport.broadcast;
  clew.transport.broadcast = () => {
    emitted.set(clew.session.table.version, abs());
    broadcast();
  };
  const phones = phonesWorker(clew.url, PHONES);
  const referee = await connect(clew.url, { role: 'referee', code: clew.codes.refereeCode });
  try {
    await phones.ready;
    const sent = new Map<number, number>();
    let version = referee.latest()!.version;
    const first = await send(referee.socket, version, { type: 'dice/manual', dice: ROLL });
    if (!first.ok) throw new Error(`bench: the roll was refused: ${first.message}`);
    version = first.version;
    await phones.all(version);

    // A Worm & Cozy roll's dice corrected back and forth: each is a logged change to every phone.
    const changes = quick ? 40 : 300;
    for (let i = 0; i < changes; i++) {
      const t0 = abs();
      const ack = await send(referee.socket, version, { type: 'dice/correct', index: 1 + (i % 2), face: String(1 + (i % 6)) });
      if (!ack.ok) throw new Error(`bench: change ${i} refused: ${ack.message}`);
      version = ack.version;
      sent.set(version, t0);
      await phones.all(version);
    }
    // Settled rolls from the camera, entering the table as the camera pipeline hands them over.
    const rolls = quick ? 20 : 100;
    const cameraAt = new Map<number, number>();
    for (let i = 0; i < rolls; i++) {
      const t0 = abs();
      const ack = await clew.session.cameraRoll(
        ROLL.map((d, k) => ({ ...d, face: String(1 + ((i + k) % 6)), confidence: 0.97, box: [10 + 40 * k, 10, 40 + 40 * k, 40] as [number, number, number, number] })),
        'camera',
      );
      if (!ack.ok) throw new Error(`bench: camera roll ${i} refused: ${ack.message}`);
      cameraAt.set(ack.version, t0);
      await phones.all(ack.version);
    }

    const arrivals = await phones.arrivals();
    const delivery: number[] = [];
    const endToEnd: number[] = [];
    const camera: number[] = [];
    for (const byVersion of arrivals) {
      for (const [v, t] of sent) {
        endToEnd.push(byVersion[v]! - t);
        delivery.push(byVersion[v]! - emitted.get(v)!);
      }
      for (const [v, t] of cameraAt) camera.push(byVersion[v]! - t);
    }
    for (const a of [delivery, endToEnd, camera]) a.sort((x, y) => x - y);
    const note = `${changes} changes x ${PHONES} phones, loopback`;
    return [
      { id: 'server.snapshot50.p50.ms', label: `snapshot delivery to ${PHONES} phones, p50 (broadcast → phone)`, value: percentile(delivery, 50), unit: 'ms' },
      { id: 'server.snapshot50.p99.ms', label: `snapshot delivery to ${PHONES} phones, p99`, value: percentile(delivery, 99), unit: 'ms', target: { op: '<=', value: 20 }, note },
      { id: 'server.intent50.p50.ms', label: `intent → ${PHONES} phones, p50 (incl. validation, fsync)`, value: percentile(endToEnd, 50), unit: 'ms' },
      { id: 'server.intent50.p99.ms', label: `intent → ${PHONES} phones, p99`, value: percentile(endToEnd, 99), unit: 'ms', note: 'the fsync of each change is inside this figure' },
      {
        id: 'server.settledRoll.p99.ms',
        label: `settled roll → ${PHONES} phones, p99 (table part)`,
        value: percentile(camera, 99),
        unit: 'ms',
        note: `${rolls} rolls; from the roll entering the table (decode and reading excluded)`,
      },
    ];
  } finally {
    referee.socket.disconnect();
    await phones.close();
    await clew.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Settled frame → phone, with the real reader: the replay sequence is fed to a phone camera
 * (device/'s PhoneCamera, in process) one frame at a time; the latency runs from pushing the frame
 * that completes the settle to each of the 50 phones holding the roll. It holds decoding, the
 * motion test, the last still frame's read and the vote, the table, the fsync and the broadcast;
 * it leaves out the settle wait itself (the still frames before).
 */
async function settledFrame(quick: boolean): Promise<Figure[]> {
  const { PhoneCamera } = await import('../../device/camera/phone.js');
  const { DEFAULT_REPLAY_FOLDER } = await import('../../device/config.js');
  const names = (await readdir(DEFAULT_REPLAY_FOLDER)).filter((n) => /\.jpe?g$/.test(n)).sort();
  const frames = await Promise.all(names.map(async (n) => new Uint8Array(await readFile(path.join(DEFAULT_REPLAY_FOLDER, n)))));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'clew-bench-camera-'));
  const phoneCamera = new PhoneCamera({ maxBytes: 5_000_000, maxFps: 30 });
  const config = parseConfig({ port: 0, host: '127.0.0.1', dataDir, table: { game: 'worm-and-cozy' }, limits: { intentsPerSecond: 10_000, intentBurst: 100_000 } }, {});
  const clew = await startClew({ config, logger: silentLogger, adapters: { camera: null, phoneCamera, buttons: [], led: null } });
  const phones = phonesWorker(clew.url, PHONES);
  const referee = await connect(clew.url, { role: 'referee', code: clew.codes.refereeCode });
  const pipeline = clew.pipelines[0]!;
  const idle = async () => {
    while (pipeline.working()) await new Promise((r) => setTimeout(r, 2));
  };
  try {
    await phones.ready;
    // Load the model before timing anything (it loads on first use).
    const loadStarted = performance.now();
    await clew.reader.get();
    const loadMs = performance.now() - loadStarted;
    const rolls = quick ? 3 : 10;
    const samples: number[] = [];
    for (let r = 0; r < rolls; r++) {
      const before = clew.session.table.version;
      let settledAt = 0;
      for (const jpeg of frames) {
        const t = abs();
        phoneCamera.push(jpeg);
        await new Promise((res) => setTimeout(res, 5)); // the pipeline picks the frame up
        await idle();
        if (clew.session.table.version > before && clew.session.table.roll?.source === 'phone-camera') {
          settledAt = t;
          break;
        }
        await new Promise((res) => setTimeout(res, 40)); // under the phone camera's frame rate
      }
      if (!settledAt) throw new Error('bench: the replay never settled into a roll');
      const version = clew.session.table.version;
      await phones.all(version);
      const arrivals = await phones.arrivals();
      for (const a of arrivals) samples.push(a[version]! - settledAt);
      // A different roll entered by hand (the next pass is the replay's other roll: the camera does
      // not offer again the dice it read last, so a replay of one roll would settle only once).
      const ack = await send(referee.socket, version, { type: 'dice/manual', dice: ROLL.map((d) => ({ ...d, face: '1' })) });
      if (!ack.ok) throw new Error(`bench: ${ack.message}`);
      await phones.all(ack.version);
    }
    samples.sort((a, b) => a - b);
    // The reader alone on the settled frame, in the same process: the rest is the server's part.
    const { decodeImage } = await import('../../vision/image/decode.js');
    const still = await decodeImage(frames[frames.length - 1]!);
    const reader = await clew.reader.get();
    const reads: number[] = [];
    for (let i = 0; i < (quick ? 3 : 10); i++) {
      const t = performance.now();
      await reader.read(still, { sets: ['d6'], palette: ['red', 'white', 'yellow'] });
      reads.push(performance.now() - t);
    }
    reads.sort((a, b) => a - b);
    return [
      { id: 'server.settledFrame.p50.ms', label: `settled frame → ${PHONES} phones, p50 (real reader)`, value: percentile(samples, 50), unit: 'ms' },
      {
        id: 'server.settledFrame.p99.ms',
        label: `settled frame → ${PHONES} phones, p99 (real reader)`,
        value: percentile(samples, 99),
        unit: 'ms',
        target: { op: '<=', value: 150 },
        note: `${rolls} rolls of npm start's replay (three d6 each, its two rolls in turn; four d6 before the forty-second session), 640x480; model loaded once in ${Math.round(loadMs)} ms (${clew.reader.status().backend ?? '?'})`,
      },
      { id: 'server.readerAlone.p50.ms', label: 'of which the reader alone: one 640x480 tray read, p50', value: percentile(reads, 50), unit: 'ms', note: 'vision/ locate + classify (its own bench has the details)' },
    ];
  } finally {
    referee.socket.disconnect();
    await phones.close();
    await clew.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function memory(quick: boolean): Promise<Figure[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'clew-bench-memory-'));
  const companion = await startCompanion(dataDir);
  const url = `http://127.0.0.1:${companion.port}`;
  let peak = 0;
  const sampler = setInterval(() => void treeRssMb(companion.pid).then((mb) => (peak = Math.max(peak, mb))), 100);
  const sockets: Socket[] = [];
  try {
    const codes = JSON.parse(await readFile(path.join(dataDir, 'codes.json'), 'utf8')) as { refereeCode: string };
    const referee = await connect(url, { role: 'referee', code: codes.refereeCode });
    sockets.push(referee.socket);
    for (let i = 0; i < PHONES; i++) sockets.push((await connect(url)).socket);
    let version = referee.latest()!.version;
    for (let i = 0; i < (quick ? 30 : 200); i++) {
      const intent = i % 2 === 0 ? { type: 'dice/manual', dice: ROLL } : { type: 'dice/correct', index: 0, face: String(1 + (i % 6)) };
      const ack = await send(referee.socket, version, intent);
      if (ack.ok) version = ack.version;
    }
    // Let the reader load (the replay camera's first frames while the game expects dice), then
    // run through the replay a few times, reading each settled tray.
    let model = 'not loaded';
    for (let i = 0; i < 600; i++) {
      const health = (await (await fetch(`${url}/api/health`)).json()) as { model: { backend?: string; message?: string; ok: boolean } };
      model = health.model.message ?? '';
      if (health.model.backend || !health.model.ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, quick ? 3000 : 10_000));
    peak = Math.max(peak, await treeRssMb(companion.pid));
    return [
      {
        id: 'server.rss.mb',
        label: 'companion resident memory, peak during a game',
        value: peak,
        unit: 'MB',
        target: { op: '<=', value: 300 },
        note: `npm start (${companion.v8Flags.join(' ') || 'no V8 flags'}), replay camera, reader: ${model}; ${PHONES + 1} phones; node + children`,
      },
    ];
  } finally {
    clearInterval(sampler);
    for (const s of sockets) s.disconnect();
    await companion.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const bench: BenchModule = {
  title: 'server',
  async figures({ quick }) {
    const figures = [...(await latency(quick)), ...(await memory(quick))];
    try {
      figures.push(...(await settledFrame(quick)));
    } catch (error) {
      // Without the model files (vision/ not trained yet) this figure cannot be taken; say so.
      process.stderr.write(`bench server: settled frame → phone not measured: ${(error as Error).message}\n`);
    }
    return figures;
  },
};

export default bench;

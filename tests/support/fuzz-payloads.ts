/**
 * Seeded random and malformed messages for the socket fuzz test: wrong types, huge strings, deep
 * nesting, unknown intents, wrong versions, binary junk, near-misses of valid intents, unknown
 * events and raw protocol garbage. Same seed, same messages.
 */
import type { Rng } from '../../shared/rng.js';

export type FuzzMessage =
  /** A socket.io event with an ack (the server's answer tells when it was handled). */
  | { kind: 'emit'; event: string; args: unknown[]; category: string }
  /** A raw engine.io packet string, bypassing the client's encoder (may close the connection). */
  | { kind: 'raw'; packet: string; category: string };

const INTENT_TYPES = ['move', 'undo', 'button', 'table/setup', 'dice/read', 'dice/correct', 'dice/manual', 'dice/confirm', 'calibration/label', 'calibration/commit', 'calibration/undo', 'tray/learn', 'tray/forget'];
const SETS = ['d6', 'worm', 'piecepack', 'wurmeln', 'cozy-shape', 'cozy-organ', 'd20', ''];
const FACES = ['1', '2', '3', '4', '5', '6', '7', 'worm', 'X', 'eye', '', 'null', '💥'];
const RESERVED = new Set(['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener']);

function text(rng: Rng, max: number): string {
  const n = rng.int(0, max);
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng.pick([rng.int(32, 126), rng.int(0, 0xd7ff), rng.int(0, 31)]));
  return s;
}

function junk(rng: Rng, depth = 0): unknown {
  const pick = rng.int(0, depth > 3 ? 6 : 9);
  switch (pick) {
    case 0: return null;
    case 1: return rng.next() < 0.5;
    case 2: return rng.pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, rng.int(-1000, 1000)]);
    case 3: return text(rng, 20);
    case 4: return rng.pick(INTENT_TYPES);
    case 5: return Buffer.from(Array.from({ length: rng.int(0, 64) }, () => rng.int(0, 255)));
    case 6: return rng.pick(FACES);
    case 7: return Array.from({ length: rng.int(0, 4) }, () => junk(rng, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = rng.int(0, 4); i > 0; i--) o[rng.pick(['type', 'version', 'intent', 'move', 'dice', 'index', 'face', 'set', 'code', 'role', 'player', text(rng, 8)])] = junk(rng, depth + 1);
      return o;
    }
  }
}

function nested(rng: Rng, depth: number): unknown {
  let v: unknown = rng.pick([1, 'x', null, { type: 'undo' }]);
  for (let i = 0; i < depth; i++) v = rng.next() < 0.5 ? [v] : { type: 'move', move: v };
  return v;
}

/** A plausible intent (some of these are accepted and change the table, as they should). */
export function plausibleIntent(rng: Rng): Record<string, unknown> {
  switch (rng.int(0, 9)) {
    case 0: return { type: 'move', move: { type: 'roll', player: rng.pick(['ann', 'bob', 'zoe']), face: rng.int(0, 7) } };
    case 1: return { type: 'move', move: { type: 'next' } };
    case 2: return { type: 'undo' };
    case 3: return { type: 'button', button: rng.pick(['NEXT', 'BACK', 'READ', 'OK', 'HOME']) };
    case 4: return { type: 'dice/manual', dice: Array.from({ length: rng.int(0, 3) }, () => ({ set: rng.pick(SETS), face: rng.pick(FACES) })) };
    case 5: return { type: 'dice/correct', index: rng.int(-1, 3), face: rng.pick(FACES) };
    case 6: return { type: 'dice/confirm' };
    case 7: return { type: 'dice/read' };
    case 8: return { type: rng.pick(['calibration/label', 'calibration/commit', 'calibration/undo']), set: rng.pick(SETS), index: rng.int(0, 3), face: rng.pick(FACES) };
    case 9: return { type: rng.pick(['tray/learn', 'tray/forget']) };
    default: return { type: 'table/setup', game: rng.pick(['worm-up', 'tapeworm', 'chess']), options: rng.next() < 0.5 ? {} : junk(rng) };
  }
}

/** Changes one thing about a value: drop a key, swap a type, blow up a string. */
function mutate(rng: Rng, value: Record<string, unknown>): Record<string, unknown> {
  const out = { ...value };
  const keys = Object.keys(out);
  const key = keys.length ? rng.pick(keys) : 'type';
  switch (rng.int(0, 3)) {
    case 0: delete out[key]; break;
    case 1: out[key] = junk(rng); break;
    case 2: out[text(rng, 6) || 'extra'] = junk(rng); break;
    default: out[key] = 'x'.repeat(rng.int(100, 5000));
  }
  return out;
}

export function fuzzMessage(rng: Rng, version: number): FuzzMessage {
  const roll = rng.next();
  const envelope = (intent: unknown, v: unknown = version) => ({ version: v, intent });
  if (roll < 0.15) return { kind: 'emit', category: 'wrong types', event: rng.pick(['intent', 'join', 'frame']), args: [junk(rng)] };
  if (roll < 0.17) {
    const huge = 'w'.repeat(rng.int(10_000, 150_000));
    const where = rng.int(0, 3);
    const payload = where === 0 ? huge : where === 1 ? envelope({ type: 'dice/correct', index: 0, face: huge }) : where === 2 ? { code: huge, role: 'player' } : envelope({ type: 'move', move: { type: huge } });
    return { kind: 'emit', category: 'huge strings', event: rng.pick(['intent', 'join']), args: [payload] };
  }
  if (roll < 0.2) return { kind: 'emit', category: 'deep nesting', event: 'intent', args: [envelope(nested(rng, rng.int(50, 800)))] };
  if (roll < 0.205) {
    // Far deeper than any encoder would recurse: written as raw text.
    const depth = rng.int(5_000, 50_000);
    return { kind: 'raw', category: 'deep nesting (raw)', packet: `42["intent",{"version":${version},"intent":${'['.repeat(depth)}1${']'.repeat(depth)}}]` };
  }
  if (roll < 0.36) return { kind: 'emit', category: 'unknown intents', event: 'intent', args: [envelope({ ...(junk(rng) as object), type: rng.next() < 0.5 ? `?${text(rng, 12)}` : `${rng.pick(INTENT_TYPES)}x` })] };
  if (roll < 0.48) {
    const v = rng.pick([-1, 0.5, version - 1, version + 1, version + 1000, 1e15, '1', null, NaN, Infinity, [version]]);
    return { kind: 'emit', category: 'wrong versions', event: 'intent', args: [envelope(plausibleIntent(rng), v)] };
  }
  if (roll < 0.57) {
    const bytes = Buffer.from(Array.from({ length: rng.int(0, 4096) }, () => rng.int(0, 255)));
    const shape = rng.int(0, 2);
    const payload = shape === 0 ? bytes : shape === 1 ? envelope(bytes) : envelope({ type: 'dice/manual', dice: [bytes] });
    return { kind: 'emit', category: 'binary junk', event: rng.pick(['intent', 'frame', 'join']), args: [payload] };
  }
  if (roll < 0.6) {
    const packets = [
      `42${text(rng, 40)}`,
      `4${rng.int(0, 9)}["intent",${text(rng, 30)}]`,
      `42["intent",{"version":${version},"intent":{"type":"undo"}`,
      `451-["frame",{"_placeholder":true,"num":${rng.int(-2, 5)}}]`,
      `4${text(rng, 10)}`,
      `${rng.int(0, 9)}${text(rng, 30)}`,
    ];
    return { kind: 'raw', category: 'raw protocol garbage', packet: rng.pick(packets) };
  }
  if (roll < 0.72) return { kind: 'emit', category: 'near misses', event: 'intent', args: [envelope(mutate(rng, plausibleIntent(rng)))] };
  if (roll < 0.76) {
    let event = text(rng, 12) || 'x';
    if (RESERVED.has(event)) event = `${event}!`;
    return { kind: 'emit', category: 'unknown events', event, args: [junk(rng), junk(rng)] };
  }
  if (roll < 0.8) {
    const join = { code: rng.pick(['ZZZZZ', '', text(rng, 20), 'AAAA']), role: rng.pick(['player', 'referee', 'admin', 1]), player: rng.pick(['ann', 'bob', 'zoe', undefined]) };
    return { kind: 'emit', category: 'bad joins', event: 'join', args: [rng.next() < 0.3 ? mutate(rng, join) : join] };
  }
  // Well-formed intents at the right version: the ones a real phone sends.
  return { kind: 'emit', category: 'plausible intents', event: 'intent', args: [envelope(plausibleIntent(rng))] };
}

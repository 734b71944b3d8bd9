/**
 * Who this phone is at the table: the join code (or referee code) and the seat. Kept in the
 * phone's storage so a reload, a sleeping phone or a restarted server finds its seat again; read
 * from the link in the QR code (`/?code=ABCDE`, `/?referee=ABCDEFGH`). Pure parsing; the storage
 * itself is the caller's.
 */
export interface Credentials {
  role: 'referee' | 'player';
  code: string;
  /** The seat (player id) for a player. */
  player?: string;
}

const CODE = /^[A-Za-z0-9]{4,16}$/;

export function normaliseCode(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

export function isCode(text: string): boolean {
  return CODE.test(normaliseCode(text));
}

/** Codes in a link's query string. */
export function codesFromSearch(search: string): { code?: string; referee?: string } {
  const params = new URLSearchParams(search);
  const out: { code?: string; referee?: string } = {};
  const code = params.get('code');
  const referee = params.get('referee');
  if (code && isCode(code)) out.code = normaliseCode(code);
  if (referee && isCode(referee)) out.referee = normaliseCode(referee);
  return out;
}

/** Stored credentials, or null when absent or not what this version wrote. */
export function parseCredentials(text: string | null): Credentials | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<Credentials> | null;
    if (!v || (v.role !== 'referee' && v.role !== 'player') || typeof v.code !== 'string' || !isCode(v.code)) return null;
    if (v.role === 'player' && (typeof v.player !== 'string' || v.player.length === 0)) return null;
    return v.role === 'player' ? { role: 'player', code: v.code, player: v.player! } : { role: 'referee', code: v.code };
  } catch {
    return null;
  }
}

/** The join request the server reads from the socket handshake. */
export function handshakeAuth(c: Credentials | null): Record<string, string> {
  if (!c) return {};
  return c.player ? { code: c.code, role: c.role, player: c.player } : { code: c.code, role: c.role };
}

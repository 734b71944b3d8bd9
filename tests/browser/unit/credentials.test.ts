/** Join codes from the QR link and from the phone's storage. */
import { describe, expect, it } from 'vitest';
import { codesFromSearch, handshakeAuth, isCode, normaliseCode, parseCredentials } from '../../../web/client/src/net/credentials.js';

describe('credentials', () => {
  it('reads the player and referee codes from the link, in any case', () => {
    expect(codesFromSearch('?code=abcde')).toEqual({ code: 'ABCDE' });
    expect(codesFromSearch('?referee=TableBoss')).toEqual({ referee: 'TABLEBOSS' });
    expect(codesFromSearch('?code=ab')).toEqual({}); // too short to be a code
    expect(codesFromSearch('?code=<script>')).toEqual({});
  });

  it('accepts a code typed with spaces or a dash', () => {
    expect(normaliseCode(' ab-cd e ')).toBe('ABCDE');
    expect(isCode('ab cde')).toBe(true);
    expect(isCode('a')).toBe(false);
  });

  it('reads stored credentials back, and refuses anything else', () => {
    expect(parseCredentials(JSON.stringify({ role: 'player', code: 'WORMS', player: 'p1' }))).toEqual({ role: 'player', code: 'WORMS', player: 'p1' });
    expect(parseCredentials(JSON.stringify({ role: 'referee', code: 'REFEREE7', player: 'x' }))).toEqual({ role: 'referee', code: 'REFEREE7' });
    expect(parseCredentials(JSON.stringify({ role: 'player', code: 'WORMS' }))).toBeNull(); // a player needs a seat
    expect(parseCredentials(JSON.stringify({ role: 'god', code: 'WORMS' }))).toBeNull();
    expect(parseCredentials('{not json')).toBeNull();
    expect(parseCredentials(null)).toBeNull();
  });

  it('puts the join in the handshake, so a reconnect lands in the seat', () => {
    expect(handshakeAuth({ role: 'player', code: 'WORMS', player: 'p2' })).toEqual({ code: 'WORMS', role: 'player', player: 'p2' });
    expect(handshakeAuth({ role: 'referee', code: 'REFEREE7' })).toEqual({ code: 'REFEREE7', role: 'referee' });
    expect(handshakeAuth(null)).toEqual({});
  });
});

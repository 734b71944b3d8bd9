/** The addresses phones on the same network can reach this machine at. */
import { networkInterfaces } from 'node:os';

export function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(a.address);
  }
  return out;
}

/** The URL to show phones: a LAN address when listening on all interfaces (`lanInvite`), else the host itself. */
export function phoneUrl(host: string, port: number): string {
  return lanInvite(host, port) ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
}

/**
 * The address phones on the table's network can open, for the referee's QR code: a LAN address
 * when clew listens on all interfaces, else null (clew listens on one address, which the
 * referee's own page already shows). The referee may have opened clew as localhost on this
 * machine, whose QR code would then send every other phone to itself.
 */
export function lanInvite(host: string, port: number, addresses: readonly string[] = lanAddresses()): string | null {
  if (host !== '0.0.0.0' && host !== '::') return null;
  return addresses[0] ? `http://${addresses[0]}:${port}` : null;
}

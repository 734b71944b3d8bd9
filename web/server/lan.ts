/** The addresses phones on the same network can reach this machine at. */
import { networkInterfaces } from 'node:os';

export function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(a.address);
  }
  return out;
}

/** The URL to show phones: a LAN address when listening on all interfaces, else the host itself. */
export function phoneUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? (lanAddresses()[0] ?? 'localhost') : host;
  return `http://${shown}:${port}`;
}

/** The addresses phones on the same network can reach this machine at. */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

/**
 * Interfaces no phone at the table is on: container and VM bridges, VPN tunnels. A laptop with
 * Docker lists docker0 (172.17.0.1) among its addresses, and a QR code with it reaches nothing.
 */
const VIRTUAL = /^(docker|br-|veth|virbr|vmnet|vboxnet|lxc|lxd|cni|flannel|podman|tun|tap|utun|wg|tailscale|zt)/;

/**
 * This machine's IPv4 addresses other devices can reach, the table's likely network first: real
 * interfaces (Wi-Fi, Ethernet) before virtual ones, each in the order the system lists them.
 */
export function lanAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const real: string[] = [];
  const virtual: string[] = [];
  for (const [name, list] of Object.entries(interfaces)) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) (VIRTUAL.test(name) ? virtual : real).push(a.address);
  }
  return [...real, ...virtual];
}

/** Whether clew listening on `host` listens on every interface. */
function listensEverywhere(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** A host as a URL writes it: an IPv6 address in brackets (`http://[::1]:8080`, not `http://::1:8080`). */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The URL this machine opens clew at: localhost when it listens on every interface, else the host itself. */
export function localUrl(host: string, port: number): string {
  return `http://${listensEverywhere(host) ? 'localhost' : urlHost(host)}:${port}`;
}

/** The URL to show phones: a LAN address when listening on all interfaces (`lanInvite`), else `localUrl`. */
export function phoneUrl(host: string, port: number): string {
  return lanInvite(host, port) ?? localUrl(host, port);
}

/**
 * The address phones on the table's network can open, for the referee's QR code: a LAN address
 * when clew listens on all interfaces, else null (clew listens on one address, which the
 * referee's own page already shows). The referee may have opened clew as localhost on this
 * machine, whose QR code would then send every other phone to itself.
 */
export function lanInvite(host: string, port: number, addresses: readonly string[] = lanAddresses()): string | null {
  if (!listensEverywhere(host)) return null;
  return addresses[0] ? `http://${urlHost(addresses[0])}:${port}` : null;
}

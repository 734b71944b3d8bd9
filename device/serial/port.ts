/**
 * The serial port as the button box adapter uses it, and the real one (serialport). Only
 * device/serial/ imports serialport; tests give a SerialPortMock through the same factory.
 */
import { SerialPort } from 'serialport';

/** The part of serialport's stream the adapter uses. */
export interface SerialPortLike {
  readonly isOpen: boolean;
  open(callback: (error: Error | null) => void): void;
  close(callback?: (error: Error | null) => void): void;
  write(data: string): boolean;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(): unknown;
}

export type PortFactory = (options: { path: string; baudRate: number }) => SerialPortLike;

export const openRealPort: PortFactory = ({ path, baudRate }) => new SerialPort({ path, baudRate, autoOpen: false });

export function openPort(port: SerialPortLike): Promise<void> {
  return new Promise((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
}

export function closePort(port: SerialPortLike): Promise<void> {
  return new Promise((resolve) => {
    if (!port.isOpen) return resolve();
    port.close(() => resolve());
  });
}

/**
 * USB serial ports worth asking for a HELLO, stable names first: /dev/serial/by-id/* (they survive
 * replugging), else /dev/ttyACM* (Pico, Leonardo, Uno R4) and /dev/ttyUSB* (CH340, FTDI).
 * The Pi's own UARTs (ttyAMA*, ttyS*) are left alone: they may carry a console.
 */
export function serialCandidates(byIdNames: readonly string[], devNames: readonly string[], devRoot = '/dev'): string[] {
  const byId = byIdNames.filter((n) => !n.startsWith('.')).sort().map((n) => `${devRoot}/serial/by-id/${n}`);
  if (byId.length) return byId;
  const num = (n: string) => Number(/\d+$/.exec(n)?.[0] ?? 0);
  return devNames
    .filter((n) => /^tty(ACM|USB)\d+$/.test(n))
    .sort((a, b) => (a.slice(0, 6) === b.slice(0, 6) ? num(a) - num(b) : a.localeCompare(b)))
    .map((n) => `${devRoot}/${n}`);
}

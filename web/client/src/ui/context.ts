/** The connection, shared with every screen through Preact context, and hooks to read it. */
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { TableConnection, TableView } from '../net/connection.js';
import type { Store } from '../net/store.js';

export const ConnectionContext = createContext<TableConnection | null>(null);

export function useConnection(): TableConnection {
  const c = useContext(ConnectionContext);
  if (!c) throw new Error('useConnection outside the app');
  return c;
}

export function useStoreValue<T extends object>(store: Store<T>): T {
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((t) => t + 1)), [store]);
  return store.get();
}

export function useTableView(): TableView {
  return useStoreValue(useConnection().store);
}

import { render } from 'preact';
import { App } from './app.js';
import { TableConnection } from './net/connection.js';
import { ConnectionContext } from './ui/context.js';
import './styles.css';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // private mode on some phones: the phone then joins again after a reload
  }
}

const connection = new TableConnection(storage());
render(
  <ConnectionContext.Provider value={connection}>
    <App />
  </ConnectionContext.Provider>,
  document.getElementById('app')!,
);

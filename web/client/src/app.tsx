/**
 * The dashboard's frame: the header (game, connection, who this phone is), the message line, the
 * screen for the route, and the tab bar. Every screen reads the latest snapshot; nothing here
 * keeps game state of its own.
 */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { GameScreen } from './games/GameScreen.js';
import { DiceScreen } from './screens/DiceScreen.js';
import { JoinScreen } from './screens/JoinScreen.js';
import { RefereeOnly } from './screens/RefereeOnly.js';
import { ScoreScreen } from './screens/ScoreScreen.js';
import { SetupScreen } from './screens/SetupScreen.js';
import { TeachScreen } from './screens/TeachScreen.js';
import { noticeEnds } from './net/notices.js';
import { useConnection, useStoreValue, useTableView } from './ui/context.js';
import { prefs } from './ui/prefs.js';
import { DiceIcon, ScoreIcon, SetupIcon, TableIcon, TeachIcon } from './ui/icons.js';
import { go, useRoute, type Route } from './ui/route.js';

function StatusPill() {
  const view = useTableView();
  const text = view.status === 'online' ? (view.pending ? 'sending…' : 'live') : view.status === 'connecting' ? 'connecting…' : 'offline';
  // Live is the usual case: a green dot says it; words appear only when something is not right.
  return (
    <span class={`pill link-${view.status}`} data-testid="link" data-status={view.status} role="status" aria-label={`connection: ${text}`}>
      <span class="dot" aria-hidden="true" />
      {text !== 'live' && <span>{text}</span>}
    </span>
  );
}

function Header() {
  const view = useTableView();
  const s = view.snapshot;
  const you = s?.you;
  const who = you?.role === 'referee' ? 'Referee' : you?.role === 'player' ? (s?.players.find((p) => p.id === you.player)?.name ?? you.player) : 'Watching';
  return (
    <header class="top">
      <div class="brand">
        <span class="logo" aria-hidden="true">
          ∿
        </span>
        <span class="title" data-testid="game-title">
          {s?.title ?? 'clew'}
        </span>
      </div>
      <StatusPill />
      <span class="who" data-testid="who">
        {who}
      </span>
    </header>
  );
}

function NoticeLine() {
  const conn = useConnection();
  const { notice, snapshot } = useTableView();
  // Every notice goes by itself: an error once the table has moved on or is at another game
  // (net/notices.ts), so no phone keeps a message about a game no longer played.
  const ends = notice ? noticeEnds(notice, snapshot) : null;
  useEffect(() => {
    if (!notice || ends === null) return;
    const t = setTimeout(() => conn.dismiss(notice.id), Math.max(0, ends - Date.now()));
    return () => clearTimeout(t);
  }, [notice?.id, ends]);
  if (!notice || (ends !== null && ends <= Date.now())) return null;
  return (
    <div class={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="notice">
      <span>{notice.text}</span>
      <button class="notice-close" onClick={() => conn.dismiss()} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}

function Tab({ route, current, label, count, children }: { route: Route; current: Route; label: string; count?: { n: number; what: string }; children: ComponentChildren }) {
  return (
    <a href={`#/${route}`} class={`tab${route === current ? ' active' : ''}`} aria-current={route === current ? 'page' : undefined} data-testid={`tab-${route}`}>
      {children}
      <span>{label}</span>
      {count && count.n > 0 && (
        <b class="tab-count" title={`${count.n} ${count.what}`} aria-label={`${count.n} ${count.what}`} data-testid={`tab-${route}-count`}>
          {count.n}
        </b>
      )}
    </a>
  );
}

function TabBar({ route }: { route: Route }) {
  const { snapshot } = useTableView();
  const referee = snapshot?.you.role === 'referee';
  // Labelled dice waiting to be taught (the Teach tab's and those checked during play).
  const waiting = referee ? snapshot!.calibration.reduce((n, c) => n + Object.values(c.samples).reduce((a, b) => a + b, 0), 0) : 0;
  return (
    <nav class="tabs" aria-label="Screens">
      <Tab route="table" current={route} label="Table">
        <TableIcon />
      </Tab>
      <Tab route="dice" current={route} label="Dice">
        <DiceIcon />
      </Tab>
      <Tab route="score" current={route} label="Score">
        <ScoreIcon />
      </Tab>
      {referee && (
        <Tab route="setup" current={route} label="Setup">
          <SetupIcon />
        </Tab>
      )}
      {referee && (
        <Tab route="teach" current={route} label="Teach" count={{ n: waiting, what: 'labelled dice waiting to be taught' }}>
          <TeachIcon />
        </Tab>
      )}
    </nav>
  );
}

function Screen({ route }: { route: Route }) {
  const view = useTableView();
  const { watching } = useStoreValue(prefs);
  // Score a sheet is a tool of its own: it works with no table at all.
  if (route === 'score') return <ScoreScreen />;
  if (route === 'join' || view.joinProblem || (!view.credentials && route !== 'table' && route !== 'dice')) return <JoinScreen />;
  if (!view.snapshot) {
    return (
      <div class="center-msg" data-testid="waiting">
        <p class="big">{view.status === 'offline' ? 'Looking for the table…' : 'Connecting…'}</p>
        <p>clew keeps trying by itself. The phone must be on the table's Wi-Fi.</p>
      </div>
    );
  }
  if (!view.credentials && route === 'table' && view.snapshot.you.role === 'viewer' && !watching) return <JoinScreen />;
  switch (route) {
    case 'dice':
      return <DiceScreen />;
    // A seated phone here must not get the seat picker (a tap there moved it to another seat).
    case 'setup':
      return view.snapshot.you.role === 'referee' ? <SetupScreen /> : <RefereeOnly what="setup" />;
    case 'teach':
      return view.snapshot.you.role === 'referee' ? <TeachScreen /> : <RefereeOnly what="teach" />;
    default:
      return <GameScreen />;
  }
}

export function App() {
  const route = useRoute();
  const conn = useConnection();
  useEffect(() => {
    const wake = () => {
      if (document.visibilityState === 'visible') conn.wake();
    };
    document.addEventListener('visibilitychange', wake);
    window.addEventListener('online', wake);
    return () => {
      document.removeEventListener('visibilitychange', wake);
      window.removeEventListener('online', wake);
    };
  }, [conn]);
  const { snapshot } = useTableView();
  return (
    <div class="app" data-version={snapshot?.version ?? ''} data-game={snapshot?.game ?? ''} data-role={snapshot?.you.role ?? ''}>
      <Header />
      <NoticeLine />
      <main class="main">
        <Screen route={route} />
      </main>
      <TabBar route={route} />
    </div>
  );
}

export { go };

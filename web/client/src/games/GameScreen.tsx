/** The table screen for the game being played. */
import { useTableView } from '../ui/context.js';
import { CozyScreen } from './CozyScreen.js';
import { DerbyScreen } from './DerbyScreen.js';
import { TapewormScreen } from './TapewormScreen.js';
import { TwidScreen } from './TwidScreen.js';
import { WormUpScreen } from './WormUpScreen.js';

export function GameScreen() {
  const { snapshot } = useTableView();
  if (!snapshot) return null;
  switch (snapshot.game) {
    case 'worm-and-cozy':
      return <CozyScreen snapshot={snapshot} />;
    case 'the-worm-is-drawn':
      return <TwidScreen snapshot={snapshot} />;
    case 'worm-up':
      return <WormUpScreen snapshot={snapshot} />;
    case 'worm-derby':
      return <DerbyScreen snapshot={snapshot} />;
    case 'tapeworm':
      return <TapewormScreen snapshot={snapshot} />;
  }
}

/** The dice: the roll as read, corrections, the phone camera, and the table's hardware. */
import { Hardware } from '../ui/Hardware.js';
import { PhoneCamera } from '../ui/PhoneCamera.js';
import { RollPanel } from '../ui/RollPanel.js';
import { useTableView } from '../ui/context.js';

export function DiceScreen() {
  const { snapshot } = useTableView();
  if (!snapshot) return null;
  return (
    <div class="screen" data-testid="dice-screen">
      <p class="headline" data-testid="headline">
        {snapshot.status.headline}
      </p>
      <RollPanel snapshot={snapshot} full />
      {snapshot.you.role !== 'viewer' && <PhoneCamera />}
      <section class="card">
        <h2>The table</h2>
        <Hardware hardware={snapshot.hardware} />
      </section>
    </div>
  );
}

/** Every face of a die's set as a big icon: tap the one the die really shows. */
import { DICE_SETS, type DiceSetId } from '../../../../shared/dice.js';
import { DieFace } from './DieFace.js';
import { Modal } from './Modal.js';

export function FacePicker({ set, color, current, title, onPick, onClose }: { set: DiceSetId; color?: string | undefined; current?: string; title: string; onPick: (face: string) => void; onClose: () => void }) {
  return (
    <Modal title={title} onClose={onClose}>
      <div class="face-grid">
        {DICE_SETS[set].faces.map((face) => (
          <button key={face} class={`face-choice${face === current ? ' current' : ''}`} onClick={() => onPick(face)} data-testid={`face-${face}`} aria-label={face}>
            <DieFace set={set} face={face} color={color} size={72} />
            <span>{face}</span>
          </button>
        ))}
      </div>
    </Modal>
  );
}

/**
 * Every face of a die's set as a big icon: tap the one the die really shows. With `onColor`, the
 * die's colour can be corrected too (it tells the Worm & Cozy shape die, a Worm-up player's bid);
 * with `onRemove`, a box on something that is no die can be taken out of the roll.
 */
import { DICE_SETS, DIE_COLORS, type DiceSetId } from '../../../../shared/dice.js';
import { css } from '../logic/colors.js';
import { DieFace } from './DieFace.js';
import { Modal } from './Modal.js';

export interface FacePickerProps {
  set: DiceSetId;
  color?: string | undefined;
  current?: string;
  title: string;
  onPick: (face: string) => void;
  onColor?: (color: string) => void;
  /** Offered for a die the camera read: there is no die there (or not one of this roll). */
  onRemove?: () => void;
  onClose: () => void;
}

export function FacePicker({ set, color, current, title, onPick, onColor, onRemove, onClose }: FacePickerProps) {
  return (
    <Modal title={title} onClose={onClose}>
      <div class="face-grid">
        {DICE_SETS[set].faces.map((face) => (
          <button key={face} class={`face-choice${face === current ? ' current' : ''}`} onClick={() => onPick(face)} data-testid={`face-${face}`} aria-label={face}>
            <DieFace set={set} face={face} color={color} size={72} decorative />
            <span>{face}</span>
          </button>
        ))}
      </div>
      {onColor && (
        <>
          <p class="muted small">Wrong colour? The die is:</p>
          <div class="palette" role="radiogroup" aria-label="the die's colour" data-testid="die-colours">
            {Object.keys(DIE_COLORS).map((c) => (
              <button key={c} role="radio" aria-checked={c === color} aria-label={c} class={`swatch-btn${c === color ? ' on' : ''}`} style={{ background: css(c) }} onClick={() => onColor(c)} data-testid={`colour-${c}`} />
            ))}
          </div>
        </>
      )}
      {onRemove && (
        <div class="row">
          <button class="btn" onClick={onRemove} data-testid="remove-die">
            Not a die: take it out
          </button>
        </div>
      )}
    </Modal>
  );
}

/** A table code typed in (the join code or the referee code), as the join screens ask for it. */

/** Said when what was typed cannot be a code at all (`isCode`). */
export const NOT_A_CODE = 'A code is 4 to 16 letters or digits, as shown on the referee’s screen.';

export function CodeField({ label, value, onInput, placeholder, testid }: { label: string; value: string; onInput: (text: string) => void; placeholder: string; testid: string }) {
  return (
    <label class="field">
      <span>{label}</span>
      <input
        class="code-input"
        data-testid={testid}
        value={value}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
        autoCapitalize="characters"
        autoComplete="off"
        spellcheck={false}
        inputMode="text"
        maxLength={19}
        placeholder={placeholder}
      />
    </label>
  );
}

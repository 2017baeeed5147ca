import { BOT_FIELD } from "#server/contracts/honeypot";

/**
 * The cart's and checkout's honeypot (decision 0020): off screen (the `.honeypot` class), out of
 * the tab order, hidden from screen readers, never autofilled. People leave it empty; bots that
 * fill every field do not.
 */
export function HoneypotField({ idPrefix }: { idPrefix: string }) {
  const id = `${idPrefix}-${BOT_FIELD}`;
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={BOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

// The table page's keyboard (docs/protocol.md, "Keyboard"): one listener for the page, and
// the list of keys the help dialog shows.
import { html, useEffect, useRef } from "/static/vendor/preact-htm.js";
import { Dialog } from "./dialog.js";

const SHORTCUTS = [
  ["\u2190 / \u2192", "select the previous / next tile of your racks"],
  ["D", "discard the selected tile (the hint's when you have selected none)"],
  ["G", "go to (select) the tile the hint suggests discarding"],
  ["1 - 9", "take the numbered choice (Mah Jongg, exposure, exchange...)"],
  ["Enter", "do what the hint says (its marked choice, claim, pass or discard)"],
  ["A", "arrange your racks as the hint's plan"],
  ["K", "show the card"],
  ["M", "move the selected tile to your other rack"],
  ["C", "claim the latest discard (Mah Jongg if you can, else for an exposure)"],
  ["P", "pass (on a discard, or on declaring after the deal)"],
  ["H", "hints on or off"],
  ["?", "this help"],
  ["Esc", "close a dialog"],
];

/** What a key does, given the page's commands now (`null`: not a key of the table). */
function command(k, c) {
  if (k === "ArrowLeft") return () => c.step(-1);
  if (k === "ArrowRight") return () => c.step(1);
  if (k === "d" || k === "D") return c.discard;
  if (k === "m" || k === "M") return c.move;
  if (k === "c" || k === "C") return c.claim;
  if (k === "p" || k === "P") return c.pass;
  if ((k === "h" || k === "H") && c.seated) return c.toggleHints;
  if (k === "Enter") return c.accept;
  if (k === "g" || k === "G") return c.jump;
  if (k === "a" || k === "A") return c.arrange;
  if (k === "k" || k === "K") return c.card;
  if (/^[1-9]$/.test(k)) return () => c.choice(Number(k) - 1);
  if (k === "?") return c.help;
  return null;
}

/** Answer the keys with `commands` (read when a key is pressed, so always the latest). */
export function useKeys(commands) {
  const latest = useRef(commands);
  latest.current = commands;
  useEffect(() => {
    function onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const tag = (e.target && e.target.tagName) || "";
      if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (e.target && e.target.isContentEditable)) return;
      if (document.querySelector(".overlay")) return; // a dialog handles its own keys
      // the arrow keys go through a row of discards while one has the focus
      if (e.target && e.target.closest && e.target.closest(".discard-row")
          && /^Arrow|^Home$|^End$/.test(e.key)) return;
      if (e.key === "Enter" && /^(BUTTON|A|SUMMARY)$/.test(tag)) return; // the element's own
      const run = command(e.key, latest.current);
      if (!run) return;
      if (e.target && e.target.closest && e.target.closest("#card-drawer")) return;
      run();
      e.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

export function KeysHelp({ onClose }) {
  return html`<${Dialog} id="help" title="Keyboard shortcuts" onClose=${onClose}>
    <dl class="keys">${SHORTCUTS.map(([k, d]) => html`<dt><kbd>${k}</kbd></dt><dd>${d}</dd>`)}</dl>
    <p class="muted">You can also drag a tile onto your other rack to move it, and double-click
      a tile to discard it.</p>
    <p><button type="button" onClick=${onClose} data-autofocus>Close</button></p>
  </${Dialog}>`;
}

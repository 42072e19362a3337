// The choices that carry tiles: Mah Jongg, exposures, Joker exchanges, declarations, going
// off a declared hand, withdrawing a claim. Each says what it is with the coach's words
// (the hints' `choices`: its line, points and what it does), best first as the coach ranks
// them, the coach's own marked; without hints the words come from the action's fields
// (racks, exposures and seats counted from 0 there). Each has a key (1-9, in order).
import { html } from "/static/vendor/preact-htm.js";
import { seatName } from "../board.js";
import { TileRow, tileLabel, tilesLabel } from "../tiles.js";
import { LineLink } from "./card.js";

function ChoiceButton({ action, text, coach, tiles, busy, act, n, note = true }) {
  const kills = action.kills_rack;
  const best = !!(coach && coach.best);
  return html`<li>
    <button type="button" class=${`choice ${kills ? "kills" : ""} ${best ? "best" : ""}`} disabled=${busy}
        data-action=${action.text} data-best=${best ? "true" : "false"} onClick=${() => act(action)}
        aria-keyshortcuts=${n <= 9 ? String(n) : undefined}
        aria-label=${`${text}${coach ? `: ${coach.note}` : ""}${tiles ? `: ${tilesLabel(tiles)}` : ""}${kills ? " (kills the rack)" : ""}${best ? " (the hint's choice)" : ""}`}>
      ${n <= 9 && html`<kbd class="choice-key">${n}</kbd>`}
      <span class="choice-text">${text}</span>
      ${best && html`<span class="badge hint-pick">hint</span>`}
      ${note && coach && coach.note && html`<small class="choice-note">${coach.note}</small>`}
      ${tiles && html`<${TileRow} tiles=${tiles} size="xs" />`}
      ${kills && html`<span class="badge dead">kills rack</span>`}
    </button></li>`;
}

/** The groups of choices: [class, heading, verb, words and tiles of one action]. */
function groups(f) {
  const full = (r) => (f.v.seats[f.me]?.racks[r]?.exposures || [])
    .reduce((n, x) => n + x.split(/\s+/).length, 0) === 14;
  const whose = (owner) => (owner === f.me ? "your" : `${seatName(f.names, owner)}'s`);
  const named = (head, c) => (c && c.line ? `${head}: ${c.line}, ${c.points} points` : head);
  return [
    ["choice-group mj-choices", "Mah Jongg!", "mahjongg", (a, c) => [c && c.line
      ? `Mah Jongg on rack ${a.rack + 1}: ${c.note}` : a.tiles.length || full(a.rack)
        ? `Mah Jongg on rack ${a.rack + 1}` : `Declare rack ${a.rack + 1} as arranged`,
    a.tiles.length ? a.tiles : null, !(c && c.line)]],
    ["choice-group", "Expose a group", "expose", (a, c) => [named(`Expose on rack ${a.rack + 1}`, c), a.tiles]],
    ["choice-group", "Exchange for a Joker", "exchange", (a, c) => [named(`Give ${tileLabel(a.tile)} ` +
      `for the Joker in ${whose(a.owner)} rack ${a.rack + 1}, group ${a.index + 1}`, c), [a.tile, "J"]]],
    ["choice-group", "Declare a special hand", "declare", (a) => [`Declare ${a.hand}`, a.tiles]],
    ["choice-group", null, "undeclare", () => ["Go off the declared hand", null]],
    ["choice-group", null, "withdraw", () => ["Withdraw the claim (the tile goes back)", null]],
  ];
}

/** The coach's choices by action text, with their rank. */
export function coachChoices(hints) {
  const out = new Map();
  ((hints && hints.choices) || []).forEach((c, i) => out.set(c.text, { ...c, rank: i }));
  return out;
}

/** The choices shown, in order: [class, title, [[action, coach choice], ...], words]. */
export function shownChoices(f, legal, hints) {
  const coach = coachChoices(hints);
  const rank = (a) => (coach.has(a.text) ? coach.get(a.text).rank : 1e6);
  return groups(f).map(([cls, title, verb, words]) => [cls, title,
    legal.of(verb).slice().sort((x, y) => rank(x) - rank(y)).map((a) => [a, coach.get(a.text)]), words])
    .filter(([, , actions]) => actions.length > 0);
}

/** The actions of the choices in the order their keys (1-9) take them. */
export function choiceKeys(f, legal, hints) {
  return shownChoices(f, legal, hints).flatMap(([, , actions]) => actions.map(([a]) => a));
}

/** How many choices of a group show before "more" (the coach's best first). */
const FIRST = 3;

export function Choices({ f, legal, busy, act, hints }) {
  const shown = shownChoices(f, legal, hints);
  if (!shown.length) return null;
  let n = 0;
  const button = (words) => ([a, c]) => {
    const [text, tiles, note] = words(a, c);
    n += 1;
    return html`<${ChoiceButton} action=${a} text=${text} coach=${c} tiles=${tiles} busy=${busy}
      act=${act} n=${n} note=${note !== false} />`;
  };
  return html`<section class="choices" aria-label="Choices">
    ${shown.map(([cls, title, actions, words]) => html`<div class=${cls}>
      ${title && html`<h3>${title}${actions.length > 1 ? html` <span class="muted">(${actions.length}, best first)</span>` : ""}</h3>`}
      <ul>${actions.slice(0, FIRST).map(button(words))}</ul>
      ${actions.length > FIRST && html`<details class="more-choices"><summary>${actions.length - FIRST} more</summary>
        <ul>${actions.slice(FIRST).map(button(words))}</ul></details>`}
      ${actions.some(([, c]) => c && c.line) && html`<p class="choice-lines muted">Lines: ${
        [...new Set(actions.map(([, c]) => c && c.line).filter(Boolean))].map((id) => html`<${LineLink} id=${id} /> `)}</p>`}
    </div>`)}
  </section>`;
}

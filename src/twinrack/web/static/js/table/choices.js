// The choices that carry tiles: Mah Jongg, exposures, Joker exchanges, declarations, going
// off a declared hand, withdrawing a claim. Each button's words come from the action's
// fields (racks, exposures and seats counted from 0 there).
import { html } from "/static/vendor/preact-htm.js";
import { seatName } from "../board.js";
import { TileRow, tileLabel, tilesLabel } from "../tiles.js";

function ChoiceButton({ action, text, tiles, busy, act }) {
  const kills = action.kills_rack;
  return html`<li>
    <button type="button" class=${`choice ${kills ? "kills" : ""}`} disabled=${busy}
        data-action=${action.text} onClick=${() => act(action)}
        aria-label=${`${text}${tiles ? `: ${tilesLabel(tiles)}` : ""}${kills ? " (kills the rack)" : ""}`}>
      <span class="choice-text">${text}</span>
      ${tiles && html`<${TileRow} tiles=${tiles} size="xs" />`}
      ${kills && html`<span class="badge dead">kills rack</span>`}
    </button></li>`;
}

/** The groups of choices: [class, heading, verb, words and tiles of one action]. */
function groups(f) {
  const full = (r) => (f.v.seats[f.me]?.racks[r]?.exposures || [])
    .reduce((n, x) => n + x.split(/\s+/).length, 0) === 14;
  const whose = (owner) => (owner === f.me ? "your" : `${seatName(f.names, owner)}'s`);
  return [
    ["choice-group mj-choices", "Mah Jongg!", "mahjongg", (a) => [a.tiles.length || full(a.rack)
      ? `Mah Jongg on rack ${a.rack + 1}` : `Declare rack ${a.rack + 1} as arranged`,
    a.tiles.length ? a.tiles : null]],
    ["choice-group", "Expose a group", "expose", (a) => [`Expose on rack ${a.rack + 1}`, a.tiles]],
    ["choice-group", "Exchange for a Joker", "exchange", (a) => [`Give ${tileLabel(a.tile)} ` +
      `for the Joker in ${whose(a.owner)} rack ${a.rack + 1}, group ${a.index + 1}`, [a.tile, "J"]]],
    ["choice-group", "Declare a special hand", "declare", (a) => [`Declare ${a.hand}`, a.tiles]],
    ["choice-group", null, "undeclare", () => ["Go off the declared hand", null]],
    ["choice-group", null, "withdraw", () => ["Withdraw the claim (the tile goes back)", null]],
  ];
}

export function Choices({ f, legal, busy, act }) {
  const shown = groups(f).map(([cls, title, verb, words]) => [cls, title, legal.of(verb), words])
    .filter(([, , actions]) => actions.length > 0);
  if (!shown.length) return null;
  return html`<section class="choices" aria-label="Choices">
    ${shown.map(([cls, title, actions, words]) => html`<div class=${cls}>
      ${title && html`<h3>${title}</h3>`}
      <ul>${actions.map((a) => {
        const [text, tiles] = words(a);
        return html`<${ChoiceButton} action=${a} text=${text} tiles=${tiles} busy=${busy} act=${act} />`;
      })}</ul></div>`)}
  </section>`;
}

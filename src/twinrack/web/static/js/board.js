// Pieces of the table shared by the live table and the replay viewer.
import { html } from "/static/vendor/preact-htm.js";
import { Backs, Tile, TileRow, splitTiles, tileLabel } from "./tiles.js";
import { LineLink } from "./table/card.js";

/** A seat as the page names it: its name ("Bea"; issue 26: not "Seat 2 (Bea)"), else
 * "Seat 2". */
export function seatName(names, s) {
  const n = Number(s);
  const name = names && names[n];
  return name || `Seat ${n + 1}`;
}

/** What lies on one rack for everyone to see: exposures, a Mah Jongg, a DEAD mark. */
export function RackPublic({ rack, index, showEmpty = true, concealed = null, who = "" }) {
  const n = index + 1;
  const mj = rack.mahjongg;
  const errorTiles = splitTiles(rack.error_tiles);
  const empty = !rack.exposures.length && !mj && !errorTiles.length;
  return html`<div class=${`rack-public ${rack.dead ? "is-dead" : ""} ${mj ? "is-mj" : ""}`}
      data-rack=${n}>
    <span class="rack-name">Rack ${n}</span>
    ${rack.dead && html`<span class="badge dead" title=${rack.dead === "exposure"
      ? "its exposures match no hand on the card" : "Mah Jongg in error"}>DEAD</span>`}
    ${mj && html`<span class="badge mj">Mah Jongg: <${LineLink} id=${mj.hand} /> (${mj.value})${mj.jokerless
      ? ", jokerless" : ""}${mj.closed ? ", closed" : ""}</span>`}
    ${concealed && html`<span class="concealed-tiles" role="group"
        aria-label=${`${who} concealed on rack ${n}: ${concealed.map(tileLabel).join(", ") || "none"}`}>
      ${concealed.map((t) => html`<${Tile} t=${t} size="m" />`)}
    </span>`}
    <span class="exposures">
      ${rack.exposures.map((x, i) => html`<${TileRow} tiles=${x} size="s"
        cls=${i === rack.killer ? "killer" : ""}
        label=${`exposure ${i + 1} on rack ${n}: ${splitTiles(x).map(tileLabel).join(", ")}` +
          (i === rack.killer ? " (made the rack dead)" : "")} />`)}
      ${mj && splitTiles(mj.tiles).length > 0 && html`<${TileRow} tiles=${mj.tiles} size="s"
        cls="mj-tiles" label=${`Mah Jongg tiles on rack ${n}`} />`}
      ${errorTiles.length > 0 && html`<${TileRow} tiles=${errorTiles} size="s" cls="error-tiles"
        label=${`tiles of the Mah Jongg in error on rack ${n}`} />`}
      ${empty && showEmpty && !concealed && html`<span class="muted nothing">nothing exposed</span>`}
    </span>
  </div>`;
}

/** A seat's public area: name, badges, concealed tiles (backs or, in the replay, faces). */
export function SeatPanel({ sv, player, names, current, toAct, isMe = false, hand = null }) {
  const s = sv.seat;
  const badges = [];
  if (player) {
    if (player.kind && player.kind !== "human") {
      badges.push(html`<span class="badge bot">computer (${player.kind})</span>`);
    } else if (player.connected !== undefined) {
      badges.push(player.connected
        ? html`<span class="badge on">connected</span>`
        : html`<span class="badge off">not connected</span>`);
      if (player.bot_playing) badges.push(html`<span class="badge bot">bot playing</span>`);
    }
  }
  if (sv.declared) badges.push(html`<span class="badge declared">declared ${sv.declared}</span>`);
  if (sv.stopped) badges.push(html`<span class="badge off">stopped</span>`);
  const acting = toAct && toAct.includes(s);
  const name = seatName(names, s);
  return html`<section class=${`seat-panel ${acting ? "acting" : ""} ${current ? "current" : ""}`}
      aria-label=${`${name}${isMe ? " (you)" : ""}`} data-seat=${s}>
    <header class="seat-head">
      <h3>${name}${isMe ? html` <span class="you">(you)</span>` : ""}</h3>
      ${current && html`<span class="badge turn">${acting ? "to play" : "turn"}</span>`}
      ${!current && acting && html`<span class="badge turn">to answer</span>`}
      ${badges}
    </header>
    ${hand
      ? html`<div class="seat-racks replay-racks">
          ${sv.racks.map((r, i) => html`<div class="replay-hand"><${RackPublic} rack=${r} index=${i}
            concealed=${splitTiles(hand[i] || "")} who=${name} /></div>`)}
        </div>`
      : html`<div class="seat-concealed"><${Backs} n=${sv.concealed} /></div>
        <div class="seat-racks">
          ${sv.racks.map((r, i) => html`<${RackPublic} rack=${r} index=${i} />`)}
        </div>`}
  </section>`;
}

/** The discard pool, oldest first, the latest discard highlighted. */
export function DiscardPool({ discards, names, window: win }) {
  const n = discards.length;
  return html`<section class="pool" aria-labelledby="pool-title">
    <h2 id="pool-title">Discards <span class="muted">(${n})</span></h2>
    <div class="pool-tiles" role="list">
      ${discards.map(([s, t], i) => {
        const latest = i === n - 1;
        const label = `${tileLabel(t)}, discarded by ${seatName(names, s)}` +
          (latest ? " (latest)" : "");
        return html`<span role="listitem" class=${`pool-tile ${latest ? "latest" : ""} ` +
            `${latest && win ? "claimable" : ""}`} data-seat=${s} title=${label}
            id=${latest ? "latest-discard" : undefined}>
          <img class="tile-img tile-m" src=${`/static/tiles/${t}.svg`} alt=${label}
            draggable="false" />
        </span>`;
      })}
      ${!n && html`<p class="muted">No discards yet.</p>`}
    </div>
  </section>`;
}

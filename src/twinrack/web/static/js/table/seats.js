// The table itself: the other seats around it with their winds, names and discards (in
// order, the last one marked), and in the middle the wall, the turn and the discard on offer.
import { html } from "/static/vendor/preact-htm.js";
import { RackPublic } from "../board.js";
import { Backs, Tile, TileRow, splitTiles, tileLabel } from "../tiles.js";

/** The seats' winds, as the tournament desk names them too: the two seats of a Siamese
 * table sit across from each other, East and West (the page's `data-players`). */
const ROOT = typeof document !== "undefined" && document.getElementById("table-root");
export const WINDS = ROOT && ROOT.dataset.players === "2" ? ["East", "West"]
  : ["East", "South", "West", "North"];

/** "East: Ann" (a seat's wind and name; seat 0 is East, then in turn order). */
export function seatTitle(names, s) {
  const name = (names && names[s]) || `Seat ${s + 1}`;
  return `${WINDS[s] || `Seat ${s + 1}`}: ${name}`;
}

/** Where a seat sits seen from `me` (the viewer is at the bottom; the next to play on the
 * right, as at a real table). */
export function placeOf(s, me, n) {
  const p = (s - (me === null || me === undefined ? 0 : me) + n) % n;
  if (n === 2) return p === 0 ? "bottom" : "top";
  if (n === 3) return ["bottom", "right", "left"][p];
  return ["bottom", "right", "top", "left"][p];
}

/** One seat's discards, oldest first: one tab stop, the arrow keys go through them. */
export function DiscardRow({ discards, s, names, win, latestIndex }) {
  const mine = discards.map(([who, t], i) => [who, t, i]).filter(([who]) => who === s);
  const label = `${seatTitle(names, s)}, discards: ${mine.map(([, t]) => tileLabel(t)).join(", ") || "none"}`;
  function onKey(e) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight" && e.key !== "Home" && e.key !== "End") return;
    const tiles = [...e.currentTarget.querySelectorAll(".pool-tile")];
    if (!tiles.length) return;
    let at = tiles.indexOf(document.activeElement);
    if (e.key === "Home") at = 0;
    else if (e.key === "End") at = tiles.length - 1;
    else at = Math.max(0, Math.min(tiles.length - 1, at + (e.key === "ArrowRight" ? 1 : -1)));
    tiles[at].focus();
    e.preventDefault();
    e.stopPropagation();
  }
  return html`<div class="discard-row" role="list" tabindex="0" aria-label=${label}
      data-seat=${s} onKeyDown=${onKey}>
    ${mine.map(([, t, i], k) => {
      const latest = i === latestIndex;
      const what = `${tileLabel(t)}, discard ${k + 1} of ${seatTitle(names, s)}${latest ? " (latest)" : ""}`;
      return html`<span role="listitem" tabindex="-1" aria-label=${what} title=${what}
          class=${`pool-tile ${latest ? "latest" : ""} ${latest && win ? "claimable" : ""}`}
          data-tile=${t} id=${latest ? "latest-discard" : undefined}>
        <img class="tile-img tile-s" src=${`/static/tiles/${t}.svg`} alt="" draggable="false" />
      </span>`;
    })}
    ${!mine.length && html`<span class="muted nothing">no discards</span>`}
  </div>`;
}

/** The takeover countdown of a seat that left (`takeover_at`: this browser's clock). */
function Takeover({ player, now }) {
  if (!player || player.takeover_at === null || player.takeover_at === undefined) return null;
  // `now` ticks to draw the countdown again; the time is read afresh (a tick may be old)
  const left = Math.max(0, Math.ceil((player.takeover_at - Math.max(now, Date.now())) / 1000));
  return html`<span class="badge off takeover" role="timer" data-seat=${player.seat}>
    left the table: a bot plays in ${left} s</span>`;
}

function badges(player, sv, now) {
  const out = [];
  if (player) {
    if (player.kind && player.kind !== "human") {
      out.push(html`<span class="badge bot">computer (${player.kind})</span>`);
    } else if (player.connected) {
      out.push(html`<span class="badge on">connected</span>`);
    } else if (!player.bot_playing) {
      out.push(html`<${Takeover} player=${player} now=${now} />`);
      if (player.takeover_at === null || player.takeover_at === undefined) {
        out.push(html`<span class="badge off">not connected</span>`);
      }
    }
    if (player.bot_playing) out.push(html`<span class="badge bot">bot playing</span>`);
  }
  if (sv.declared) out.push(html`<span class="badge declared">declared ${sv.declared}</span>`);
  if (sv.stopped) out.push(html`<span class="badge off">stopped</span>`);
  return out;
}

/** Another seat at the table: wind, name, what it conceals (faces once the game is over),
 * its racks' exposures, its discards. */
export function Seat({ sv, f, player, now, revealed }) {
  const { v, names } = f;
  const s = sv.seat;
  const acting = !f.over && v.to_act.includes(s);
  const current = !f.over && v.current === s;
  const hand = revealed ? revealed.map(splitTiles) : null;
  return html`<section class=${`seat seat-panel seat-${placeOf(s, f.me, v.players)} ${acting ? "acting" : ""}`}
      aria-label=${seatTitle(names, s)} data-seat=${s}>
    <header class="seat-head">
      <h3><span class="wind">${WINDS[s]}</span> ${(names && names[s]) || `Seat ${s + 1}`}</h3>
      ${current && html`<span class="badge turn">${acting ? "to play" : "turn"}</span>`}
      ${!current && acting && html`<span class="badge turn">to answer</span>`}
      ${badges(player, sv, now)}
      ${!hand && html`<span class="seat-concealed"><${Backs} n=${sv.concealed} max=${14} /></span>`}
    </header>
    <div class="seat-racks">
      ${sv.racks.map((r, i) => html`<${RackPublic} rack=${r} index=${i} showEmpty=${false}
        concealed=${hand ? hand[i] || [] : null} who=${seatTitle(names, s)} />`)}
    </div>
    <div class="seat-discards"><span class="rack-name discards-name">Discards</span>
      <${DiscardRow} discards=${v.discards} s=${s} names=${names} win=${v.window}
        latestIndex=${v.discards.length - 1} /></div>
  </section>`;
}

/** The middle of the table: the wall, the turn, the discard on offer. */
export function Centre({ f }) {
  const { v, names } = f;
  const win = v.window;
  return html`<section class="centre" aria-label="The middle of the table">
    <p class="wall"><span class="wall-count" id="wall-left">${v.wall_left}</span> tiles in the wall</p>
    <p class="muted">Turn ${v.turn}${f.over ? "" : `: ${seatTitle(names, v.current)}`}</p>
    ${win && html`<p class="on-offer">${seatTitle(names, win.discarder)} discarded
      <${Tile} t=${win.tile} size="m" /> <strong>${tileLabel(win.tile)}</strong></p>`}
    ${!win && v.claim && html`<p class="on-offer">${seatTitle(names, v.claim.seat)} claimed
      <${TileRow} tiles=${[v.claim.tile]} size="s" /></p>`}
  </section>`;
}

/** The other seats around the middle (the viewer's own seat is drawn below, with its racks). */
export function TableRing({ f, players, now, revealed }) {
  const { v } = f;
  const playerOf = (s) => (players || []).find((p) => p.seat === s);
  const others = v.seats.filter((sv) => sv.seat !== f.me || !f.seated);
  return html`<div class=${`ring ring-${v.players}`} data-players=${v.players}>
    ${others.map((sv) => html`<${Seat} sv=${sv} f=${f} player=${playerOf(sv.seat)} now=${now}
      revealed=${revealed ? revealed[sv.seat] : null} />`)}
    <${Centre} f=${f} />
  </div>`;
}

// The card at hand (docs/protocol.md, "The card"): the card panel (a drawer; full width on a
// phone) showing the card by section as the server sends it (GET /api/games/{id}/card, or a
// lobby / editor card), each line with its points and concealed or exposed mark, the lines
// in reach of the viewer's racks (the hints' `reach`, the viewer's own) highlighted with
// their tiles away. Every line name on the page is a LineLink, or a name inside text made
// one by Linked: pressing it opens the panel at that line.
import { html, useEffect, useState } from "/static/vendor/preact-htm.js";
import { TileRow } from "../tiles.js";

const OPEN = "twinrack:card";
let known = [];  // the ids of the card shown, longest first (for Linked)
let pattern = null;

function escape(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

export function learnCard(card) {
  known = card ? card.sections.flatMap((s) => s.lines.map((l) => l.id))
    .sort((a, b) => b.length - a.length) : [];
  pattern = known.length ? new RegExp(`(?<![\\w-])(${known.map(escape).join("|")})(?![\\w-])`, "g") : null;
}

/** Open the card panel at line `id` (null: at the top). */
export function openLine(id) {
  window.dispatchEvent(new CustomEvent(OPEN, { detail: id || null }));
}

export function LineLink({ id }) {
  return html`<button type="button" class="link line-link" data-line=${id}
    onClick=${(e) => { e.stopPropagation(); openLine(id); }} title=${`${id} on the card`}>${id}</button>`;
}

/** `text` with every line name of the card a LineLink. */
export function Linked({ text }) {
  if (!text || !pattern) return text || null;
  const out = [];
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    out.push(text.slice(at, m.index), html`<${LineLink} id=${m[1]} />`);
    at = m.index + m[1].length;
  }
  out.push(text.slice(at));
  return out;
}

/** The card from `src`, fetched once. */
export function useCard(src) {
  const [card, setCard] = useState(null);
  useEffect(() => {
    if (!src) return undefined;
    let live = true;
    fetch(src).then((r) => (r.ok ? r.json() : null)).then((c) => {
      if (live && c) { learnCard(c); setCard(c); }
    }).catch(() => {});
    return () => { live = false; };
  }, [src]);
  return card;
}

function CardLine({ line, away, focus, openAll }) {
  const reach = away !== undefined;
  const mark = line.concealed ? "C" : "X";
  return html`<li class=${`card-line ${reach ? "in-reach" : ""} ${focus ? "focus" : ""}`}
      id=${`line-${line.id}`} data-line=${line.id} data-away=${reach ? away : ""}>
    <span class="cl-id">${line.id}</span>
    <span class="cl-pattern">${line.pattern}</span>
    <span class="cl-points">${line.value}</span>
    <span class=${`cl-mark ${mark === "C" ? "concealed" : "exposed"}`}
      title=${mark === "X" ? "exposed: exposures allowed" : openAll
        ? "concealed on the card; these rules let it be played open" : "concealed: no exposure"}>${mark}</span>
    ${reach && html`<span class="badge cl-away">${away} away</span>`}
    ${line.note && html`<small class="cl-note muted">${line.note}</small>`}
    ${focus && html`<div class="cl-sample"><${TileRow} tiles=${line.sample.flat()} size="xs"
      label=${`${line.id}, one way`} /></div>`}
  </li>`;
}

/** The panel: closed until asked (the Card button, the K key, a line name). */
export function CardPanel({ card, reach, openLines, startOpen = false }) {
  const [at, setAt] = useState(startOpen ? null : undefined);  // undefined: closed; null: at the top
  useEffect(() => {
    const on = (e) => setAt(e.detail);
    const key = (e) => {
      if (e.key === "Escape") setAt(undefined);
    };
    window.addEventListener(OPEN, on);
    document.addEventListener("keydown", key);
    return () => { window.removeEventListener(OPEN, on); document.removeEventListener("keydown", key); };
  }, []);
  useEffect(() => {
    if (!at) return;
    const el = document.getElementById(`line-${at}`);
    if (el) el.scrollIntoView({ block: "center" });
  }, [at, card]);
  if (at === undefined) return null;
  const away = new Map((reach || []).map((r) => [r.id, r.away]));
  return html`<aside class="card-drawer" id="card-drawer" role="dialog" aria-label="The card">
    <header><h2>${card ? card.name : "The card"}</h2>
      <button type="button" id="card-close" onClick=${() => setAt(undefined)}
        aria-label="close the card">\u00d7</button></header>
    ${card && html`<p class="muted cp-legend">${card.lines} lines. X: exposures allowed, C: concealed.
      ${openLines && html` <strong id="open-lines">Under these rules every line may be played open.</strong>`}
      ${away.size > 0 && html` Highlighted: within reach of your racks.`}</p>`}
    ${!card && html`<p class="muted">Loading the card\u2026</p>`}
    ${card && card.sections.map((s) => html`<section class="card-section">
      <h3>${s.name}</h3>
      <ul>${s.lines.map((l) => html`<${CardLine} line=${l} away=${away.get(l.id)} focus=${l.id === at}
        openAll=${openLines} />`)}</ul></section>`)}
  </aside>`;
}

export function CardButton() {
  return html`<button type="button" id="btn-card" aria-keyshortcuts="K"
    onClick=${() => openLine(null)}>Card</button>`;
}

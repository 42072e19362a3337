// "View the card" outside the table (the lobby, the card editor): the table's card drawer
// (table/card.js) over the page, showing a card the server sent (the practice card, a saved
// card, or an uploaded or edited one as the server's check read it).
import { html, render, useEffect, useState } from "/static/vendor/preact-htm.js";
import { CardPanel, learnCard } from "./table/card.js";
import { csrfHeaders } from "./csrf.js";

const SHOW = "twinrack:card-data";

let first = null;  // the card shown before the viewer listened

function Viewer() {
  const [shown, setShown] = useState({ card: first, n: 0 });
  useEffect(() => {
    const on = (e) => { learnCard(e.detail); setShown((s) => ({ card: e.detail, n: s.n + 1 })); };
    window.addEventListener(SHOW, on);
    return () => window.removeEventListener(SHOW, on);
  }, []);
  return html`<${CardPanel} key=${shown.n} card=${shown.card} reach=${null} openLines=${false}
    startOpen=${!!shown.card} />`;
}

let mounted = false;

/** Show `card` (a sheet: docs/protocol.md, "The card") in the drawer. */
export function showCard(card) {
  if (!mounted) {
    learnCard(card);
    first = card;
    const root = document.createElement("div");
    root.id = "card-view-root";
    document.body.appendChild(root);
    render(html`<${Viewer} />`, root);
    mounted = true;
    return;
  }
  window.dispatchEvent(new CustomEvent(SHOW, { detail: card }));
}

/** Fetch a sheet (GET `src`, or POST the card's `source` to the check) and show it. */
export async function viewCard({ src, source }) {
  const r = source === undefined ? await fetch(src)
    : await fetch("/api/cards/check", { method: "POST", headers: csrfHeaders({ "Content-Type": "application/json" }),
      body: JSON.stringify({ source }) });
  const body = await r.json();
  const sheet = source === undefined ? body : body.sheet;
  if (!r.ok || !sheet) throw new Error(body.error || "the card does not load: fix its problems first");
  showCard(sheet);
}

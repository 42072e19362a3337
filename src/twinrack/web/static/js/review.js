// The post-game review beside the replay: one seat's decisions rated by the master
// (GET /api/games/{id}/review?seat=N), the three biggest mistakes in words, each a button
// that takes the replay to that step, and a chart of the seat's chance to finish.
import { html, useEffect, useState } from "/static/vendor/preact-htm.js";
import { Linked } from "./table/card.js";

const W = 280;
const H = 120;
const PAD = 32;

/** The seat's chance of finishing after each of its decisions: x the turn, y 0-100%. */
export function ChanceChart({ chances, name, mistakes = [] }) {
  if (!chances.length) return html`<p class="muted">No decision to chart.</p>`;
  const turns = chances.map((c) => c[0]);
  const lo = Math.min(...turns);
  const span = Math.max(1, Math.max(...turns) - lo);
  const x = (t) => PAD + ((t - lo) / span) * (W - PAD - 6);
  const y = (c) => 6 + (1 - c) * (H - PAD - 6);
  const points = chances.map(([t, c]) => `${x(t).toFixed(1)},${y(c).toFixed(1)}`).join(" ");
  const first = Math.round(chances[0][1] * 100);
  const end = Math.round(chances[chances.length - 1][1] * 100);
  const top = Math.round(Math.max(...chances.map((c) => c[1])) * 100);
  return html`<svg id="rv-chart" class="rv-chart" viewBox=${`0 0 ${W} ${H}`} width=${W} height=${H}
      role="img" aria-labelledby="rv-chart-title rv-chart-desc">
    <title id="rv-chart-title">${name}'s chance of finishing, turn by turn</title>
    <desc id="rv-chart-desc">${chances.length} decisions from turn ${lo} to turn ${lo + span}:
      ${first}% at the first, ${top}% at best, ${end}% at the last.</desc>
    <line x1=${PAD} y1=${y(0)} x2=${W - 6} y2=${y(0)} class="rv-axis" />
    <line x1=${PAD} y1=${y(0)} x2=${PAD} y2=${y(1)} class="rv-axis" />
    <text x=${PAD - 3} y=${y(1) + 4} text-anchor="end" class="rv-label">100%</text>
    <text x=${PAD - 3} y=${y(0)} text-anchor="end" class="rv-label">0%</text>
    <text x=${PAD} y=${H - 4} class="rv-label">turn ${lo}</text>
    <text x=${W - 6} y=${H - 4} text-anchor="end" class="rv-label">turn ${lo + span}</text>
    <polyline points=${points} class="rv-line" fill="none" />
    ${chances.map(([t, c]) => html`<circle class="rv-point" cx=${x(t).toFixed(1)} cy=${y(c).toFixed(1)} r="2.2">
      <title>turn ${t}: ${Math.round(c * 100)}%</title></circle>`)}
    ${mistakes.map((m, k) => html`<g class="rv-mark" data-turn=${m.turn}>
      <circle cx=${x(m.turn).toFixed(1)} cy=${y(m.chance_played).toFixed(1)} r="5" />
      <text x=${x(m.turn).toFixed(1)} y=${(y(m.chance_played) - 7).toFixed(1)} text-anchor="middle"
        class="rv-label">${k + 1}</text>
      <title>mistake ${k + 1}, turn ${m.turn}: ${m.played_words || m.played}</title></g>`)}
  </svg>`;
}

function Mistake({ m, go }) {
  const pct = (c) => `${Math.round(c * 100)}%`;
  let margin = "";  // what the master's play-out says the choice cost (when it was played out)
  if (m.margin_lost > 0) margin = `, ${m.margin_lost.toFixed(1)} points of game margin lost`;
  else if (m.margin_lost != null) margin = ", no game margin lost in the master's play-out";
  const odds = ` (${pct(m.chance_played)} vs ${pct(m.chance_best)} to finish, `
    + `${m.points_played.toFixed(1)} vs ${m.points_best.toFixed(1)} expected points${margin}): `;
  return html`<li class="rv-mistake">
    <button type="button" class="link rv-goto" onClick=${() => go(m.number)}
      title="show this step in the replay">Turn ${m.turn}</button>${": "}<span class="rv-played">${m.played_words || m.played}</span>${"; better: "}<span class="rv-best">${m.best_words || m.best}</span>${odds}<span class="rv-why"><${Linked} text=${m.why} />.</span>
  </li>`;
}

/** The review of the chosen seat, fetched when the seat changes (the server keeps it). */
export function ReviewPanel({ game, names, seat, go }) {
  const [who, setWho] = useState(seat);
  const [got, setGot] = useState({ seat: null });
  useEffect(() => {
    let live = true;
    setGot({ seat: who });
    fetch(`/api/games/${encodeURIComponent(game)}/review?seat=${who}`)
      .then(async (r) => {
        const body = await r.json();
        if (!r.ok) throw new Error(body.error || r.statusText);
        if (live) setGot({ seat: who, review: body });
      })
      .catch((err) => live && setGot({ seat: who, error: String(err.message || err) }));
    return () => { live = false; };
  }, [who]);
  useEffect(() => {  // the end-of-game panel links here (#review)
    if (window.location.hash === "#review") document.getElementById("review").scrollIntoView();
  }, []);
  const r = got.review;
  return html`<section id="review" class="review" aria-busy=${r || got.error ? "false" : "true"}>
    <h2>Review</h2>
    <label>Player <select id="rv-seat" value=${who} onChange=${(e) => setWho(Number(e.target.value))}>
      ${names.map((n, s) => html`<option value=${s}>${s + 1}. ${n}</option>`)}
    </select></label>
    ${got.error && html`<p class="banner notice error" role="alert" id="rv-error">The review could not be made: ${got.error}</p>`}
    ${!r && !got.error && html`<p class="muted" id="rv-busy" role="status">Reviewing\u2026</p>`}
    ${r && html`<div id="rv-result" data-seat=${r.seat}>
      <p class="muted">${r.decisions} decisions with a choice, rated by the master.</p>
      <h3>The biggest mistakes</h3>
      ${r.mistakes.length
        ? html`<ol id="rv-mistakes">${r.mistakes.map((m) => html`<${Mistake} m=${m} go=${go} />`)}</ol>`
        : html`<p id="rv-none">No mistake found: every choice was as good as the best one.</p>`}
      <h3>Chance of finishing</h3>
      <${ChanceChart} chances=${r.chances} name=${names[r.seat]} mistakes=${r.mistakes} />
    </div>`}
  </section>`;
}

// The replay viewer: every frame of a finished game, every hand shown.
import { html, render, useEffect, useRef, useState } from "/static/vendor/preact-htm.js";
import { DiscardPool, SeatPanel } from "./board.js";
import { ReviewPanel } from "./review.js";
import { CardPanel, useCard } from "./table/card.js";
import { ScorePanel } from "./verify.js";

const root = document.getElementById("replay-root");
const GAME = root.dataset.game;
// the viewer's own seat when its browser holds one (the review starts there), else the first
const SEAT = /^\d+$/.test(root.dataset.seat || "") ? Number(root.dataset.seat) : 0;

const isPass = (frame) => / pass$/.test(frame.action);
/** A decision of `seat`: the frame before its own action (not a pass or a move). */
const decides = (frames, k, seat) => k + 1 < frames.length
  && new RegExp(`^${seat}: (?!pass$|move )`).test(frames[k + 1].action);

/** The step `d` (+1 or -1) from `i`, over the passes when `skip`. */
function stepFrom(frames, i, d, skip) {
  let j = i + d;
  while (skip && j > 0 && j < frames.length - 1 && isPass(frames[j])) j += d;
  return j;
}

/** The next decision of `seat` after step `i` (or null). */
function nextDecision(frames, i, seat) {
  for (let k = i + 1; k < frames.length; k++) if (decides(frames, k, seat)) return k;
  return null;
}

/** First, previous, play, next, last, and a slider over the steps. */
function ReplayControls({ i, last, go, playing, setPlaying, step, skip, setSkip, mine }) {
  const atEnd = i === last;
  return html`<div class="replay-controls" role="group" aria-label="Replay controls">
    <button type="button" id="rp-first" onClick=${() => go(0)} disabled=${i === 0}
      aria-label="first step">\u00ab First</button>
    <button type="button" id="rp-prev" onClick=${() => step(-1)} disabled=${i === 0}
      aria-keyshortcuts="ArrowLeft">\u25c0 Previous</button>
    <button type="button" id="rp-play" onClick=${() => setPlaying(!playing)}
      aria-pressed=${playing ? "true" : "false"}>${playing ? "Pause" : "Play"}</button>
    <button type="button" id="rp-next" onClick=${() => step(1)} disabled=${atEnd}
      aria-keyshortcuts="ArrowRight">Next \u25b6</button>
    <button type="button" id="rp-mine" onClick=${() => mine !== null && go(mine)} disabled=${mine === null}
      aria-keyshortcuts="J">My next decision</button>
    <label class="rp-skip"><input type="checkbox" id="rp-skip" checked=${skip}
      onChange=${(e) => setSkip(e.target.checked)} /> skip passes</label>
    <button type="button" id="rp-last" onClick=${() => go(last)} disabled=${atEnd}
      aria-label="last step">Last \u00bb</button>
    <input type="range" id="rp-slider" min="0" max=${last} value=${i}
      aria-label="step of the game" aria-valuetext=${`step ${i} of ${last}`}
      onInput=${(e) => go(Number(e.target.value))} />
    <span class="replay-step" id="rp-step">Step ${i} / ${last}</span>
  </div>`;
}

function Replay({ data }) {
  const frames = data.frames;
  const last = frames.length - 1;
  const [i, setI] = useState(0);
  const [playing, setPlaying] = useState(false);
  const names = data.names;
  const go = (n) => setI(Math.max(0, Math.min(last, n)));
  const cur = useRef(i);
  cur.current = i;
  const [skip, setSkip] = useState(true);
  const skipping = useRef(skip);
  skipping.current = skip;
  const step = (d) => go(stepFrom(frames, cur.current, d, skipping.current));
  const card = useCard(`/api/games/${encodeURIComponent(GAME)}/card`);

  useEffect(() => {
    if (!playing) return undefined;
    const t = setInterval(() => {
      if (cur.current >= last) { setPlaying(false); return; }
      setI(cur.current + 1);
    }, 600);
    return () => clearInterval(t);
  }, [playing]);

  useEffect(() => {
    function onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const tag = (e.target && e.target.tagName) || "";
      if (/^(TEXTAREA|SELECT)$/.test(tag)) return;
      if (tag === "INPUT" && e.target.type !== "range") return;
      let done = true;
      if (e.key === "ArrowRight" || e.key === "n" || e.key === "N") step(1);
      else if (e.key === "ArrowLeft" || e.key === "p" || e.key === "P") step(-1);
      else if (e.key === "j" || e.key === "J") {
        const k = nextDecision(frames, cur.current, SEAT);
        if (k !== null) go(k);
      }
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(last);
      else if (e.key === "PageDown") go(cur.current + 10);
      else if (e.key === "PageUp") go(cur.current - 10);
      else if (e.key === " " && tag !== "BUTTON") setPlaying((p) => !p);
      else done = false;
      if (done) e.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const f = frames[i];
  const v0 = f.views[0];
  const atEnd = i === last;
  return html`<div class="replay-app table-app" id="replay-app" data-step=${i} data-steps=${frames.length}>
    <${ReplayControls} i=${i} last=${last} go=${go} playing=${playing} setPlaying=${setPlaying}
      step=${step} skip=${skip} setSkip=${setSkip} mine=${nextDecision(frames, i, SEAT)} />
    <div class="replay-now" aria-live="polite">
      <p class="replay-action" id="rp-action" title=${f.action}>${f.said}</p>
      <ul id="rp-events">${f.log.map((line) => html`<li class=${`ev ev-${line.tone || "plain"}`}>${line.text}</li>`)}</ul>
      <p class="muted">Wall: ${v0.wall_left} tiles left, turn ${v0.turn}.</p>
    </div>
    <div class="table-grid">
      <div class="table-main">
        ${atEnd && data.score && html`<${ScorePanel} gameId=${GAME} score=${data.score} names=${names}
          seed=${data.seed} commitment=${data.commitment} replayLink=${false} />`}
        <div class="replay-seats">
          ${v0.seats.map((sv) => html`<${SeatPanel} sv=${sv} player=${{ name: names[sv.seat] }}
            names=${names} current=${v0.current === sv.seat && v0.phase !== "over"}
            toAct=${v0.to_act} hand=${f.views[sv.seat].hand || []} />`)}
        </div>
        <${DiscardPool} discards=${v0.discards} names=${names} window=${v0.window} />
      </div>
      <aside class="side">
        <section>
          <h2>About this game</h2>
          <p>Players: ${names.map((n, s) => `${s + 1}. ${n}`).join(", ")}</p>
          <p class="muted">Keys: \u2190 / \u2192 step (over the passes unless unticked), J your next decision, Home / End, Page Up / Down jump 10, Space plays.</p>
          ${!atEnd && html`<p><button type="button" onClick=${() => go(last)}>Go to the end and the score</button></p>`}
          <p><a href=${`/api/games/${encodeURIComponent(GAME)}/record`}>Game record (JSON)</a></p>
        </section>
        <${ReviewPanel} game=${GAME} names=${names} seat=${Math.min(SEAT, names.length - 1)} go=${go} />
      </aside>
    </div>
    <${CardPanel} card=${card} reach=${null} openLines=${card && card.open_lines} />
  </div>`;
}

function Loader() {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    fetch(`/api/games/${encodeURIComponent(GAME)}/replay`)
      .then(async (r) => {
        const body = await r.json();
        if (!r.ok) throw new Error(body.error || r.statusText);
        setData(body);
      })
      .catch((err) => setError(String(err.message || err)));
  }, []);
  if (error) return html`<div class="banner notice error" role="alert">The replay could not be loaded: ${error}</div>`;
  if (!data) return html`<p class="muted">Loading the replay...</p>`;
  return html`<${Replay} data=${data} />`;
}

root.textContent = "";
render(html`<${Loader} />`, root);

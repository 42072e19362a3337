// The game log: lines the server has already put in words for this seat (docs/protocol.md),
// shown as they come.
import { html, useEffect, useRef } from "/static/vendor/preact-htm.js";

export function GameLog({ log }) {
  const box = useRef(null);
  // keep the newest line in view, unless the reader scrolled up
  useEffect(() => {
    const el = box.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 80) el.scrollTop = el.scrollHeight;
  }, [log.length]);
  return html`<section class="log" aria-labelledby="log-title">
    <h2 id="log-title">Game log</h2>
    <div class="log-box" ref=${box} tabindex="0" aria-label="game log, scrollable">
      <ol aria-live="polite" aria-relevant="additions" id="game-log">
        ${log.map((line) => html`<li class=${`ev ev-${line.tone || "plain"}`}>${line.text}</li>`)}
      </ol>
    </div>
  </section>`;
}

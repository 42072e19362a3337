// The game log: lines the server has already put in words for this seat (docs/protocol.md),
// shown as they come.
import { html, useLayoutEffect, useRef } from "/static/vendor/preact-htm.js";

export function GameLog({ log }) {
  const box = useRef(null);
  // whether the reader is at the bottom, noted when they scroll (not after new lines
  // arrived: one update may add many lines, and the log must keep following then too)
  const follow = useRef(true);
  const onScroll = (e) => {
    const el = e.currentTarget;
    follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [log.length]);
  return html`<section class="log" aria-labelledby="log-title">
    <h2 id="log-title">Game log</h2>
    <div class="log-box" ref=${box} tabindex="0" aria-label="game log, scrollable" id="log-box"
        onScroll=${onScroll}>
      <ol aria-live="polite" aria-relevant="additions" id="game-log">
        ${log.map((line) => html`<li class=${`ev ev-${line.tone || "plain"}`}>${line.text}</li>`)}
      </ol>
    </div>
  </section>`;
}

// The end of a game: the verdict in one line first, then (below the table, where every
// hand is now shown) the itemized score and what to do next: Replay, Verify the shuffle,
// Rematch (the same seats, a new seed) and New game.
import { html } from "/static/vendor/preact-htm.js";
import { ScorePanel } from "../verify.js";
import { CSRF } from "../csrf.js";

export function Verdict({ score }) {
  return html`<section class="verdict" id="verdict" aria-live="polite">
    <h2 id="verdict-text">${score.verdict || score.ending}</h2>
    <p class="muted">${score.ending} Every hand is shown on the table; the score is below.</p>
  </section>`;
}

/** Rematch: the first seat to ask makes the new table; once it exists the others are
 * told, and the same form (which carries this seat's token) takes each to its own seat. */
function Rematch({ game, token, link, seated }) {
  if (!seated) return null;
  const id = link ? "rematch-link" : "rematch-btn";
  const label = link ? "Join the rematch" : "Rematch (same seats, new shuffle)";
  return html`<form method="post" action=${`/t/${encodeURIComponent(game)}/rematch`} class="inline">
    <input type="hidden" name="token" value=${token} />
    <input type="hidden" name="csrf" value=${CSRF} />
    <button type="submit" class="primary" id=${id}>${label}</button>
  </form>`;
}

export function EndPanel({ f, msg, game, token }) {
  const { v, me, names, seated } = f;
  return html`<${ScorePanel} gameId=${game} score=${msg.score} names=${names}
      seed=${v.seed} commitment=${v.commitment} mySeat=${seated ? me : null} replayLink=${false}>
    <p class="end-actions" id="end-actions">
      <a class="button" id="replay-link" href=${`/t/${encodeURIComponent(game)}/replay`}>Replay
        (all hands shown)</a>
      <a class="button" id="review-link" href=${`/t/${encodeURIComponent(game)}/replay#review`}>Review
        (the master rates each decision)</a>
      <${Rematch} game=${game} token=${token} link=${msg.rematch} seated=${seated} />
      <a class="button" id="new-game" href="/">New game</a>
      <a href=${`/api/games/${encodeURIComponent(game)}/record`}>Game record (JSON)</a>
    </p>
  </${ScorePanel}>`;
}

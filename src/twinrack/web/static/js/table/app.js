// The live table page (docs/protocol.md). The server decides everything: the page renders
// each state and sends back only actions from its legal list.
import { html, useEffect, useRef, useState } from "/static/vendor/preact-htm.js";
import { DiscardPool, SeatPanel, seatName } from "../board.js";
import { ScorePanel } from "../verify.js";
import { Choices } from "./choices.js";
import { Controls } from "./controls.js";
import { ConfirmKill } from "./dialog.js";
import { Hints } from "./hints.js";
import { KeysHelp, useKeys } from "./keys.js";
import { legalActions } from "./legal.js";
import { GameLog } from "./log.js";
import { Prompt } from "./prompt.js";
import { MyRacks } from "./racks.js";
import { useSelection } from "./selection.js";
import { useTableSocket } from "./socket.js";
import { Banners, StatusBar, connWords } from "./status.js";

/** What the page needs to know of a state: who this seat is and whether it is to act. */
function facts(msg, players) {
  const v = msg.view;
  const me = msg.seat;
  const seated = me !== null && me !== undefined;
  return { v, me, seated, over: v.phase === "over", names: (players || []).map((p) => p.name),
    myTurn: seated && v.phase === "turn" && v.current === me,
    iAnswer: seated && v.to_act.includes(me) };
}

/** The final score comes into view once, when the game ends. */
function useScoreInView(shown) {
  const seen = useRef(false);
  useEffect(() => {
    if (!shown || seen.current) return;
    seen.current = true;
    const el = document.getElementById("score");
    if (el) el.scrollIntoView({ block: "start" });
  }, [shown]);
}

/** The score, the other seats, the discards. */
function Board({ f, msg, players, game }) {
  const { v, me, names, over } = f;
  const playerOf = (s) => (players || []).find((p) => p.seat === s);
  return html`
    ${msg.score && html`<${ScorePanel} gameId=${game} score=${msg.score} names=${names}
      seed=${v.seed} commitment=${v.commitment} mySeat=${f.seated ? me : null} />`}
    <div class="opponents">
      ${v.seats.filter((s) => s.seat !== me).map((sv) => html`<${SeatPanel} sv=${sv}
        player=${playerOf(sv.seat)} names=${names} current=${v.current === sv.seat && !over}
        toAct=${over ? [] : v.to_act} />`)}
    </div>
    <${DiscardPool} discards=${v.discards} names=${names} window=${v.window} />`;
}

/** This seat's area: the prompt, the buttons, the choices, the racks. */
function MySeat({ f, msg, play }) {
  const mine = f.v.seats[f.me];
  return html`<section class=${`my-area ${f.myTurn || f.iAnswer ? "my-move" : ""}`}
      aria-label=${`Your seat: ${seatName(f.names, f.me)}`}>
    <header class="seat-head">
      <h2>${seatName(f.names, f.me)} <span class="you">(you)</span></h2>
      ${mine.declared && html`<span class="badge declared">declared ${mine.declared}</span>`}
      ${mine.stopped && html`<span class="badge off">stopped</span>`}
    </header>
    <${Prompt} f=${f} msg=${msg} />
    ${!f.over && html`<${Controls} f=${f} selected=${play.selection.selected} ...${play} />`}
    ${!f.over && html`<${Choices} f=${f} ...${play} />`}
    <${MyRacks} seat=${mine} claimed=${!!f.v.claim} ...${play} />
  </section>`;
}

/** What the keys do now (keys.js). */
function keyCommands(play, f, toggleHints, help) {
  const { legal, selection, act, moveTo } = play;
  const sel = selection.selected;
  const targets = sel ? legal.moveTargets(sel.rack, sel.tile) : [];
  return { step: selection.step, toggleHints, help, seated: !!(f && f.seated),
    discard: () => sel && act(legal.discard(sel.tile)),
    move: () => sel && targets.length && moveTo(sel.rack, sel.tile, targets[0]),
    claim: () => act(legal.bestClaim()), pass: () => act(legal.one("pass")) };
}

export function App({ game, token }) {
  const [hintsOn, setHintsOn] = useState(true);
  const [help, setHelp] = useState(false);
  const [confirm, setConfirm] = useState(null); // an action that kills its rack, asked first
  const table = useTableSocket(game, token, hintsOn);
  const { msg, conn } = table;
  const selection = useSelection(msg && msg.view);
  useScoreInView(!!(msg && msg.score));
  const legal = legalActions((msg && msg.legal) || []);
  const busy = !!table.pending || conn.status !== "open";
  const act = (a) => { if (a && !busy) (a.kills_rack ? setConfirm : table.send)(a); };
  const moveTo = (rack, tile, to) => {
    const a = legal.move(tile, rack, to);
    if (a && !busy) { selection.follow(to, tile); act(a); }
  };
  const toggleHints = () => { setHintsOn(!hintsOn); table.raw({ type: "hints", on: !hintsOn }); };
  const play = { legal, busy, act, moveTo, selection };
  const f = msg ? facts(msg, table.players) : null;
  useKeys(keyCommands(play, f, toggleHints, () => setHelp(true)));
  if (!f) return html`<div class="table-app loading"><p class="muted">${connWords(conn)}</p></div>`;
  const ready = f.seated && !f.over && !busy && f.iAnswer && legal.all.length > 0;
  return html`<div class="table-app" id="table-app" data-phase=${f.v.phase} data-version=${msg.version}
      data-ready=${ready ? "true" : "false"} data-seat=${f.seated ? f.me : ""}
      data-pending=${table.pending ? "true" : "false"} data-to-act=${f.over ? "" : f.v.to_act.join(",")}>
    <${StatusBar} f=${f} conn=${conn} nudge=${table.nudge} hintsOn=${hintsOn}
      toggleHints=${toggleHints} openHelp=${() => setHelp(true)} />
    <${Banners} conn=${conn} paused=${msg.paused} notice=${table.notice}
      dismiss=${() => table.setNotice(null)} />
    <div class="table-grid">
      <div class="table-main">
        <${Board} f=${f} msg=${msg} players=${table.players} game=${game} />
        ${f.seated && html`<${MySeat} f=${f} msg=${msg} play=${play} />`}
      </div>
      <aside class="side">
        ${f.seated && hintsOn && !f.over && html`<${Hints} hints=${msg.hints} />`}
        <${GameLog} log=${table.log} />
      </aside>
    </div>
    ${help && html`<${KeysHelp} onClose=${() => setHelp(false)} />`}
    ${confirm && html`<${ConfirmKill} action=${confirm} onCancel=${() => setConfirm(null)}
      onConfirm=${() => { setConfirm(null); table.send(confirm); }} />`}
  </div>`;
}

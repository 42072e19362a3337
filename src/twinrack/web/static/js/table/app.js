// The live table page (docs/protocol.md). The server decides everything: the page renders
// each state and sends back only actions from its legal list.
import { html, useEffect, useRef, useState } from "/static/vendor/preact-htm.js";
import { CardPanel, Linked, openLine, useCard } from "./card.js";
import { Choices, choiceKeys } from "./choices.js";
import { Controls, discardTile } from "./controls.js";
import { ConfirmKill } from "./dialog.js";
import { EndPanel, Verdict } from "./ending.js";
import { Hints, HowItWorks, useFirstGameOver, hintNow } from "./hints.js";
import { KeysHelp, useKeys } from "./keys.js";
import { legalActions } from "./legal.js";
import { GameLog } from "./log.js";
import { SeatsPanel } from "./presence.js";
import { Prompt } from "./prompt.js";
import { MyRacks } from "./racks.js";
import { DiscardRow, TableRing, WINDS } from "./seats.js";
import { useSelection } from "./selection.js";
import { CharlestonPanel } from "./charleston.js";
import { useTableSocket } from "./socket.js";
import { useSound } from "./sound.js";
import { Banners, StatusBar, connWords } from "./status.js";
import { Tile } from "../tiles.js";
import { ChatPanel } from "../chat.js";

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
    const el = document.getElementById("verdict");
    if (el) el.scrollIntoView({ block: "start" });
  }, [shown]);
}

/** A clock for the takeover countdowns, ticking only while one runs. */
function useNow(players) {
  const [now, setNow] = useState(Date.now());
  const running = (players || []).some((p) => p.takeover_at !== null && p.takeover_at !== undefined);
  useEffect(() => {
    if (!running) return undefined;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [running]);
  return now;
}

/** The hint for the decision now, beside the prompt and the buttons (the phone shows the
 * full hints further down). */
function HintNow({ hints, on }) {
  const h = on ? hintNow(hints) : null;
  if (!h) return null;
  return html`<p class=${`hint-now hint-${h.kind}`} id="hint-now">
    <span class="hint-label">Hint:</span> ${h.tile && html`<${Tile} t=${h.tile} size="xs" />`} <${Linked} text=${h.text} /></p>`;
}

/** This seat's area: the prompt, the buttons, the choices, the racks, its discards. */
function MySeat({ f, msg, play, hintsOn }) {
  const mine = f.v.seats[f.me];
  const name = (f.names && f.names[f.me]) || `Seat ${f.me + 1}`;
  const hints = hintsOn ? msg.hints : null;
  const suggest = hints && hints.discard ? hints.discard.tile : null;
  const charleston = f.v.phase === "charleston"; // the American game's passes: charleston.js
  return html`<section class=${`my-area ${f.myTurn || f.iAnswer ? "my-move" : ""}`}
      aria-label=${`Your seat: ${WINDS[f.me]}, ${name}`} data-seat=${f.me}>
    <header class="seat-head">
      <h2><span class="wind">${WINDS[f.me]}</span> ${name} <span class="you">(you)</span></h2>
      ${mine.declared && html`<span class="badge declared">declared ${mine.declared}</span>`}
      ${mine.stopped && html`<span class="badge off">stopped</span>`}
    </header>
    <div class="decision">
      <${Prompt} f=${f} msg=${msg} />
      ${!f.over && !charleston && html`<${Controls} f=${f} hints=${hints} ...${play} />`}
      ${!f.over && (f.myTurn || f.iAnswer) && html`<${HintNow} hints=${msg.hints} on=${hintsOn} />`}
    </div>
    ${!f.over && html`<${Choices} f=${f} hints=${hints} ...${play} />`}
    ${charleston ? html`<${CharlestonPanel} f=${f} msg=${msg} hintsOn=${hintsOn} ...${play} />`
      : html`<${MyRacks} seat=${mine} claimed=${!!f.v.claim} suggest=${suggest} ...${play} />`}
    <div class="my-discards"><span class="rack-name">Your discards</span>
      <${DiscardRow} discards=${f.v.discards} s=${f.me} names=${f.names} win=${f.v.window}
        latestIndex=${f.v.discards.length - 1} /></div>
  </section>`;
}

/** The chat panel (chat.js) on the table's channel: lines come and go over its socket;
 * once the game is over every line is shown to everyone, so the panel loads them again. */
function ChatBox({ game, token, table, over }) {
  const box = useRef(null);
  const panel = useRef(null);
  useEffect(() => {
    const q = token ? `?token=${encodeURIComponent(token)}` : "";
    panel.current = new ChatPanel(box.current, { channel: `t:${game}`, token,
      linesUrl: `/api/chat/t/${encodeURIComponent(game)}/lines${q}`,
      say: (text, msgId) => table.raw({ type: "chat", text, msg_id: msgId }),
      setQuiet: (on) => table.raw({ type: "chat_quiet", on, msg_id: "chat-quiet" }) });
    table.chat.current = (m) => panel.current.receive(m);
    return () => { table.chat.current = null; panel.current.destroy(); };
  }, []);
  useEffect(() => { if (over && panel.current) panel.current.load(true); }, [over]);
  return html`<div class="chat-box" id="chat" ref=${box}></div>`;
}

/** What the keys do now (keys.js). */
function keyCommands(play, f, hints, toggleHints, help) {
  const { legal, selection, act, moveTo, arrange } = play;
  const sel = selection.selected;
  const targets = sel ? legal.moveTargets(sel.rack, sel.tile) : [];
  const tile = discardTile(selection, hints, legal);
  const keyed = f && f.seated ? choiceKeys(f, legal, hints) : [];
  return { step: selection.step, toggleHints, help, seated: !!(f && f.seated),
    discard: () => tile && act(legal.discard(tile)),
    jump: () => hints && hints.discard && selection.jump(hints.discard.tile),
    choice: (i) => keyed[i] && act(keyed[i]),
    arrange: () => arrange && arrange(),
    accept: () => hints && hints.action && act(legal.all.find((a) => a.text === hints.action.text)),
    card: () => openLine(null),
    move: () => sel && targets.length && moveTo(sel.rack, sel.tile, targets[0]),
    claim: () => act(legal.bestClaim()), pass: () => act(legal.one("pass")) };
}

/** "Arrange as the plan": the hint's moves (engine `move` actions), sent one at a time,
 * each as soon as the state before it has come back and only while it is still legal. */
function useArrange(msg, legal, busy, send) {
  const queue = useRef([]);
  const moves = (msg && msg.hints && msg.hints.arrange) || [];
  useEffect(() => {
    if (busy || !queue.current.length) return;
    const next = legal.all.find((a) => a.verb === "move" && a.text === queue.current[0]);
    queue.current = next ? queue.current.slice(1) : [];
    if (next) send(next);
  });
  if (!moves.length || !moves.every((t) => legal.all.some((a) => a.text === t))) return null;
  return () => {
    if (queue.current.length || busy) return;
    queue.current = moves.slice(1);
    send(legal.all.find((a) => a.text === moves[0]));
  };
}

export function App({ game, token, worker }) {
  const [hintsOn, setHintsOn] = useState(true);
  const [help, setHelp] = useState(false);
  const [confirm, setConfirm] = useState(null); // an action that kills its rack, asked first
  const table = useTableSocket(game, token, hintsOn, worker);
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
  const hints = hintsOn && msg ? msg.hints : null;
  const arrange = useArrange(hintsOn ? msg : null, legal, busy, table.send);
  const play = { legal, busy, act, moveTo, selection, arrange };
  const f = msg ? facts(msg, table.players) : null;
  const card = useCard(`/api/games/${encodeURIComponent(game)}/card`);
  const sound = useSound(f, legal);
  const now = useNow(table.players);
  useKeys(keyCommands(play, f, hints, toggleHints, () => setHelp(true)));
  useFirstGameOver(!!(f && f.seated && f.over));
  if (!f) return html`<div class="table-app loading"><p class="muted">${connWords(conn)}</p></div>`;
  const ready = f.seated && !f.over && !busy && f.iAnswer && legal.all.length > 0;
  const withdraw = legal.one("withdraw");
  return html`<div class="table-app" id="table-app" data-phase=${f.v.phase} data-version=${msg.version}
      data-ready=${ready ? "true" : "false"} data-seat=${f.seated ? f.me : ""}
      data-racks=${f.v.racks} data-players=${f.v.players}
      data-pending=${table.pending ? "true" : "false"} data-to-act=${f.over ? "" : f.v.to_act.join(",")}>
    <${StatusBar} f=${f} conn=${conn} nudge=${table.nudge} hintsOn=${hintsOn}
      toggleHints=${toggleHints} openHelp=${() => setHelp(true)} sound=${sound}
      alwaysAsk=${msg.always_ask} setAlwaysAsk=${table.setAlwaysAsk} />
    <${Banners} conn=${conn} paused=${msg.paused} notice=${table.notice}
      dismiss=${() => table.setNotice(null)} />
    <${SeatsPanel} msg=${msg} players=${table.players} raw=${table.raw} game=${game} token=${token} />
    <div class="table-grid">
      <div class="table-main">
        ${msg.score && html`<${Verdict} score=${msg.score} />`}
        <${TableRing} f=${f} players=${table.players} now=${now}
          revealed=${f.over && f.v.revealed && f.v.revealed.length ? f.v.revealed : null} />
        ${f.seated && html`<${MySeat} f=${f} msg=${msg} play=${play} hintsOn=${hintsOn} />`}
        ${msg.score && html`<${EndPanel} f=${f} msg=${msg} game=${game} token=${token} />`}
      </div>
      <aside class="side">
        ${f.seated && hintsOn && !f.over && html`<${Hints} hints=${msg.hints} names=${f.names}
          tile=${discardTile(selection, msg.hints, legal)} />`}
        ${f.seated && !f.over && f.v.racks > 1 && html`<${HowItWorks} racks=${f.v.racks} />`}
        <${GameLog} log=${table.log} />
        <${ChatBox} game=${game} token=${token} table=${table} over=${f.over} />
      </aside>
    </div>
    <${CardPanel} card=${card} reach=${hints && hints.reach} openLines=${f.v.open_lines} />
    ${help && html`<${KeysHelp} onClose=${() => setHelp(false)} />`}
    ${confirm && html`<${ConfirmKill} action=${confirm} onCancel=${() => setConfirm(null)}
      withdraw=${withdraw} onWithdraw=${() => { setConfirm(null); table.send(withdraw); }}
      onConfirm=${() => { setConfirm(null); table.send(confirm); }} />`}
  </div>`;
}

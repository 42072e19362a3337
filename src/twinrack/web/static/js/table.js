// The live table page (docs/protocol.md). The server decides everything: this page renders
// each `state` message and sends only actions that appear in its `legal` list.
import {
  html, render, useEffect, useMemo, useRef, useState,
} from "/static/vendor/preact-htm.js";
import { DiscardPool, RackPublic, SeatPanel, seatName } from "./board.js";
import { PROTOCOL, TableSocket } from "./protocol.js";
import { Tile, TileRow, splitTiles, tileLabel, tilesLabel } from "./tiles.js";
import { ScorePanel } from "./verify.js";

const root = document.getElementById("table-root");
const GAME = root.dataset.game;
const TOKEN = root.dataset.token || "";

const SHORTCUTS = [
  ["\u2190 / \u2192", "select the previous / next tile of your racks"],
  ["D", "discard the selected tile"],
  ["M", "move the selected tile to your other rack"],
  ["C", "claim the latest discard (Mah Jongg if you can, else for an exposure)"],
  ["P", "pass (on a discard, or on declaring after the deal)"],
  ["H", "hints on or off"],
  ["?", "this help"],
  ["Esc", "close a dialog"],
];

/** The legal actions of a state, found by what they do (the server sends them as objects:
 * docs/protocol.md), never by their text. */
function legalActions(list) {
  const find = (verb, ok = () => true) => list.find((a) => a.verb === verb && ok(a)) || null;
  return {
    all: list,
    of: (verb) => list.filter((a) => a.verb === verb),
    one: find,
    discard: (tile) => find("discard", (a) => a.tile === tile),
    move: (tile, from, to) => find("move", (a) => a.tile === tile && a.from === from && a.to === to),
    claim: (kind) => find("claim", (a) => a.kind === kind),
  };
}

function count(list, t) {
  let n = 0;
  for (const x of list) if (x === t) n += 1;
  return n;
}

function nthIndex(list, t, nth) {
  let seen = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === t) {
      if (seen === nth) return i;
      seen += 1;
    }
  }
  return -1;
}

// ------------------------------------------------------------------ hints

/** One hint line: a card line for a rack, tiles away, tiles needed with how many of each
 * are still unseen (shape: docs/protocol.md, from twinrack.bots.hints). */
function HintLine({ line }) {
  const needs = line.needs || [];
  const tiles = needs.map((n) => n.tile);
  const unseen = needs.map((n) => `${tileLabel(n.tile)}: ${n.unseen} unseen`).join(", ");
  return html`<li class="hint-line">
    <span class="hint-hand">${line.id}</span>
    <span class="muted"> (${line.section}, ${line.value} points${line.concealed ? ", concealed" : ""})</span>:
    <strong>${line.away} away</strong>
    ${tiles.length > 0 && html`<span class="hint-needed">, needs${" "}<${TileRow} tiles=${tiles} size="xs" label=${`needs ${tilesLabel(tiles)}`} /></span>`}
    ${unseen && html` <span class="muted">(${unseen})</span>`}
  </li>`;
}

function HintsBody({ hints }) {
  if (!hints) return html`<p class="muted">Hints appear when you have a decision to make.</p>`;
  const racks = hints.racks || [];
  const plans = hints.plans || [];
  const discard = hints.discard;
  return html`<div class="hints-body">
    ${plans.length > 0 && html`<p class="hint-plan">Best plan: <strong>${plans[0].ids.join(" + ")}</strong>
      <span class="muted">(${plans[0].away} away, ${plans[0].value} points)</span></p>`}
    ${racks.map((r) => html`<div class="hint-rack">
        <h4>Rack ${r.rack}</h4>
        ${r.lines.length ? html`<ul>${r.lines.map((l) => html`<${HintLine} line=${l} />`)}</ul>`
          : html`<p class="muted">no line of the card in reach</p>`}
      </div>`)}
    ${discard && html`<p class="hint-discard">Suggested discard:${" "}<${Tile} t=${discard.tile} size="xs" /> <strong>${tileLabel(discard.tile)}</strong>
      ${discard.reason && html`<br /><span class="muted">${discard.reason}</span>`}</p>`}
  </div>`;
}

// ------------------------------------------------------------------ dialogs

function Dialog({ id, title, children, onClose, role = "dialog", describedBy }) {
  const ref = useRef(null);
  useEffect(() => {
    const prev = document.activeElement;
    const el = ref.current && (ref.current.querySelector("[data-autofocus]") ||
      ref.current.querySelector("button"));
    if (el) el.focus();
    return () => { if (prev && prev.focus) prev.focus(); };
  }, []);
  function onKey(e) {
    if (e.key === "Escape") {
      e.stopPropagation();
      onClose();
    }
    if (e.key === "Tab") {  // keep the focus inside the dialog
      const f = [...ref.current.querySelectorAll("button, a[href], input, [tabindex='0']")];
      if (!f.length) return;
      const first = f[0];
      const last = f[f.length - 1];
      if (e.shiftKey && document.activeElement === first) { last.focus(); e.preventDefault(); }
      else if (!e.shiftKey && document.activeElement === last) { first.focus(); e.preventDefault(); }
    }
  }
  return html`<div class="overlay" onClick=${(e) => { if (e.target === e.currentTarget) onClose(); }}>
    <div class="dialog" id=${id} role=${role} aria-modal="true" aria-labelledby=${`${id}-title`}
        aria-describedby=${describedBy} ref=${ref} onKeyDown=${onKey}>
      <h2 id=${`${id}-title`}>${title}</h2>
      ${children}
    </div>
  </div>`;
}

// ------------------------------------------------------------------ the app

function App() {
  const [msg, setMsg] = useState(null);
  const [players, setPlayers] = useState(null);
  const [log, setLog] = useState([]);
  const [conn, setConn] = useState({ status: "connecting" });
  const [notice, setNotice] = useState(null);
  const [sel, setSel] = useState(null); // {rack, tile, nth}
  const [pending, setPending] = useState(null); // {msgId, version, action}
  const [confirmAct, setConfirmAct] = useState(null);
  const [help, setHelp] = useState(false);
  const [hintsOn, setHintsOn] = useState(true);
  const [now, setNow] = useState(Date.now());
  const [dragOver, setDragOver] = useState(null);
  const sock = useRef(null);
  const deadline = useRef(null); // {version, at}
  const acq = useRef(null); // {tile, rack, turn}: the fresh tile, once selected
  const hintsPref = useRef(true);
  const focusSel = useRef(false);
  const dragging = useRef(null);
  const logEnd = useRef(null);
  const logBox = useRef(null);
  const scoreSeen = useRef(false);
  const api = useRef({});
  const retry = useRef(null); // an action to send again once the table plays on

  // ---------------------------------------------------------------- the socket
  useEffect(() => {
    function onState(m) {
      const v = m.view;
      deadline.current = m.deadline_ms === null || m.deadline_ms === undefined ? null
        : { version: m.version, at: Date.now() + m.deadline_ms };
      if (m.protocol !== PROTOCOL) {
        setConn({ status: "closed", detail: { message: "This page is out of date: load it again." } });
        sock.current.close();
        return;
      }
      // the tile just picked or claimed is selected once, on the rack the view says it went to
      if (v.acquired === null || v.placed === null || !v.hand) {
        acq.current = null;
      } else if (!acq.current || acq.current.tile !== v.acquired || acq.current.turn !== v.turn) {
        acq.current = { tile: v.acquired, turn: v.turn };
        setSel({ rack: v.placed, tile: v.acquired,
          nth: count(splitTiles(v.hand[v.placed]), v.acquired) - 1 });
      }
      setMsg(m);
      setPlayers(m.players);
      setLog((prev) => {
        const start = m.log_start || 0;
        const base = start === 0 ? [] : prev.slice(0, start);
        return base.concat(m.log || []);
      });
      setPending((p) => (p && m.version > p.version ? null : p));
      // an action refused while the table waited for its database goes again, with the
      // same msg_id (the server applies it once), as soon as the table plays on
      const again = retry.current;
      if (again && !m.paused) {
        retry.current = null;
        if (m.version === again.version && sock.current &&
            sock.current.sendRaw({ type: "action", version: again.version,
              msg_id: again.msgId, action: again.action.text })) {
          setPending(again);
        }
      }
    }
    function onMessage(m) {
      switch (m.type) {
        case "state": onState(m); break;
        case "players": setPlayers(m.players); break;
        case "ack": setPending((p) => (p && p.msgId === m.msg_id ? null : p)); break;
        case "hints":
          setMsg((prev) => (prev && prev.version === m.version ? { ...prev, hints: m.hints } : prev));
          break;
        case "error":
          if (m.retryable) {
            setPending((p) => {
              if (p && p.msgId === m.msg_id) retry.current = p;
              return null;
            });
            break;
          }
          setPending(null);
          setNotice({ kind: m.code === "stale_version" ? "info" : "error",
            text: m.code === "stale_version"
              ? "The table moved on before your action arrived: here is the current state."
              : m.message || m.code });
          break;
        default: break;
      }
    }
    function onStatus(status, detail) {
      setConn({ status, detail });
      if (status === "open") {
        setPending(null);
        // hints are off on the server until asked for (they cost it some work)
        sock.current.sendRaw({ type: "hints", on: hintsPref.current });
      }
    }
    const s = new TableSocket(GAME, TOKEN, { onMessage, onStatus });
    sock.current = s;
    window.__twinrack = { socket: s }; // a handle for tests and debugging
    s.connect();
    const vis = () => { if (document.visibilityState === "visible") s.nudge(); };
    document.addEventListener("visibilitychange", vis);
    window.addEventListener("online", vis);
    return () => {
      document.removeEventListener("visibilitychange", vis);
      window.removeEventListener("online", vis);
      s.close();
    };
  }, []);

  // a command that got no answer (lost connection) must not block the buttons for ever
  useEffect(() => {
    if (!pending) return undefined;
    const t = setTimeout(() => setPending(null), 8000);
    return () => clearTimeout(t);
  }, [pending]);

  // the claim countdown
  const dl = deadline.current && msg && deadline.current.version === msg.version
    ? deadline.current : null;
  useEffect(() => {
    if (!dl) return undefined;
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [dl && dl.at]);

  // keep the log scrolled to the newest line, unless the reader scrolled up
  useEffect(() => {
    const box = logBox.current;
    if (box && box.scrollHeight - box.scrollTop - box.clientHeight < 80) {
      box.scrollTop = box.scrollHeight;
    }
  }, [log.length]);

  // keyboard shortcuts
  useEffect(() => {
    function onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const tag = (e.target && e.target.tagName) || "";
      if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (e.target && e.target.isContentEditable)) return;
      if (document.querySelector(".overlay")) return; // a dialog handles its own keys
      const a = api.current;
      const k = e.key;
      let done = true;
      if (k === "ArrowLeft") a.step(-1);
      else if (k === "ArrowRight") a.step(1);
      else if (k === "d" || k === "D") a.discard();
      else if (k === "m" || k === "M") a.move();
      else if (k === "c" || k === "C") a.claim();
      else if (k === "p" || k === "P") a.pass();
      else if ((k === "h" || k === "H") && a.seated) a.toggleHints();
      else if (k === "?") setHelp(true);
      else done = false;
      if (done) e.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // focus follows the keyboard selection
  useEffect(() => {
    if (!focusSel.current) return;
    focusSel.current = false;
    const el = document.querySelector(".hand-tile[aria-pressed='true']");
    if (el) el.focus();
  });

  // bring the final score into view once, when the game ends
  const hasScore = !!(msg && msg.score);
  useEffect(() => {
    if (!hasScore || scoreSeen.current) return;
    scoreSeen.current = true;
    const el = document.getElementById("score");
    if (el) el.scrollIntoView({ block: "start" });
  }, [hasScore]);

  const names = useMemo(() => (players || []).map((p) => p.name), [players]);

  if (!msg) {
    return html`<div class="table-app loading">
      <p class="muted">${conn.status === "closed"
        ? (conn.detail && conn.detail.message) || "The table is closed."
        : conn.status === "reconnecting" ? "reconnecting..." : "Connecting to the table..."}</p>
    </div>`;
  }

  // ---------------------------------------------------------------- derived state
  const v = msg.view;
  const me = msg.seat;
  const seated = me !== null && me !== undefined;
  const legalList = msg.legal || [];
  const legal = legalActions(legalList);
  const over = v.phase === "over";
  const open = conn.status === "open";
  const busy = !!pending || !open;
  const hand = v.hand ? v.hand.map(splitTiles) : [];
  const nRacks = v.racks;

  // the selected tile, resolved against the current hand
  let selected = null;
  if (sel && hand[sel.rack]) {
    let idx = nthIndex(hand[sel.rack], sel.tile, sel.nth);
    if (idx < 0) idx = hand[sel.rack].indexOf(sel.tile);
    if (idx >= 0) selected = { rack: sel.rack, idx, tile: sel.tile };
  }
  let acqPos = null;
  if (v.acquired !== null && v.placed !== null && hand[v.placed]) {
    acqPos = { rack: v.placed, idx: hand[v.placed].lastIndexOf(v.acquired) };
  }

  const can = (a) => !busy && !!a;
  const moveTargets = (rack, tile) => {
    const out = [];
    for (let b = 0; b < nRacks; b++) {
      if (b !== rack && legal.move(tile, rack, b)) out.push(b);
    }
    return out;
  };

  function send(action) {
    if (!action || pending || !sock.current) return;
    const msgId = sock.current.sendAction(action.text, msg.version);
    if (msgId) {
      setPending({ msgId, version: msg.version, action });
      setNotice(null);
    } else {
      setNotice({ kind: "error", text: "Not connected: the action was not sent." });
    }
  }

  function act(action) {
    if (!action || busy) return;
    if (action.kills_rack) {
      setConfirmAct(action);
      return;
    }
    send(action);
  }

  const discardAction = selected ? legal.discard(selected.tile) : null;
  const selMoves = selected ? moveTargets(selected.rack, selected.tile) : [];
  const claims = ["double", "mahjongg", "expose"].map(legal.claim).filter(Boolean);

  function doMove(rack, tile, to) {
    const a = legal.move(tile, rack, to);
    if (!can(a)) return;
    setSel({ rack: to, tile, nth: 0 });
    act(a);
  }

  // ---------------------------------------------------------------- commands for the keys
  const flat = [];
  hand.forEach((r, ri) => r.forEach((t, i) => flat.push({ rack: ri, idx: i, tile: t })));
  api.current = {
    step(d) {
      if (!flat.length) return;
      let pos = selected ? flat.findIndex((x) => x.rack === selected.rack && x.idx === selected.idx) : -1;
      pos = pos < 0 ? (d > 0 ? 0 : flat.length - 1) : (pos + d + flat.length) % flat.length;
      const x = flat[pos];
      setSel({ rack: x.rack, tile: x.tile, nth: count(hand[x.rack].slice(0, x.idx), x.tile) });
      focusSel.current = true;
    },
    discard() { if (discardAction && can(discardAction)) act(discardAction); },
    move() { if (selected && selMoves.length) doMove(selected.rack, selected.tile, selMoves[0]); },
    claim() { if (claims.length) act(claims[0]); },
    pass() { act(legal.one("pass")); },
    toggleHints,
    seated,
  };

  function toggleHints() {
    const on = !hintsPref.current;
    hintsPref.current = on;
    setHintsOn(on);
    if (sock.current) sock.current.sendRaw({ type: "hints", on });
  }

  function selectTile(rack, idx) {
    const t = hand[rack][idx];
    setSel({ rack, tile: t, nth: count(hand[rack].slice(0, idx), t) });
  }

  // ---------------------------------------------------------------- the prompt
  const toActNames = v.to_act.filter((s) => s !== me).map((s) => seatName(names, s)).join(", ");
  const myTurn = seated && v.phase === "turn" && v.current === me;
  const iAnswer = seated && v.to_act.includes(me);
  let prompt;
  let remaining = null;
  if (dl) remaining = Math.max(0, dl.at - Math.max(now, Date.now()));
  if (over) {
    prompt = "The game is over.";
  } else if (v.phase === "declare") {
    prompt = iAnswer ? "Declaration round: declare a special hand now, or pass."
      : `Waiting for ${toActNames} to declare or pass.`;
  } else if (v.phase === "window" && v.window) {
    const who = v.window.discarder === me ? "You" : seatName(names, v.window.discarder);
    prompt = html`<span>${who} discarded</span> <${Tile} t=${v.window.tile} size="s" />
      <span><strong>${tileLabel(v.window.tile)}</strong>.${iAnswer ? " Claim it or pass."
        : ` Waiting for ${toActNames} to claim or pass.`}</span>`;
  } else if (myTurn) {
    if (v.must === "expose" && v.claim) {
      prompt = `You took ${tileLabel(v.claim.tile)}: expose a group with it (choose below).`;
    } else if ((v.must === "mahjongg" || v.must === "double") && v.claim) {
      prompt = `You took ${tileLabel(v.claim.tile)} for Mah Jongg: declare it (choose below).`;
    } else if (v.must === "error") {
      prompt = "Your Mah Jongg claim was in error: expose the group the discard completes, or withdraw the claim.";
    } else {
      prompt = "Your turn: select a tile, then Discard (or press D).";
    }
  } else if (seated) {
    prompt = `${seatName(names, v.current)} is playing.`;
  } else {
    prompt = `You are watching. ${seatName(names, v.current)} is playing.`;
  }

  // ---------------------------------------------------------------- choices
  const exposes = legal.of("expose");
  const exchanges = legal.of("exchange");
  const mahjonggs = legal.of("mahjongg");
  const declares = legal.of("declare");
  const undeclare = legal.one("undeclare");
  const withdraw = legal.one("withdraw");
  const anyChoices = exposes.length || exchanges.length || mahjonggs.length || declares.length ||
    undeclare || withdraw;
  const fullRack = (r) => (v.seats[me]?.racks[r]?.exposures || [])
    .reduce((n, x) => n + x.split(/\s+/).length, 0) === 14;

  const choiceButton = (l, text, tiles) => html`<li>
    <button type="button" class=${`choice ${l.kills_rack ? "kills" : ""}`} disabled=${busy}
        data-action=${l.text} onClick=${() => act(l)}
        aria-label=${`${text}${tiles ? `: ${tilesLabel(tiles)}` : ""}${l.kills_rack ? " (kills the rack)" : ""}`}>
      <span class="choice-text">${text}</span>
      ${tiles && html`<${TileRow} tiles=${tiles} size="xs" />`}
      ${l.kills_rack && html`<span class="badge dead">kills rack</span>`}
    </button></li>`;

  const choices = anyChoices && seated && !over ? html`<section class="choices" aria-label="Choices">
    ${mahjonggs.length > 0 && html`<div class="choice-group mj-choices">
      <h3>Mah Jongg!</h3>
      <ul>${mahjonggs.map((l) => choiceButton(l, l.tiles.length || fullRack(l.rack)
        ? `Mah Jongg on rack ${l.rack + 1}` : `Declare rack ${l.rack + 1} as arranged`,
      l.tiles.length ? l.tiles : null))}</ul></div>`}
    ${exposes.length > 0 && html`<div class="choice-group">
      <h3>Expose a group</h3>
      <ul>${exposes.map((l) => choiceButton(l, `Expose on rack ${l.rack + 1}`, l.tiles))}</ul></div>`}
    ${exchanges.length > 0 && html`<div class="choice-group">
      <h3>Exchange for a Joker</h3>
      <ul>${exchanges.map((l) => choiceButton(l, `Give ${tileLabel(l.tile)} for the Joker in ` +
        `${l.owner === me ? "your" : `${seatName(names, l.owner)}'s`} rack ${l.rack + 1}, ` +
        `group ${l.index + 1}`, [l.tile, "J"]))}</ul></div>`}
    ${declares.length > 0 && html`<div class="choice-group">
      <h3>Declare a special hand</h3>
      <ul>${declares.map((l) => choiceButton(l, `Declare ${l.hand}`, l.tiles))}</ul></div>`}
    ${undeclare && html`<div class="choice-group"><ul>
      ${choiceButton(undeclare, "Go off the declared hand", null)}</ul></div>`}
    ${withdraw && html`<div class="choice-group"><ul>
      ${choiceButton(withdraw, "Withdraw the claim (the tile goes back)", null)}</ul></div>`}
  </section>` : null;

  // ---------------------------------------------------------------- my racks
  const mySv = seated ? v.seats[me] : null;
  const myRacks = seated ? html`<section class="my-racks" aria-label="Your racks">
    ${hand.map((tiles, ri) => {
      const rv = mySv.racks[ri];
      const rackName = `Rack ${ri + 1}`;
      const over_ = dragOver === ri;
      return html`<div class=${`my-rack ${over_ ? "drop-target" : ""} ${rv.dead ? "is-dead" : ""}`}
          data-rack=${ri + 1}
          onDragOver=${(e) => {
            const d = dragging.current;
            if (d && d.rack !== ri && can(legal.move(d.tile, d.rack, ri))) {
              e.preventDefault();
              e.dataTransfer.dropEffect = "move";
              if (dragOver !== ri) setDragOver(ri);
            }
          }}
          onDragLeave=${(e) => {
            if (!e.currentTarget.contains(e.relatedTarget)) setDragOver(null);
          }}
          onDrop=${(e) => {
            e.preventDefault();
            const d = dragging.current;
            dragging.current = null;
            setDragOver(null);
            if (d && d.rack !== ri) doMove(d.rack, d.tile, ri);
          }}>
        <div class="my-rack-public">
          <${RackPublic} rack=${rv} index=${ri} showEmpty=${false} />
        </div>
        <div class="hand-tiles" role="group" aria-label=${`${rackName}: your concealed tiles (${tiles.length})`}>
          ${tiles.map((t, i) => {
            const isSel = selected && selected.rack === ri && selected.idx === i;
            const isAcq = acqPos && acqPos.rack === ri && acqPos.idx === i;
            const discardable = !!legal.discard(t);
            const movable = moveTargets(ri, t).length > 0;
            const first = !selected && ri === 0 && i === 0;
            return html`<button type="button"
                class=${`hand-tile ${isSel ? "selected" : ""} ${isAcq ? "acquired" : ""}`}
                aria-pressed=${isSel ? "true" : "false"}
                tabindex=${isSel || first ? 0 : -1}
                data-tile=${t} data-rack=${ri + 1} data-idx=${i}
                data-acquired=${isAcq ? "true" : undefined}
                data-discardable=${discardable ? "true" : "false"}
                draggable=${movable && !busy ? "true" : "false"}
                onClick=${() => selectTile(ri, i)}
                onDblClick=${() => { selectTile(ri, i); act(legal.discard(t)); }}
                onDragStart=${(e) => {
                  dragging.current = { rack: ri, tile: t };
                  e.dataTransfer.effectAllowed = "move";
                  e.dataTransfer.setData("text/plain", `${t} ${ri + 1}`);
                  selectTile(ri, i);
                }}
                onDragEnd=${() => { dragging.current = null; setDragOver(null); }}>
              <img class="tile-img tile-l" src=${`/static/tiles/${t}.svg`} alt=${tileLabel(t)}
                draggable="false" />
              ${isAcq && html`<span class="acq-mark" aria-hidden="true">new</span>`}
              ${isAcq && html`<span class="sr-only"> (just ${v.claim ? "claimed" : "picked"})</span>`}
            </button>`;
          })}
          ${!tiles.length && html`<span class="muted empty-rack">no concealed tiles on this rack</span>`}
        </div>
      </div>`;
    })}
  </section>` : null;

  // ---------------------------------------------------------------- the controls
  const discardLabel = selected ? `Discard ${tileLabel(selected.tile)}` : "Discard (select a tile)";
  const moveButtons = (nRacks <= 2 ? [selected ? (selected.rack === 0 ? 1 : 0) : 1]
    : [...Array(nRacks).keys()].filter((b) => !selected || b !== selected.rack)).map((b) => {
    const ok = selected && selMoves.includes(b) && !busy;
    return html`<button type="button" class="btn-move" id=${nRacks <= 2 ? "btn-move" : `btn-move-${b + 1}`}
      disabled=${!ok} onClick=${() => ok && doMove(selected.rack, selected.tile, b)}
      aria-keyshortcuts="M">
      ${selected ? `Move ${tileLabel(selected.tile)} to rack ${b + 1}` : "Move to other rack"}</button>`;
  });
  const controls = seated && !over ? html`<div class="controls" role="toolbar" aria-label="Actions">
    <button type="button" id="btn-discard" class="primary" aria-keyshortcuts="D"
      disabled=${!discardAction || !can(discardAction)} onClick=${() => act(discardAction)}>
      ${discardLabel}</button>
    ${moveButtons}
    <button type="button" id="btn-claim-expose" aria-keyshortcuts="C"
      disabled=${!can(legal.claim("expose"))} onClick=${() => act(legal.claim("expose"))}>Claim for exposure</button>
    <button type="button" id="btn-claim-mahjongg"
      disabled=${!can(legal.claim("mahjongg"))} onClick=${() => act(legal.claim("mahjongg"))}>Claim for Mah Jongg</button>
    ${legal.claim("double") && html`<button type="button" id="btn-claim-double"
      disabled=${!can(legal.claim("double"))} onClick=${() => act(legal.claim("double"))}>Claim Double Mah Jongg</button>`}
    <button type="button" id="btn-pass" aria-keyshortcuts="P"
      disabled=${!can(legal.one("pass"))} onClick=${() => act(legal.one("pass"))}>
      ${v.phase === "declare" ? "Pass (no declaration)" : "Pass"}</button>
  </div>` : null;

  const total = (msg.call_seconds || 10) * 1000;
  const countdown = remaining !== null && v.phase === "window" ? html`<div class="countdown"
      role="timer" aria-label="time left to claim" id="countdown">
    <span class="countdown-text">${(remaining / 1000).toFixed(1)} s</span>
    <span class="countdown-bar" aria-hidden="true"><span style=${`width:${Math.min(100, 100 * remaining / total)}%`}></span></span>
  </div>` : null;

  const others = v.seats.filter((s) => s.seat !== me);
  const playerOf = (s) => (players || []).find((p) => p.seat === s);
  const ready = seated && !over && !busy && iAnswer && legalList.length > 0;

  const statusText = {
    open: "connected", connecting: "connecting...", reconnecting: "reconnecting...",
    closed: "disconnected",
  }[conn.status];

  return html`<div class="table-app" id="table-app" data-phase=${v.phase} data-version=${msg.version}
      data-ready=${ready ? "true" : "false"} data-seat=${seated ? me : ""}
      data-pending=${pending ? "true" : "false"} data-to-act=${over ? "" : v.to_act.join(",")}>
    <div class="status-bar">
      <span class="variant">${v.variant[0].toUpperCase() + v.variant.slice(1)}, ${v.revision} rules</span>
      <span>Wall: <strong id="wall-left">${v.wall_left}</strong> tiles left</span>
      <span>Turn ${v.turn}</span>
      ${!seated && html`<span class="badge">spectating</span>`}
      <span class=${`conn conn-${conn.status}`} role="status" id="conn-status">${statusText}
        ${conn.status === "reconnecting" && html` <button type="button" class="link"
          onClick=${() => sock.current && sock.current.nudge()}>retry now</button>`}</span>
      <span class="spacer"></span>
      ${seated && html`<button type="button" id="btn-hints" aria-pressed=${hintsOn ? "true" : "false"}
        aria-keyshortcuts="H" onClick=${toggleHints}>Hints: ${hintsOn ? "on" : "off"}</button>`}
      <button type="button" id="btn-help" aria-keyshortcuts="?" onClick=${() => setHelp(true)}>
        Keys <span aria-hidden="true">(?)</span></button>
    </div>
    ${conn.status !== "open" && html`<div class="banner reconnecting" role="status">
      ${conn.status === "closed" ? (conn.detail && conn.detail.message) || "The connection is closed."
        : "reconnecting..."}</div>`}
    ${msg.paused && html`<div class="banner reconnecting" role="status" id="paused">
      The table is waiting for its database; play goes on by itself as soon as it answers.</div>`}
    ${notice && html`<div class=${`banner notice ${notice.kind}`} role="alert">
      ${notice.text} <button type="button" class="link" aria-label="dismiss the message"
        onClick=${() => setNotice(null)}>\u00d7</button></div>`}
    <div class="table-grid">
      <div class="table-main">
        ${msg.score && html`<${ScorePanel} gameId=${GAME} score=${msg.score} names=${names}
          seed=${v.seed} commitment=${v.commitment} mySeat=${seated ? me : null} />`}
        <div class="opponents">
          ${others.map((sv) => html`<${SeatPanel} sv=${sv} player=${playerOf(sv.seat)}
            names=${names} current=${v.current === sv.seat && !over} toAct=${over ? [] : v.to_act} />`)}
        </div>
        <${DiscardPool} discards=${v.discards} names=${names} window=${v.window} />
        ${seated && html`<section class=${`my-area ${myTurn || iAnswer ? "my-move" : ""}`}
            aria-label=${`Your seat: ${seatName(names, me)}`}>
          <header class="seat-head">
            <h2>${seatName(names, me)} <span class="you">(you)</span></h2>
            ${mySv.declared && html`<span class="badge declared">declared ${mySv.declared}</span>`}
            ${mySv.stopped && html`<span class="badge off">stopped</span>`}
          </header>
          <div class="prompt" id="prompt">${prompt} ${countdown}</div>
          ${controls}
          ${choices}
          ${myRacks}
        </section>`}
      </div>
      <aside class="side">
        ${seated && hintsOn && !over && html`<section class="hints" aria-labelledby="hints-title">
          <h2 id="hints-title">Hints</h2>
          <${HintsBody} hints=${msg.hints} />
        </section>`}
        <section class="log" aria-labelledby="log-title">
          <h2 id="log-title">Game log</h2>
          <div class="log-box" ref=${logBox} tabindex="0" aria-label="game log, scrollable">
            <ol aria-live="polite" aria-relevant="additions" id="game-log">
              ${log.map((line) => html`<li class=${`ev ev-${line.tone || "plain"}`}>${line.text}</li>`)}
            </ol>
            <span ref=${logEnd}></span>
          </div>
        </section>
      </aside>
    </div>
    ${help && html`<${Dialog} id="help" title="Keyboard shortcuts" onClose=${() => setHelp(false)}>
      <dl class="keys">${SHORTCUTS.map(([k, d]) => html`<dt><kbd>${k}</kbd></dt><dd>${d}</dd>`)}</dl>
      <p class="muted">You can also drag a tile onto your other rack to move it, and double-click
        a tile to discard it.</p>
      <p><button type="button" onClick=${() => setHelp(false)} data-autofocus>Close</button></p>
    </${Dialog}>`}
    ${confirmAct && html`<${Dialog} id="confirm" role="alertdialog" title="Kill this rack?"
        describedBy="confirm-text" onClose=${() => setConfirmAct(null)}>
      <p id="confirm-text">${`This exposure matches no hand on the card: rack ${
        confirmAct.rack + 1} will be dead. Expose anyway?`}</p>
      <p class="muted">${`expose ${tilesLabel(confirmAct.tiles)} on rack ${confirmAct.rack + 1}`}</p>
      <p class="dialog-buttons">
        <button type="button" id="confirm-cancel" data-autofocus
          onClick=${() => setConfirmAct(null)}>Cancel</button>
        <button type="button" id="confirm-ok" class="primary"
          onClick=${() => { const a = confirmAct; setConfirmAct(null); send(a); }}>Expose anyway</button>
      </p>
    </${Dialog}>`}
  </div>`;
}

root.textContent = "";
render(html`<${App} />`, root);

// The card editor page (/cards): build a card line by line (pick the section, value and
// flags, enter the pattern by clicking tiles and suit letters or by typing it), see each line
// as tiles with its number of ways and the loader's own messages at the exact token; save it
// (kept on the server for your tables, and downloaded as its TOML file), or open a card file
// or a saved card to edit it. The server checks every change with the card loader.
import { html, render, useEffect, useRef, useState } from "/static/vendor/preact-htm.js";
import { badToken, fileName, fromFields, isEmptyHand, newHand, placeProblems, toToml }
  from "./cardfile.js";
import { TileRow, tileSrc } from "./tiles.js";
import { showCard } from "./cardview.js";
import { csrfHeaders } from "./csrf.js";

const root = document.getElementById("editor-root");
const SAVED = root.dataset.card || "";

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: csrfHeaders({ "Content-Type": "application/json" }),
    body: JSON.stringify(body) });
  return { status: r.status, data: await r.json() };
}

/** Fetch a file as a download, as a click on a link to it would. */
function download(href, name) {
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------------- the palette

// [symbol typed, accessible name, tile image or null]; null alone is a gap
const PALETTE = [
  ..."123456789".split("").map((c) => [c, c, null]),
  null, ["N", "North", "N"], ["E", "East", "E"], ["W", "West", "W"], ["S", "South", "S"],
  null, ["R", "Red dragon", "R"], ["G", "Green dragon", "G"], ["0", "White dragon (0)", "0"],
  ["D", "Dragon of the suit (D)", null], ["F", "Flower", "F"],
  null, ["X", "X", null], ["Y", "Y", null],
  null, ["a", "suit a", null], ["b", "suit b", null], ["c", "suit c", null],
  null, [" ", "next group (space)", null], ["+", "plus sign", null], ["-", "minus sign", null],
  ["=", "equals sign", null],
];
const DECORATION = "+-=";

function Key({ symbol, name, tile, onKey }) {
  const suit = "abc".includes(symbol);
  const cls = tile ? "key tile-key" : suit ? "key suit-key" : "key";
  const face = tile ? html`<img src=${tileSrc(tile)} alt="" draggable="false" />`
    : symbol === " " ? "\u2423" : symbol;
  return html`<button type="button" class=${cls} aria-label=${name} title=${name}
    onClick=${() => onKey(DECORATION.includes(symbol) ? ` ${symbol} ` : symbol)}>${face}</button>`;
}

function Palette({ onKey }) {
  return html`<div class="palette" role="toolbar" aria-label="Pattern symbols">
    ${PALETTE.map((p) => (p === null ? html`<span class="sep" aria-hidden="true"></span>`
      : html`<${Key} symbol=${p[0]} name=${p[1]} tile=${p[2]} onKey=${onKey} />`))}
    <button type="button" class="key" aria-label="backspace" title="backspace"
      onClick=${() => onKey("\b")}>\u232b</button>
  </div>`;
}

// ---------------------------------------------------------------------- one line

function PatternText({ pattern, at }) {
  const [a, bad, b] = badToken(pattern, at);
  return html`<span class="pattern-text">${a}${bad &&
    html`<mark class="bad-token" title="the problem is here">${bad}</mark>`}${b}</span>`;
}

/** "1 line", "2 lines". */
const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function Ways({ summary }) {
  return html`<span class="ways">${count(summary.ways, "way")}</span>`;
}

/** What a line with no pattern yet asks for (instead of the loader's complaints). */
const TODO = "Type the pattern (or click the tiles below), then Enter for the next line.";

function Sample({ summary }) {
  return html`<div class="sample" aria-label="the first way">
    ${summary.sample.map((g) => html`<${TileRow} tiles=${g} size="s" />`)}</div>`;
}

function LineSummary({ hand, summary, problems }) {
  const empty = isEmptyHand(hand);
  const atPattern = empty ? null : problems.find((p) => p.key === "pattern");
  return html`<div>
    <div class="line-head">
      <strong>${hand.section || "(no section)"}</strong>
      <${PatternText} pattern=${hand.pattern || "(empty)"} at=${atPattern ? atPattern.at : null} />
      <span>${hand.value || "?"} points</span>
      ${hand.concealed && html`<span class="badge">C</span>`}
      ${summary && html`<${Ways} summary=${summary} />`}
    </div>
    ${summary && html`<${Sample} summary=${summary} />`}
    ${empty ? html`<p class="todo">No pattern yet.</p>`
      : problems.map((p) => html`<p class="problem" role="alert">${p.message}</p>`)}
  </div>`;
}

function LineItem({ index, hand, summary, problems, selected, actions }) {
  return html`<li class=${selected ? "selected" : ""} data-line=${index + 1}>
    <${LineSummary} hand=${hand} summary=${summary} problems=${problems} />
    <div class="actions">
      <button type="button" onClick=${() => actions.select(index)}
        aria-label=${`edit line ${index + 1}`}>Edit</button>
      <button type="button" onClick=${() => actions.move(index, -1)} disabled=${index === 0}
        aria-label=${`move line ${index + 1} up`}>\u2191</button>
      <button type="button" onClick=${() => actions.move(index, 1)}
        aria-label=${`move line ${index + 1} down`}>\u2193</button>
      <button type="button" onClick=${() => actions.remove(index)}
        aria-label=${`delete line ${index + 1}`}>Delete</button>
    </div>
  </li>`;
}

// ---------------------------------------------------------------------- the line form

// sections as cards print them, offered to pick from (any other name may be typed)
const SECTIONS = ["Year", "2468", "Like numbers", "Addition", "Quints", "Consecutive runs",
  "13579", "Winds and dragons", "369", "Singles and pairs"];

function Field({ label, name, value, onInput, ...rest }) {
  return html`<label>${label} <input name=${name} value=${value} ...${rest}
    onInput=${(e) => onInput(name, e.target.value)} /></label>`;
}

function Flag({ label, name, hand, onInput }) {
  return html`<label><input type="checkbox" name=${name} checked=${hand[name]}
    onChange=${(e) => onInput(name, e.target.checked)} /> ${label}</label>`;
}

/** The line being edited, as the loader reads it: tiles, ways, problems at their token. */
function LinePreview({ hand, summary, problems }) {
  const empty = isEmptyHand(hand);
  const atPattern = empty ? null : problems.find((p) => p.key === "pattern");
  return html`<div class="preview" id="line-preview" aria-live="polite">
    <div class="preview-head"><${PatternText} pattern=${hand.pattern || "(empty)"}
      at=${atPattern ? atPattern.at : null} />
      ${summary && html`<${Ways} summary=${summary} />`}</div>
    ${summary && html`<${Sample} summary=${summary} />`}
    ${empty ? html`<p class="todo">${TODO}</p>`
      : problems.map((p) => html`<p class="problem">${p.message}</p>`)}
  </div>`;
}

/** Enter in a field of the line form: `then()` (and no form submission). */
const onEnter = (then) => (e) => {
  if (e.key !== "Enter" || e.isComposing) return;
  e.preventDefault();
  then();
};

function LineForm({ index, hand, sections, summary, problems, onInput, onKey, onNext,
  patternRef }) {
  const toPattern = onEnter(() => patternRef.current && patternRef.current.focus());
  return html`<section class="card-panel line-form" aria-labelledby="line-form-title">
    <h2 id="line-form-title">Line ${index + 1}</h2>
    <${Field} label="Section" name="section" value=${hand.section} onInput=${onInput}
      placeholder="2468" size="14" list="sections" onKeyDown=${toPattern} />
    <datalist id="sections">${sections.map((s) => html`<option value=${s} />`)}</datalist>
    <${Field} label="Value" name="value" value=${hand.value} onInput=${onInput}
      type="number" min="0" step="5" inputmode="numeric" size="5" onKeyDown=${toPattern} />
    <${Field} label="Id (optional)" name="id" value=${hand.id} onInput=${onInput} size="10" />
    <div>
      <${Flag} label="Concealed (C)" name="concealed" hand=${hand} onInput=${onInput} />
      <${Flag} label="Star (*)" name="star" hand=${hand} onInput=${onInput} />
      <${Flag} label="Declared at the deal" name="declared" hand=${hand} onInput=${onInput} />
      <label>Suits <select name="suits" value=${hand.suits}
          onChange=${(e) => onInput("suits", e.target.value)}>
        <option value="distinct">different letters, different suits</option>
        <option value="any">letters may be the same suit</option></select></label>
    </div>
    <${Field} label="X values" name="x" value=${hand.x} onInput=${onInput}
      placeholder="all" size="12" />
    <${Field} label="Y values" name="y" value=${hand.y} onInput=${onInput}
      placeholder="all" size="12" />
    <label class="pattern-label">Pattern
      <input name="pattern" value=${hand.pattern} autocomplete="off" spellcheck="false"
        ref=${patternRef} aria-describedby="enter-hint" onKeyDown=${onEnter(onNext)}
        onInput=${(e) => onInput("pattern", e.target.value)} /></label>
    <p class="hint" id="enter-hint">Enter: this line is done, on to the next (same section
      and value).</p>
    <${Palette} onKey=${onKey} />
    <${LinePreview} hand=${hand} summary=${summary} problems=${problems} />
    <p class="hint">A token is a run of symbols ending in one suit letter; a space starts the
      next group. <a href="/docs/card-language.md#3-the-pattern-language">The pattern
      language</a>.</p>
    <${Field} label="Note" name="note" value=${hand.note} onInput=${onInput} size="40" />
  </section>`;
}

// ---------------------------------------------------------------------- the page

/** Answers that say "not now" rather than "not this card": the check is tried again. */
const BUSY = [0, 429, 502, 503, 504];
const RETRY_MS = 2000;

function useChecks(card) {
  const [result, setResult] = useState(null);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    let t;
    const run = async () => {
      const { text, where } = toToml(card);
      let answer;
      try {
        answer = await post("/api/cards/check", { source: text });
      } catch (err) {
        answer = { status: 0, data: { error: "the server could not be reached" } };
      }
      const { status, data } = answer;
      if (mine !== seq.current) return;
      if (status === 200) {
        setResult({ ...data, placed: placeProblems(data.problems, where, card) });
        return;
      }
      const error = data.error || `the server answered ${status}`;
      if (!BUSY.includes(status)) {
        setResult({ error });
        return;
      }
      setResult({ error: `${error}: checking again in a moment` });
      t = setTimeout(run, RETRY_MS);
    };
    t = setTimeout(run, 250);
    return () => clearTimeout(t);
  }, [card]);
  return result;
}

/** The loader's problems, less those of lines with no pattern yet (those are to do). */
function realProblems(card, result) {
  const { placed } = result;
  return [...placed.card, ...placed.hands.flatMap((ps, i) =>
    (card.hands[i] && isEmptyHand(card.hands[i]) ? [] : ps))];
}

function Status({ card, result }) {
  if (!result) return html`<p class="status" role="status">Checking...</p>`;
  if (result.error) return html`<p class="status bad" role="status">${result.error}</p>`;
  if (!result.ok) {
    const problems = realProblems(card, result);
    const empty = card.hands.findIndex(isEmptyHand);
    if (!problems.length && empty >= 0) {
      const what = card.hands.length === 1 ? "Start with line 1: give it a section and"
        : `Line ${empty + 1} has no pattern yet:`;
      return html`<p class="status todo" role="status">${what} type its pattern (or click
        the tiles), then Enter for the next line.</p>`;
    }
    const n = count(problems.length, "problem");
    return html`<p class="status bad" role="status">${n} to fix.${result.placed.card.map((p) =>
      html` ${p.message}.`)}</p>`;
  }
  const ways = result.hands.reduce((a, h) => a + (h ? h.ways : 0), 0);
  const summary = `${count(card.hands.length, "line")}, ${count(ways, "way")}`;
  return html`<p class="status good" role="status">${summary}: the card is good.</p>`;
}

function Header({ card, setCard, onOpen, mine }) {
  return html`<div class="card-head">
    <label>Card name <input name="card-name" value=${card.name}
      onInput=${(e) => setCard({ ...card, name: e.target.value })} /></label>
    <label>Edition <input name="edition" value=${card.edition} size="8"
      onInput=${(e) => setCard({ ...card, edition: e.target.value })} /></label>
    <label>Open a card file <input type="file" accept=".toml,text/plain"
      onChange=${(e) => e.target.files[0] && onOpen(e.target.files[0])} /></label>
  </div>
  ${mine.length > 0 && html`<nav class="my-cards" aria-label="Your saved cards">Your cards:
    ${mine.map((c) => html` <a href=${`/cards/${c.id}`}>${c.name}</a>`)}
    \u00b7 <a href="/cards">a new card</a></nav>`}`;
}

function SaveBar({ card, result, saved, onSave, message }) {
  const blob = () => URL.createObjectURL(new Blob([toToml(card).text],
    { type: "application/toml" }));
  return html`<div class="actions">
    <button type="button" class="primary" id="save-card" onClick=${onSave}
      disabled=${!result || !result.ok}>Save the card</button>
    <button type="button" id="view-card" disabled=${!result || !result.sheet}
      onClick=${() => showCard(result.sheet)}>View the card</button>
    <a class="button" id="download-card" download=${fileName(card.name)} href="#"
      onClick=${(e) => { e.currentTarget.href = blob(); }}>Download the TOML file</a>
    ${saved && html`<a class="button primary" id="play-card" href=${`/?card=${saved}`}>
      Play a table with this card</a>`}
    ${message && html`<span role="status" id="save-status">${message}</span>`}
  </div>
  <p class="hint">Saving keeps the card here, for your tables (this browser only), and
    downloads it as a TOML file: keep that file, it is the card.</p>`;
}

function useSavedCards(saved) {
  const [mine, setMine] = useState([]);
  useEffect(() => {
    fetch("/api/cards").then((r) => r.json()).then((d) => setMine(d.cards || []));
  }, [saved]);
  return mine;
}

function Editor() {
  const [card, setCard] = useState({ name: "My card", edition: "",
    hands: [newHand(SECTIONS[0])] });
  const patternRef = useRef(null);
  const [sel, setSel] = useState(0);
  const [saved, setSaved] = useState(SAVED);
  const [message, setMessage] = useState("");
  const result = useChecks(card);
  const mine = useSavedCards(saved);
  const hand = card.hands[sel] || card.hands[0];

  async function load(source) {
    const { data } = await post("/api/cards/fields", { source });
    if (!data.ok) {
      setMessage(`That file is not a card: ${(data.problems || []).map((p) =>
        `line ${p.line}: ${p.message}`).join("; ") || data.error}`);
      return;
    }
    const next = fromFields(data);
    if (!next.hands.length) next.hands.push(newHand());
    setCard(next);
    setSel(0);
  }
  useEffect(() => {
    if (!SAVED) return;
    fetch(`/api/cards/${encodeURIComponent(SAVED)}`).then((r) => r.json())
      .then((c) => c.source && load(c.source));
  }, []);

  const setHand = (i, h) => setCard({ ...card, hands: card.hands.map((x, k) => (k === i ? h : x)) });
  const onInput = (name, value) => setHand(sel, { ...hand, [name]: value });
  const onKey = (k) => onInput("pattern", k === "\b" ? hand.pattern.slice(0, -1)
    : (hand.pattern + k).replace(/ {2,}/g, " ").replace(/^ /, ""));
  const actions = {
    select(i) {
      setSel(i);
      focusPattern();
    },
    move(i, d) {
      const j = i + d;
      if (j < 0 || j >= card.hands.length) return;
      const hands = card.hands.slice();
      [hands[i], hands[j]] = [hands[j], hands[i]];
      setCard({ ...card, hands });
      setSel(j);
    },
    remove(i) {
      const hands = card.hands.filter((_, k) => k !== i);
      setCard({ ...card, hands: hands.length ? hands : [newHand()] });
      setSel(Math.max(0, Math.min(sel, hands.length - 1)));
    },
  };
  function addLine() {
    setCard({ ...card, hands: [...card.hands, newHand(hand.section, hand.value)] });
    setSel(card.hands.length);
    focusPattern();
  }
  /** Enter in the pattern: the line is done; on to the next one (a new one after the
   * last), unless this one is still empty. */
  function nextLine() {
    if (isEmptyHand(hand)) return;
    if (sel < card.hands.length - 1) {
      setSel(sel + 1);
      focusPattern();
    } else addLine();
  }
  const focusPattern = () => setTimeout(() => patternRef.current && patternRef.current.focus());
  useEffect(() => { focusPattern(); }, []);
  async function save() {
    const url = saved ? `/api/cards?card=${encodeURIComponent(saved)}` : "/api/cards";
    const { status, data } = await post(url, { source: toToml(card).text });
    if (status !== 200) {
      setMessage(data.error || `the server answered ${status}`);
      return;
    }
    setSaved(data.id);
    history.replaceState(null, "", data.edit_url);
    download(data.download_url, data.file);
    setMessage(`Saved "${data.name}" for your tables, and downloaded as ${data.file}.`);
  }

  const placed = result && result.placed;
  const sections = [...new Set([...card.hands.map((h) => h.section).filter(Boolean),
    ...SECTIONS])];
  return html`<h1>Card editor</h1>
    <p class="hint">Type in the card you play with, one line at a time. The card is a TOML
      file (<a href="/docs/card-language.md">how a card file is written</a>): save it to
      play it here, and keep the file.</p>
    <section class="card-panel">
      <${Header} card=${card} setCard=${setCard} mine=${mine}
        onOpen=${(file) => file.text().then(load)} />
      <${Status} card=${card} result=${result} />
      <${SaveBar} card=${card} result=${result} saved=${saved} onSave=${save}
        message=${message} />
    </section>
    <div class="editor">
      <section class="card-panel" aria-labelledby="lines-title">
        <h2 id="lines-title">Lines</h2>
        <ol class="lines">${card.hands.map((h, i) => html`<${LineItem} index=${i} hand=${h}
          summary=${result && result.hands ? result.hands[i] : null}
          problems=${placed ? placed.hands[i] || [] : []} selected=${i === sel}
          actions=${actions} />`)}</ol>
        <button type="button" id="add-line" onClick=${addLine}>Add a line</button>
      </section>
      <${LineForm} index=${sel} hand=${hand} sections=${sections} onInput=${onInput}
        onKey=${onKey} onNext=${nextLine} patternRef=${patternRef} summary=${result && result.hands ? result.hands[sel] : null}
        problems=${placed ? placed.hands[sel] || [] : []} />
    </div>`;
}

render(html`<${Editor} />`, root);

// The card editor's model and the TOML it writes (docs/card-language.md). The TOML file is
// the one format of a card: the editor only writes it, and the server's loader checks it.

/** A new, empty line of the card (a line with no pattern yet is "to do", not wrong). */
export function newHand(section = "", value = "25") {
  return { section, pattern: "", value, id: "", concealed: false, star: false,
    declared: false, suits: "distinct", x: "", y: "", note: "" };
}

/** TOML string (JSON's escapes are valid TOML basic-string escapes). */
const q = (s) => JSON.stringify(String(s));

/** A whole number typed by the player, or the text itself (the loader then says why). */
function number(text) {
  const t = String(text).trim();
  return /^-?\d+$/.test(t) ? t : q(t);
}

/** "2, 4" -> "[2, 4]"; anything else stays text, so the loader reports it. */
function numbers(text) {
  const parts = String(text).split(",").map((p) => p.trim()).filter(Boolean);
  return parts.every((p) => /^\d+$/.test(p)) ? `[${parts.join(", ")}]` : q(text);
}

function handLines(h, push) {
  const keys = {};
  keys.section = push(`section = ${q(h.section)}`);
  keys.pattern = push(`pattern = ${q(h.pattern)}`);
  if (String(h.value).trim() !== "") keys.value = push(`value = ${number(h.value)}`);
  if (h.id.trim()) keys.id = push(`id = ${q(h.id.trim())}`);
  for (const flag of ["concealed", "star", "declared"]) {
    if (h[flag]) keys[flag] = push(`${flag} = true`);
  }
  if (h.suits === "any") keys.suits = push('suits = "any"');
  if (String(h.x).trim()) keys.x = push(`x = ${numbers(h.x)}`);
  if (String(h.y).trim()) keys.y = push(`y = ${numbers(h.y)}`);
  if (h.note.trim()) keys.note = push(`note = ${q(h.note)}`);
  return keys;
}

/**
 * The card as TOML text, and where each line of the card landed in it:
 * `where.hands[i] = {start, end, keys: {pattern: lineNo, ...}}` (1-based lines).
 */
export function toToml(card) {
  const out = ["# Written with the TwinRack card editor."];
  const push = (s) => { out.push(s); return out.length; };
  const where = { name: push(`name = ${q(card.name)}`), hands: [] };
  if (String(card.edition).trim()) where.edition = push(`edition = ${q(card.edition)}`);
  for (const h of card.hands) {
    push("");
    const start = push("[[hand]]");
    const keys = handLines(h, push);
    where.hands.push({ start, end: out.length, keys });
  }
  return { text: `${out.join("\n")}\n`, where };
}

/** Column (1-based, in the TOML line) of a pattern's first character. */
const PATTERN_AT = 'pattern = "'.length + 1;

/**
 * The 0-based index in the pattern of the character at a column of its TOML line, past the
 * escapes that `q` wrote (a `"` is written `\"`, two columns for one character).
 */
export function patternIndex(pattern, column) {
  const target = column - PATTERN_AT;
  let at = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (at >= target) return i;
    at += q(pattern[i]).length - 2;
  }
  return Math.max(0, Math.min(pattern.length, target));
}

/** The file name a card is saved under: its name in lower case, words joined by "-". */
export function fileName(name) {
  const slug = String(name).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")
    .slice(0, 60).replace(/-$/, "");
  return `${slug || "card"}.toml`;
}

/**
 * The loader's problems sorted out per line of `card` (written at `where` by `toToml`):
 * `{card: [..], hands: [[..], ..]}`; each problem keeps its message and, on a pattern, the
 * 0-based index in the pattern of the character the loader points at.
 */
export function placeProblems(problems, where, card) {
  const out = { card: [], hands: where.hands.map(() => []) };
  for (const p of problems) {
    const i = where.hands.findIndex((w) => p.line >= w.start && p.line <= w.end);
    if (i < 0) {
      out.card.push(p);
      continue;
    }
    const w = where.hands[i];
    const key = Object.keys(w.keys).find((k) => w.keys[k] === p.line) || null;
    // a problem with the whole pattern (its tile count) marks all of it, not its first group
    const at = key !== "pattern" ? null
      : p.span === "pattern" ? "all" : patternIndex(card.hands[i].pattern, p.column);
    out.hands[i].push({ ...p, key, at });
  }
  return out;
}

/** The pattern cut into [before, bad token, after] around 0-based index `at` (`"all"`: the
 * whole pattern is at fault). */
export function badToken(pattern, at) {
  if (at === "all") return ["", pattern, ""];
  if (at === null || at === undefined || at >= pattern.length) return [pattern, "", ""];
  let a = at;
  let b = at;
  while (a > 0 && pattern[a - 1] !== " ") a -= 1;
  while (b < pattern.length && pattern[b] !== " ") b += 1;
  if (a === b) b = Math.min(pattern.length, a + 1);
  return [pattern.slice(0, a), pattern.slice(a, b), pattern.slice(b)];
}

/** True for a line nothing has been typed in yet (no pattern). */
export function isEmptyHand(h) {
  return !String(h.pattern).trim();
}

/** Fields of a loaded card file (from the server) as the editor's model. */
export function fromFields(f) {
  const list = (v) => (Array.isArray(v) ? v.join(", ") : "");
  return {
    name: f.name || "", edition: f.edition || "",
    hands: (f.hands || []).map((h) => ({
      ...newHand(h.section || "", h.value === undefined ? "" : String(h.value)),
      pattern: h.pattern || "", id: h.id || "", concealed: !!h.concealed, star: !!h.star,
      declared: !!h.declared, suits: h.suits === "any" ? "any" : "distinct",
      x: list(h.x), y: list(h.y), note: h.note || "",
    })),
  };
}

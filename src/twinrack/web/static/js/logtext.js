// Readable text for the engine's event and action notation (docs/rules.md section 11).
import { tileLabel, tilesLabel } from "./tiles.js";

export function seatName(names, s) {
  const n = Number(s);
  const name = names && names[n];
  return name ? `Seat ${n + 1} (${name})` : `Seat ${n + 1}`;
}

const CLAIMS = {
  mahjongg: "Mah Jongg", double: "a Double Mah Jongg", expose: "an exposure",
};

const ENDS = {
  mahjongg: (who) => `Game over: ${who} wins with Mah Jongg.`,
  wall: () => "Game over: the wall is spent.",
  dead: (who) => `Game over: ${who} has no live rack left.`,
  stopped: () => "Game over: nobody is left who can play.",
};

export function endText(reason, seat, names) {
  const who = seat === null || seat === undefined ? "" : seatName(names, seat);
  const f = ENDS[reason];
  return f ? f(who) : `Game over (${reason}${who ? ` ${who}` : ""}).`;
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function plural(n, word) {
  return `${n} ${word}${Number(n) === 1 ? "" : "s"}`;
}

function exposureRef(names, ref) {
  const [o, r, x] = ref.split(":");
  return `${seatName(names, o)}'s rack ${r}, group ${x}`;
}

/** One event line as a sentence: "discard 1 5B" -> "Seat 2 (Bea) discards 5 Bam". */
export function eventText(line, names) {
  const text = String(line);
  const [head, ...restParts] = text.split(": ");
  const rest = restParts.join(": ");
  const w = head.trim().split(/\s+/);
  const verb = w[0];
  const who = () => seatName(names, w[1]);
  switch (verb) {
    case "start":
      return `New ${cap(w[1] || "")} game for ${w[2]} players, ${w[3]} rules. ` +
        `Shuffle commitment ${(w[4] || "").slice(0, 12)}...`;
    case "cut":
      return `East throws the die (${w[1]}) and cuts the wall.`;
    case "deal":  // your own tiles are on your racks: the log only counts them
      return `${who()} is dealt ${w[2]} tiles.`;
    case "pick":
      return w[2] ? `${who()} picks ${tileLabel(w[2])}.` : `${who()} picks a tile.`;
    case "discard":
      return `${who()} discards ${tileLabel(w[2])}.`;
    case "pass":
      return `${who()} passes.`;
    case "claim":
      return `${who()} claims the discard for ${CLAIMS[w[2]] || w[2]}.`;
    case "grant":
      return `${who()} takes ${tileLabel(w[3])} from ${seatName(names, w[5])} ` +
        `for ${CLAIMS[w[2]] || w[2]}.`;
    case "expose":
      return `${who()} exposes ${tilesLabel(w.slice(3))} on rack ${w[2]}.`;
    case "dead":
      return `${who()}'s rack ${w[2]} is DEAD` +
        (w[3] === "exposure" ? " (its exposures match no hand on the card)." :
          w[3] === "error" ? " (Mah Jongg in error)." : ".");
    case "exchange":
      return `${who()} gives ${tileLabel(w[2])} for the Joker in ${exposureRef(names, w[4])}.`;
    case "mahjongg": {
      const flags = w.slice(4).filter((f) => f);
      return `${who()} declares Mah Jongg on rack ${w[2]}: ${w[3]}` +
        (flags.length ? ` (${flags.join(", ")})` : "") + ".";
    }
    case "error":
      if (w[2] === "claim") return `${who()} claimed Mah Jongg in error.`;
      return `${who()}'s Mah Jongg on rack ${w[2]} is in error` +
        (rest ? `: ${tilesLabel(rest)}.` : ".");
    case "move": {
      if (w.length >= 4) {
        const [a, b] = w[3].split(">");
        return `${who()} moves ${tileLabel(w[2])} from rack ${a} to rack ${b}.`;
      }
      const [a, b] = (w[2] || "").split(">");
      return `${who()} moves a tile from rack ${a} to rack ${b}.`;
    }
    case "declare":
      return rest
        ? `${who()} declares ${w[2]}: ${tilesLabel(rest)}.`
        : `${who()} declares the hand ${w[2]}.`;
    case "undeclare":
      return `${who()} goes off the declared hand` +
        (w[2] === "forced" ? " (forced)." : ".");
    case "withdraw":
      return `${who()} withdraws the claim: ${tileLabel(w[2])} goes back to the discards.`;
    case "stop":
      return `${who()} stops playing.`;
    case "end":
      return endText(w[1], w[2] === undefined ? null : Number(w[2]), names);
    default:
      return text;
  }
}

/** An action's text (with or without its "S: " seat prefix) as a short phrase. */
export function actionText(text, names, seat = null) {
  let body = String(text);
  const m = body.match(/^\s*(\d+)\s*:\s*(.*)$/);
  if (m) {
    seat = Number(m[1]);
    body = m[2];
  }
  const w = body.trim().split(/\s+/);
  const who = seat === null ? "" : `${seatName(names, seat)}: `;
  switch (w[0]) {
    case "deal":
      return "The deal";
    case "discard":
      return `${who}discard ${tileLabel(w[1])}`;
    case "pass":
      return `${who}pass`;
    case "claim":
      return `${who}claim for ${CLAIMS[w[1]] || w[1]}`;
    case "expose":
      return `${who}expose ${tilesLabel(w.slice(2))} on rack ${w[1]}`;
    case "exchange":
      return `${who}give ${tileLabel(w[1])} for the Joker in ${exposureRef(names, w[3])}`;
    case "mahjongg":
      return w.length > 2
        ? `${who}Mah Jongg on rack ${w[1]}`
        : `${who}declare rack ${w[1]} as arranged`;
    case "move": {
      const [a, b] = (w[2] || "").split(">");
      return `${who}move ${tileLabel(w[1])} from rack ${a} to rack ${b}`;
    }
    case "declare":
      return `${who}declare ${w[1]}`;
    case "undeclare":
      return `${who}go off the declared hand`;
    case "withdraw":
      return `${who}withdraw the claim`;
    default:
      return `${who}${body}`;
  }
}

export { plural };

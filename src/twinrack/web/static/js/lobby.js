// The lobby's pages: the form offers only the player counts the chosen variant allows (the
// server renders them from the engine's rules as each variant's data-players) and only the
// seats that count needs. The invite links' Copy buttons are copy.js's.

import "./copy.js";

const players = document.getElementById("players");
const variants = [...document.querySelectorAll("input[name=variant]")];

function allowedCounts() {
  const chosen = variants.find((v) => v.checked) || variants[0];
  return chosen ? chosen.dataset.players.split(" ") : [];
}

function offerCounts() {
  const allowed = allowedCounts();
  for (const option of players.options) {
    const ok = allowed.includes(option.value);
    option.disabled = !ok;
    option.hidden = !ok;
  }
  if (!allowed.includes(players.value)) players.value = allowed[0];
  showSeats();
}

function showSeats() {
  for (const el of document.querySelectorAll(".seat-choice")) {
    el.hidden = Number(el.dataset.seat) >= Number(players.value);
  }
}

if (players) {
  players.addEventListener("change", showSeats);
  for (const v of variants) v.addEventListener("change", offerCounts);
  offerCounts();
}

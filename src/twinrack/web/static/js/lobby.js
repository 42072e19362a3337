// The lobby's pages: the form offers only the player counts the chosen variant allows (the
// server renders them from the engine's rules as each variant's data-players) and only the
// seats that count needs. The invite links' Copy buttons are copy.js's.

import "./copy.js";
import { viewCard } from "./cardview.js";

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

// The player's name, remembered by this browser: every name field marked data-remember
// starts with it (unless the server sent back a refused form as typed) and keeps what is
// typed or sent; "Play the computer" plays under it too.
const NAME_KEY = "twinrack.name";

function rememberedName() {
  try { return window.localStorage.getItem(NAME_KEY) || ""; } catch (_e) { return ""; }
}

function rememberName(name) {
  const clean = (name || "").trim();
  if (!clean) return;
  try { window.localStorage.setItem(NAME_KEY, clean); } catch (_e) { /* private mode */ }
}

for (const field of document.querySelectorAll("input[data-remember=name]")) {
  const known = rememberedName();
  if (known && field.dataset.typed !== "true") field.value = known;
  if (field.type !== "hidden") field.addEventListener("change", () => rememberName(field.value));
  if (field.form) field.form.addEventListener("submit", () => {
    if (field.type !== "hidden") rememberName(field.value);
  });
}

/** "View the card": the card chosen (practice, saved, or the file picked, as the server's
 * check reads it) in the card drawer. */
async function viewChosen() {
  const say = document.getElementById("view-card-error");
  say.textContent = "";
  const choice = (document.querySelector("input[name=card_choice]:checked") || {}).value;
  try {
    if (choice === "saved") {
      const id = document.getElementById("saved-card").value;
      await viewCard({ src: `/api/cards/${encodeURIComponent(id)}/sheet` });
    } else if (choice === "upload") {
      const file = document.querySelector("input[name=card_file]").files[0];
      if (!file) throw new Error("choose a card file first");
      await viewCard({ source: await file.text() });
    } else {
      await viewCard({ src: "/api/cards/practice/sheet" });
    }
  } catch (err) {
    say.textContent = String(err.message || err);
  }
}

const viewButton = document.getElementById("view-card");
if (viewButton) viewButton.addEventListener("click", viewChosen);

// The lobby form: show only the seats that the chosen number of players needs.
const players = document.getElementById("players");
function seats() {
  for (const el of document.querySelectorAll(".seat-choice")) {
    el.hidden = Number(el.dataset.seat) >= Number(players.value);
  }
}
if (players) {
  players.addEventListener("change", seats);
  seats();
}

// Sounds for your turn, a claim you may make and a Mah Jongg: short tones made here with
// WebAudio (no sound files), off until the player turns them on (kept in this browser).
import { useEffect, useRef, useState } from "/static/vendor/preact-htm.js";

const KEY = "twinrack.sound";
//: each sound: its notes (frequency in Hz, length in seconds)
const TUNES = {
  turn: [[660, 0.09], [880, 0.12]],
  claim: [[988, 0.14]],
  mahjongg: [[523, 0.12], [659, 0.12], [784, 0.12], [1047, 0.25]],
};

let audio = null;

function play(name) {
  (window.__twinrackSounds = window.__twinrackSounds || []).push(name); // for tests
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    audio = audio || new Ctx();
    let t = audio.currentTime + 0.01;
    for (const [freq, len] of TUNES[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + len + 0.02);
      t += len;
    }
  } catch (_e) { /* no sound is no harm */ }
}

function stored() {
  try { return window.localStorage.getItem(KEY) === "on"; } catch (_e) { return false; }
}

/** The sound switch; rings when `f` (the page's facts) turns to this seat or brings a claim
 * it may make or a new Mah Jongg. */
export function useSound(f, legal) {
  const [on, setOn] = useState(stored());
  const last = useRef(null);
  const toggle = () => {
    const next = !on;
    setOn(next);
    try { window.localStorage.setItem(KEY, next ? "on" : "off"); } catch (_e) { /* private mode */ }
  };
  const mjs = f ? f.v.seats.reduce((n, s) => n + s.racks.filter((r) => r.mahjongg).length, 0) : 0;
  const canClaim = !!(f && f.v.phase === "window" && legal.of("claim").length);
  const key = f ? `${f.v.turn}:${f.v.phase}:${f.myTurn}:${canClaim}:${mjs}` : "";
  useEffect(() => {
    const before = last.current;
    last.current = { mjs, turn: f && f.myTurn, claim: canClaim, key };
    if (!on || !before || before.key === key) return;
    if (mjs > before.mjs) play("mahjongg");
    else if (canClaim && !before.claim) play("claim");
    else if (f.myTurn && !before.turn) play("turn");
  }, [key, on]);
  return { on, toggle };
}

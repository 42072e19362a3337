// The final score, the revealed seed and the "Verify the shuffle" check (table and replay).
import { html, useState } from "/static/vendor/preact-htm.js";
import { seatName } from "./board.js";
import { Linked } from "./table/card.js";

function hexToBytes(hex) {
  const clean = String(hex || "").trim();
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new Error("the seed is not hexadecimal");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.substr(i * 2, 2), 16);
  return out;
}

function toHex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// SHA-256 in plain JavaScript, for pages served over plain http (not a secure context),
// where crypto.subtle does not exist.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256Plain(bytes) {
  const len = bytes.length;
  const total = Math.ceil((len + 9) / 64) * 64;
  const m = new Uint8Array(total);
  m.set(bytes);
  m[len] = 0x80;
  const bits = len * 8;
  const dv = new DataView(m.buffer);
  dv.setUint32(total - 4, bits >>> 0);
  dv.setUint32(total - 8, Math.floor(bits / 2 ** 32));
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  const out = new Uint8Array(32);
  const odv = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) odv.setUint32(i * 4, H[i]);
  return out.buffer;
}

/** sha256 of the seed's bytes, in hex (what the game published as its commitment). */
export async function seedDigest(seedHex) {
  const bytes = hexToBytes(seedHex);
  if (globalThis.crypto && crypto.subtle && typeof crypto.subtle.digest === "function") {
    return { hex: toHex(await crypto.subtle.digest("SHA-256", bytes)), how: "crypto.subtle" };
  }
  return { hex: toHex(sha256Plain(bytes)), how: "built-in SHA-256" };
}

/** The "Verify the shuffle" button and its two results. */
export function VerifyPanel({ gameId, seed, commitment }) {
  const [busy, setBusy] = useState(false);
  const [local, setLocal] = useState(null);
  const [server, setServer] = useState(null);

  async function run() {
    setBusy(true);
    setLocal(null);
    setServer(null);
    try {
      const d = await seedDigest(seed);
      const ok = d.hex === String(commitment).toLowerCase();
      setLocal({ ok, text: ok
        ? `sha256(seed) equals the commitment published at the deal (checked in your browser with ${d.how}).`
        : `sha256(seed) is ${d.hex}, which is NOT the commitment ${commitment}.` });
    } catch (err) {
      setLocal({ ok: false, text: `could not hash the seed: ${err.message || err}` });
    }
    try {
      const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/verify`);
      const body = await r.json();
      if (r.ok && body.ok) {
        setServer({ ok: true, text: "The server rebuilt the wall from the seed and replayed " +
          "every action: the record, its events and the score all agree." });
      } else {
        setServer({ ok: false, text: `The server's check failed: ${body.problem || body.error ||
          r.statusText}` });
      }
    } catch (err) {
      setServer({ ok: false, text: `could not reach the server: ${err.message || err}` });
    }
    setBusy(false);
  }

  const done = local && server;
  const allOk = done && local.ok && server.ok;
  return html`<div class="verify">
    <button type="button" id="verify-btn" class="primary" onClick=${run} disabled=${busy || !seed}>
      ${busy ? "Verifying..." : "Verify the shuffle"}</button>
    <div id="verify-result" role="status" aria-live="polite"
         data-ok=${done ? String(allOk) : ""} class=${done ? (allOk ? "ok" : "bad") : ""}>
      ${local && html`<p class=${local.ok ? "ok" : "bad"}>
        <span aria-hidden="true">${local.ok ? "\u2714 " : "\u2718 "}</span>${local.text}</p>`}
      ${server && html`<p class=${server.ok ? "ok" : "bad"}>
        <span aria-hidden="true">${server.ok ? "\u2714 " : "\u2718 "}</span>${server.text}</p>`}
      ${done && html`<p><strong>${allOk ? "Verified: the shuffle was fair and the game is as recorded."
        : "Verification FAILED."}</strong></p>`}
    </div>
  </div>`;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The itemized score: lines, totals per player, the seed and commitment. */
export function ScorePanel({ gameId, score, names, seed, commitment, mySeat = null,
  replayLink = true, children = null }) {
  const lines = (score && score.lines) || [];
  const totals = (score && score.totals) || [];
  return html`<section class="score-panel" id="score" aria-labelledby="score-title">
    <h2 id="score-title">Game over</h2>
    <p class="end-reason">${score.ending}</p>
    <table class="score" id="score-lines">
      <caption>Score, line by line</caption>
      <thead><tr><th scope="col">Player</th><th scope="col">For</th>
        <th scope="col" class="num">Points</th></tr></thead>
      <tbody>
        ${lines.length === 0 && html`<tr><td colspan="3" class="muted">No points scored.</td></tr>`}
        ${lines.map((l) => typeof l === "string"
          ? html`<tr><td colspan="3"><${Linked} text=${l} /></td></tr>`
          : html`<tr><td>${seatName(names, l.seat)}</td><td><${Linked} text=${l.reason} /></td>
              <td class="num">${signed(l.points)}</td></tr>`)}
      </tbody>
    </table>
    <table class="score totals" id="score-totals">
      <caption>Totals</caption>
      <tbody>
        ${totals.map((t, s) => html`<tr class=${s === mySeat ? "me" : ""}>
          <th scope="row">${seatName(names, s)}${s === mySeat ? " (you)" : ""}</th>
          <td class="num total" data-seat=${s} data-total=${t}>${signed(t)}</td></tr>`)}
      </tbody>
    </table>
    <dl class="seed">
      <dt>Commitment (published at the deal)</dt><dd><code id="commitment">${commitment}</code></dd>
      <dt>Seed (revealed now)</dt><dd><code id="seed">${seed}</code></dd>
    </dl>
    <${VerifyPanel} gameId=${gameId} seed=${seed} commitment=${commitment} />
    ${children}
    ${replayLink && html`<p><a class="button" id="replay-link"
      href=${`/t/${encodeURIComponent(gameId)}/replay`}>Watch the replay (all hands shown)</a>
      ${" "}<a href=${`/api/games/${encodeURIComponent(gameId)}/record`}>Game record (JSON)</a></p>`}
  </section>`;
}

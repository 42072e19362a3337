// Tiles: names, labels and images (the SVGs in /static/tiles/).
import { html } from "/static/vendor/preact-htm.js";

const SUIT_LABELS = { B: "Bam", C: "Crak", D: "Dot" };
const OTHER_LABELS = {
  N: "North wind", E: "East wind", W: "West wind", S: "South wind",
  R: "Red dragon", G: "Green dragon", 0: "White dragon", F: "Flower", J: "Joker",
};

/** The readable label of a tile in notation: "5B" -> "5 Bam", "0" -> "White dragon". */
export function tileLabel(t) {
  if (t === null || t === undefined) return "";
  const s = String(t);
  if (s.length === 2 && "123456789".includes(s[0]) && SUIT_LABELS[s[1]]) {
    return `${s[0]} ${SUIT_LABELS[s[1]]}`;
  }
  return OTHER_LABELS[s] || s;
}

/** Several tiles as readable text: "5 Bam, 5 Bam, Joker". */
export function tilesLabel(tiles) {
  return splitTiles(tiles).map(tileLabel).join(", ");
}

export function tileSrc(t) {
  return `/static/tiles/${encodeURIComponent(t)}.svg`;
}

/** "5B 5B J" -> ["5B", "5B", "J"] (arrays pass through). */
export function splitTiles(tiles) {
  if (Array.isArray(tiles)) return tiles;
  if (!tiles) return [];
  return String(tiles).trim().split(/\s+/).filter(Boolean);
}

/** One tile image. `size`: "s" (small), "m" (pool), "l" (your racks). */
export function Tile({ t, size = "m", cls = "", title }) {
  const label = tileLabel(t);
  return html`<img class=${`tile-img tile-${size} ${cls}`} src=${tileSrc(t)} alt=${label}
    title=${title || label} draggable="false" />`;
}

/** A row of tiles (an exposure, a Mah Jongg, a choice). */
export function TileRow({ tiles, size = "s", label, cls = "" }) {
  const list = splitTiles(tiles);
  return html`<span class=${`tile-row ${cls}`} role="group"
      aria-label=${label || tilesLabel(list)}>
    ${list.map((t) => html`<${Tile} t=${t} size=${size} />`)}
  </span>`;
}

/** Face-down tiles: `n` backs, drawn overlapping, with the count beside them. */
export function Backs({ n, max = 30 }) {
  const shown = Math.min(n, max);
  const backs = [];
  for (let i = 0; i < shown; i++) {
    backs.push(html`<img class="tile-img tile-back" src="/static/tiles/back.svg" alt=""
      draggable="false" />`);
  }
  return html`<span class="backs" role="img" aria-label=${`${n} concealed tiles`}>
    <span class="backs-tiles" aria-hidden="true">${backs}</span>
    <span class="backs-count" aria-hidden="true">${n}</span>
  </span>`;
}

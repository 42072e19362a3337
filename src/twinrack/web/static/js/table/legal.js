// The legal actions of a state (docs/protocol.md): objects with a verb and its fields, found
// by what they do, never by their text (the text only goes back to the server).

/** Lookups over the `legal` list of a state message. */
export function legalActions(list) {
  const find = (verb, ok = () => true) => list.find((a) => a.verb === verb && ok(a)) || null;
  const claim = (kind) => find("claim", (a) => a.kind === kind);
  return {
    all: list,
    of: (verb) => list.filter((a) => a.verb === verb),
    one: find,
    claim,
    discard: (tile) => find("discard", (a) => a.tile === tile),
    move: (tile, from, to) => find("move", (a) => a.tile === tile && a.from === from && a.to === to),
    /** The racks a tile of `rack` may move to, in order. */
    moveTargets: (rack, tile) => list
      .filter((a) => a.verb === "move" && a.tile === tile && a.from === rack)
      .map((a) => a.to).sort((x, y) => x - y),
    /** The claim the C key makes: Mah Jongg when it can, else an exposure. */
    bestClaim: () => ["double", "mahjongg", "expose"].map(claim).find(Boolean) || null,
  };
}

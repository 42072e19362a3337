"""A fair, verifiable shuffle (docs/rules.md, "The wall").

A secret seed keys HMAC-SHA256 in counter mode; the stream of 32-bit words drives a
Fisher-Yates shuffle (rejection sampling, so every order is equally likely) and the die of
the cut. The record publishes ``sha256(seed)`` from the deal on and the seed once the game
has ended, so anyone can recompute the wall and check it.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from twinrack.errors import TwinRackError


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its sha256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def seed_bytes(seed: bytes | str | int) -> bytes:
    """A seed as bytes: bytes as they are, hex text decoded, an int hashed to 32 bytes."""
    if isinstance(seed, bytes):
        if not seed:
            raise TwinRackError("bad_seed", "a seed cannot be empty")
        return seed
    if isinstance(seed, int):
        return hashlib.sha256(f"twinrack-seed:{seed}".encode()).digest()
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raise TwinRackError("bad_seed", "a seed is written in hexadecimal") from None
    if not raw:
        raise TwinRackError("bad_seed", "a seed cannot be empty")
    return raw


def derive_seed(master: int | str, *parts: object) -> bytes:
    """A game seed derived from a master seed and labels (simulation, tests)."""
    text = ":".join(["twinrack-derive", str(master), *map(str, parts)])
    return hashlib.sha256(text.encode()).digest()


def _words(seed: bytes, purpose: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(seed, purpose + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in 0..n-1 by rejection sampling 32-bit words."""
    limit = (1 << 32) - ((1 << 32) % n)
    while True:
        w = next(words)
        if w < limit:
            return w % n


def shuffled(seed: bytes, tiles: Sequence[int]) -> list[int]:
    """Fisher-Yates shuffle of ``tiles`` driven by HMAC-SHA256(seed, "wall" || counter)."""
    out = list(tiles)
    words = _words(seed, b"twinrack-wall")
    for i in range(len(out) - 1, 0, -1):
        j = _below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def die(seed: bytes) -> int:
    """East's die, 1-6, from the same seed (its own counter stream)."""
    return _below(_words(seed, b"twinrack-die"), 6) + 1

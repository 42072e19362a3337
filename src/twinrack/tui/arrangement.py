"""The order the player sees its concealed tiles in, and the cursor over them.

The engine keeps only *how many* of each tile sit on each rack (rules section 5: the
arrangement does not matter to the rules). A player at a real table still keeps its tiles in
an order of its own: a picked tile goes at the end of the rack until the player sorts. This
class keeps that order for display, and follows the engine's counts after every event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


class Arrangement:
    """Tiles of each rack in display order, and a cursor ``(rack, index)``."""

    def __init__(self, hand: Sequence[Sequence[int]]) -> None:
        self.racks: list[list[int]] = [sorted(r) for r in hand]
        self.rack = 0
        self.index = 0
        self.fix_cursor()

    # ------------------------------------------------------------------ following the engine

    def follow(self, hand: Sequence[Sequence[int]],
               gone: tuple[int, int] | None = None) -> list[tuple[int, int]]:
        """Match the engine's tiles per rack, keeping the order of the tiles still there.

        Tiles that left a rack are taken from its end (or, first, the one at ``gone``,
        ``(rack, index)``, the tile the player just played); new tiles join at the end.
        Returns where the new tiles landed, as ``(rack, index)``.
        """
        landed: list[tuple[int, int]] = []
        while len(self.racks) < len(hand):
            self.racks.append([])
        for r, tiles in enumerate(hand):
            want = Counter(tiles)
            order = list(self.racks[r])
            if gone is not None and gone[0] == r and 0 <= gone[1] < len(order):
                t = order[gone[1]]
                have = Counter(order)
                if have[t] > want[t]:
                    del order[gone[1]]
            kept: list[int] = []
            left = Counter(want)
            # drop extra copies from the end: keep the first ``want`` copies of each tile
            for t in order:
                if left[t] > 0:
                    kept.append(t)
                    left[t] -= 1
            new = sorted(left.elements())
            landed.extend((r, len(kept) + i) for i in range(len(new)))
            self.racks[r] = kept + new
        self.fix_cursor()
        return landed

    def sort(self) -> None:
        """Sort every rack (the `s` key)."""
        for r in self.racks:
            r.sort()
        self.fix_cursor()

    # ------------------------------------------------------------------ the cursor

    @property
    def tile(self) -> int | None:
        """The tile under the cursor (``None`` when the player holds no concealed tile)."""
        rack = self.racks[self.rack] if self.rack < len(self.racks) else []
        return rack[self.index] if 0 <= self.index < len(rack) else None

    def fix_cursor(self) -> None:
        """Keep the cursor on a tile: clamp it, or go to the nearest rack holding tiles."""
        if not self.racks:
            self.rack = self.index = 0
            return
        self.rack = min(max(self.rack, 0), len(self.racks) - 1)
        if not self.racks[self.rack]:
            for step in range(1, len(self.racks)):
                for r in (self.rack + step, self.rack - step):
                    if 0 <= r < len(self.racks) and self.racks[r]:
                        self.rack = r
                        break
                else:
                    continue
                break
        self.index = min(max(self.index, 0), max(len(self.racks[self.rack]) - 1, 0))

    def left(self) -> None:
        if self.index > 0:
            self.index -= 1
        else:
            self._rack_step(-1, to_end=True)

    def right(self) -> None:
        if self.index < len(self.racks[self.rack]) - 1:
            self.index += 1
        else:
            self._rack_step(1, to_end=False)

    def up(self) -> None:
        self._rack_step(-1, keep=True)

    def down(self) -> None:
        self._rack_step(1, keep=True)

    def _rack_step(self, step: int, *, to_end: bool = False, keep: bool = False) -> None:
        """To the next rack holding tiles in direction ``step`` (wrapping around)."""
        n = len(self.racks)
        for k in range(1, n + 1):
            r = (self.rack + step * k) % n
            if self.racks[r]:
                if r == self.rack and not keep:
                    self.index = len(self.racks[r]) - 1 if to_end else 0
                    return
                self.rack = r
                if keep:
                    self.index = min(self.index, len(self.racks[r]) - 1)
                else:
                    self.index = len(self.racks[r]) - 1 if to_end else 0
                return

    def go_to(self, tile: int, prefer_rack: int | None = None) -> bool:
        """Put the cursor on a copy of ``tile`` (the last one, where new tiles arrive);
        False when no rack holds one."""
        racks = list(range(len(self.racks)))
        if prefer_rack is not None and prefer_rack in racks:
            racks.remove(prefer_rack)
            racks.insert(0, prefer_rack)
        for r in racks:
            order = self.racks[r]
            for i in range(len(order) - 1, -1, -1):
                if order[i] == tile:
                    self.rack, self.index = r, i
                    return True
        return False

    def shift(self, step: int) -> None:
        """Slide the tile under the cursor left or right within its rack (display only)."""
        order = self.racks[self.rack]
        j = self.index + step
        if 0 <= self.index < len(order) and 0 <= j < len(order):
            order[self.index], order[j] = order[j], order[self.index]
            self.index = j

    def moved(self, src: int, dst: int) -> None:
        """The tile under the cursor went from rack ``src`` to the end of rack ``dst``."""
        order = self.racks[src]
        if 0 <= self.index < len(order):
            t = order.pop(self.index)
            self.racks[dst].append(t)
        self.fix_cursor()

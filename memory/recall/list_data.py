"""Query-independent data derived from one user's preference list, kept up to date
between recalls (recall's per-list cache)."""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from itertools import compress, count, islice, repeat

import numpy as np

from ..core import BM25Index
from ..embeddings import Embedder
from ..model import Preference
from .relevance import readable_by
from .results import NO_VECTOR
from .spaces import FusedSpace, VectorSpace, make_space

_POLARITY_CODES = {"like": 0, "dislike": 1}


class ListData:
    """Query-independent data derived from one user's preference list, kept up to date.

    Built from a list and then moved to each later list of the same user (:meth:`update`):
    the new list is compared with the current one by object identity (preferences are not
    changed in place; a changed preference is a new object), and only the preferences that
    left or arrived are re-derived. Each preference held has a *slot* (a stable handle: its
    space, matrix row, ``last_seen_at`` stamp, polarity and category codes, stale reason),
    and the per-position arrays of the current list are gathered from the slots.

    Per vector space (the current embedder's and the others the resolver can rebuild,
    numbered in order of first appearance and never renumbered) a :class:`VectorSpace`; the
    count of vectors that no space can use (:attr:`stale`); per filter (polarity, category)
    a :class:`PoolData`.

    Thread safety: :attr:`lock` is held by the recaller while it updates and scores.
    """

    __slots__ = (
        "_cat_codes", "_free_slots", "_pools", "_slot_of", "_space_index", "current", "embedder",
        "lock", "pos_slot", "prefs", "resolver", "slot_cat", "slot_pol", "slot_pref", "slot_row",
        "slot_space", "slot_stale", "slot_stamp", "spaces", "stale",
    )  # fmt: skip

    MAX_FILTERS = 8
    """Filter combinations kept per list (most recalls use none)."""

    MAX_EDITS = 32
    """Breaks in the runs of unchanged preferences that :meth:`_aligned` follows before
    matching every preference through a dict instead (a write changes a few)."""

    def __init__(
        self,
        prefs: Sequence[Preference],
        embedder: Embedder | None,
        resolver: Callable[[str, int], Embedder | None] | None = None,
    ) -> None:
        self.embedder = embedder
        self.resolver = resolver
        self.current = (embedder.name, embedder.dim) if embedder is not None else None
        self.lock = threading.Lock()
        self.prefs: Sequence[Preference] = ()
        self.pos_slot = np.zeros(0, dtype=np.intp)
        self.slot_pref: list[Preference | None] = []
        self.slot_stale: list[str | None] = []
        self.slot_space = np.zeros(0, dtype=np.intp)
        self.slot_row = np.zeros(0, dtype=np.intp)
        self.slot_stamp = np.zeros(0, dtype=np.float64)
        self.slot_pol = np.zeros(0, dtype=np.int8)
        self.slot_cat = np.zeros(0, dtype=np.int32)
        self._free_slots: list[int] = []
        self._slot_of: dict[int, int] = {}
        self._cat_codes: dict[str, int] = {}
        self.spaces: list[VectorSpace | FusedSpace] = []
        self._space_index: dict[tuple[str, int], int | None] = {}
        self.stale: dict[str, int] = {}
        self._pools: OrderedDict[tuple[str | None, str | None], PoolData] = OrderedDict()
        self.update(prefs)

    def update(self, prefs: Sequence[Preference]) -> None:
        """Move to ``prefs``, re-deriving only the preferences not in the current list.

        Cost: a C-level identity scan when nothing changed (≈0.2 ms at 10k); after a few
        edits about as much again (:meth:`_aligned`), after many one dict lookup per
        preference (≈0.8 ms at 10k, :meth:`_matched`); then a few vectorised passes over
        the list, and per arriving preference its normalised row, prior and lexical entry.
        (``id`` is safe: the held objects are alive, so no new object shares an id with
        one of them.)
        """
        old = self.prefs
        if prefs is old:
            return
        n_old, n_new = len(old), len(prefs)
        if n_old == n_new and all(map(operator.is_, old, prefs)):
            self.prefs = prefs
            for pool in self._pools.values():
                pool.rebind(self)
            return
        aligned = self._aligned(prefs)
        if aligned is not None:
            found, removed = aligned
        else:
            found, removed = self._matched(prefs)
        arriving = np.flatnonzero(found < 0)
        added = self._new_slots([prefs[i] for i in arriving.tolist()])
        found[arriving] = added
        self._release_rows(removed)
        self._place(added)
        self.prefs = prefs
        self.pos_slot = found
        for pool in self._pools.values():
            pool.refresh(self, removed, added)
        for slot in removed:
            pref = self.slot_pref[slot]
            if self._slot_of.get(id(pref)) == slot:
                del self._slot_of[id(pref)]
            self.slot_pref[slot] = None
            self.slot_stale[slot] = None
        self._free_slots.extend(removed)
        for slot in added:
            self._slot_of[id(self.slot_pref[slot])] = slot

    def _aligned(self, prefs: Sequence[Preference]) -> tuple[np.ndarray, list[int]] | None:
        """Slots of ``prefs`` by walking it against the current list: runs of the same
        objects are found at C speed, and at each break the new list's object is an
        arrival (not held) or the current list's object left. ``None`` after
        :data:`MAX_EDITS` breaks (then :meth:`_matched` is cheaper).

        Returns:
            ``(intp[len(prefs)]`` slots, −1 for arrivals``, departed slots)``. Always a
            valid assignment (a held object is reused only at a position holding that very
            object); an object moved against the others is re-derived, not reused.
        """
        old, slot_of = self.prefs, self._slot_of
        n_old, n_new = len(old), len(prefs)
        found = np.full(n_new, -1, dtype=np.intp)
        departed: list[int] = []
        i = j = 0
        for _ in range(self.MAX_EDITS + 1):
            breaks = map(operator.is_not, islice(old, i, None), islice(prefs, j, None))
            run = next(compress(count(), breaks), min(n_old - i, n_new - j))
            found[j : j + run] = self.pos_slot[i : i + run]
            i, j = i + run, j + run
            if i == n_old or j == n_new:
                departed += range(i, n_old)
                return found, self.pos_slot[departed].tolist()
            if id(prefs[j]) in slot_of:
                departed.append(i)
                i += 1
            else:
                j += 1
        return None

    def _matched(self, prefs: Sequence[Preference]) -> tuple[np.ndarray, list[int]]:
        """Slots of ``prefs`` by one ``id(object) → slot`` lookup each (any order of edits)."""
        found = np.fromiter(map(self._slot_of.get, map(id, prefs), repeat(-1)), np.intp, len(prefs))
        kept = found[found >= 0]
        if len(kept) and np.bincount(kept).max() > 1:  # one object twice: give each its slot
            found[:] = -1
            kept = found[:0]
        held = np.zeros(len(self.slot_pref), dtype=bool)
        held[self.pos_slot] = True
        held[kept] = False
        return found, np.flatnonzero(held).tolist()

    def _new_slots(self, prefs: list[Preference]) -> list[int]:
        """Give each preference a slot (freed ones first) with its stamp and filter codes."""
        slots = [self._free_slots.pop() for _ in range(min(len(prefs), len(self._free_slots)))]
        start = len(self.slot_pref)
        grow = len(prefs) - len(slots)
        if grow:
            slots += range(start, start + grow)
            self.slot_pref += [None] * grow
            self.slot_stale += [None] * grow
            self.slot_space = np.concatenate([self.slot_space, np.full(grow, -1, np.intp)])
            self.slot_row = np.concatenate([self.slot_row, np.full(grow, -1, np.intp)])
            self.slot_stamp = np.concatenate([self.slot_stamp, np.zeros(grow)])
            self.slot_pol = np.concatenate([self.slot_pol, np.zeros(grow, np.int8)])
            self.slot_cat = np.concatenate([self.slot_cat, np.zeros(grow, np.int32)])
        for slot, p in zip(slots, prefs, strict=True):
            self.slot_pref[slot] = p
            self.slot_stamp[slot] = p.last_seen_at.timestamp()
            self.slot_pol[slot] = _POLARITY_CODES.get(p.polarity, -1)
            self.slot_cat[slot] = self._cat_codes.setdefault(p.category, len(self._cat_codes))
            self.slot_space[slot] = -1
            self.slot_row[slot] = -1
        return slots

    def _release_rows(self, slots: list[int]) -> None:
        """Free the matrix rows of departing slots and take back their stale counts."""
        by_space: dict[int, list[int]] = {}
        for slot in slots:
            s = int(self.slot_space[slot])
            if s >= 0:
                by_space.setdefault(s, []).append(int(self.slot_row[slot]))
            reason = self.slot_stale[slot]
            if reason is not None:
                left = self.stale[reason] - 1
                if left:
                    self.stale[reason] = left
                else:
                    del self.stale[reason]
        for s, rows in by_space.items():
            self.spaces[s].free(rows)
        self.slot_space[slots] = -1
        self.slot_row[slots] = -1
        for s in by_space:
            self._compact_if_needed(s)

    def _compact_if_needed(self, s: int) -> None:
        space = self.spaces[s]
        if space.needs_compaction():
            moved = space.compact()
            mine = np.flatnonzero(self.slot_space == s)
            self.slot_row[mine] = moved[self.slot_row[mine]]

    def _space_for(self, key: tuple[str, int]) -> int | None:
        """The index of the space of stored vectors ``key`` (resolved once), or None."""
        if key in self._space_index:
            return self._space_index[key]
        assert self.embedder is not None
        found = self.embedder if key == self.current else (
            self.resolver(*key) if self.resolver else None
        )  # fmt: skip
        index = None
        if found is not None:
            index = len(self.spaces)
            self.spaces.append(make_space(found))
        self._space_index[key] = index
        return index

    def _place(self, slots: list[int]) -> None:
        """Put the vectors of new slots into their spaces (one batch per space)."""
        if self.embedder is None:
            return
        groups: dict[int, list[int]] = {}
        for slot in slots:
            p = self.slot_pref[slot]
            assert p is not None
            if p.embedding is None or p.embedding_model is None or p.embedding_dim is None:
                self._stale(slot, NO_VECTOR)
                continue
            s = self._space_for((p.embedding_model, p.embedding_dim))
            if s is None:
                self._stale(slot, p.embedding_model)
                continue
            space = self.spaces[s]
            if len(p.embedding) != 4 * space.embedder.dim:
                self._stale(slot, space.embedder.name)
            elif readable_by(space.embedder, p.content):
                groups.setdefault(s, []).append(slot)
        for s, members in groups.items():
            space = self.spaces[s]
            raw = np.frombuffer(
                b"".join(held(self, i).embedding or b"" for i in members), np.float32
            ).reshape(len(members), space.embedder.dim)
            self.slot_row[members] = space.add(raw)
            self.slot_space[members] = s

    def _stale(self, slot: int, reason: str) -> None:
        self.slot_stale[slot] = reason
        self.stale[reason] = self.stale.get(reason, 0) + 1

    def accepts(self, slot: int, polarity: str | None, category: str | None) -> bool:
        """Whether the preference of ``slot`` passes the filters."""
        return (polarity is None or self.slot_pol[slot] == _POLARITY_CODES.get(polarity, -2)) and (
            category is None or self.slot_cat[slot] == self._cat_codes.get(category, -2)
        )

    def positions(self, polarity: str | None, category: str | None) -> np.ndarray | None:
        """List positions passing the filters, ascending; ``None`` when unfiltered."""
        if polarity is None and category is None:
            return None
        mask = np.ones(len(self.pos_slot), dtype=bool)
        if polarity is not None:
            mask &= self.slot_pol[self.pos_slot] == _POLARITY_CODES.get(polarity, -2)
        if category is not None:
            mask &= self.slot_cat[self.pos_slot] == self._cat_codes.get(category, -2)
        return np.flatnonzero(mask)

    def pool(self, polarity: str | None, category: str | None) -> PoolData:
        """The preferences passing the filters, with their derived data (cached, and kept
        up to date by :meth:`update`)."""
        key = (polarity, category)
        found = self._pools.get(key)
        if found is not None:
            self._pools.move_to_end(key)
            return found
        made = PoolData(self, polarity, category)
        self._pools[key] = made
        while len(self._pools) > self.MAX_FILTERS:
            self._pools.popitem(last=False)
        return made


class PoolData:
    """One filtered pool of a :class:`ListData`: members, recency ranks, lexical indexes.

    Per vector space ``s``: ``sem_pos[s]`` (pool positions of its members) and
    ``sem_rows[s]`` (their rows in the space's matrix). Per set of spaces the semantic
    channel ranked (``without``) a BM25 index over the other members, keyed by slot and
    updated as the list changes.
    """

    __slots__ = (
        "_lexical", "category", "members", "polarity", "recency", "sem_pos", "sem_rows", "slots",
    )  # fmt: skip

    def __init__(self, data: ListData, polarity: str | None, category: str | None) -> None:
        self.polarity = polarity
        self.category = category
        self.members: Sequence[Preference] = ()
        self._lexical: dict[tuple[int, ...] | None, tuple[np.ndarray, np.ndarray, BM25Index]] = {}
        self.refresh(data, [], [])

    def rebind(self, data: ListData) -> None:
        """Follow a new list object holding the very same preferences."""
        if self.polarity is None and self.category is None:
            self.members = data.prefs

    def refresh(self, data: ListData, removed: list[int], added: list[int]) -> None:
        """Re-derive the pool after the list changed: ``removed`` slots left it, ``added``
        slots arrived (still described in ``data``'s slot arrays)."""
        idx = data.positions(self.polarity, self.category)
        if idx is None:
            self.members = data.prefs
            slots = data.pos_slot
        else:
            self.members = [data.prefs[i] for i in idx.tolist()]
            slots = data.pos_slot[idx]
        self.slots = slots
        n = len(slots)
        self.recency = np.empty(n, dtype=np.int32)
        order = np.argsort(-data.slot_stamp[slots], kind="stable")
        self.recency[order] = np.arange(1, n + 1, dtype=np.int32)
        space_of = data.slot_space[slots]
        self.sem_pos: list[np.ndarray] = []
        self.sem_rows: list[np.ndarray] = []
        for s in range(len(data.spaces)):
            pos = np.flatnonzero(space_of == s)
            self.sem_pos.append(pos)
            self.sem_rows.append(data.slot_row[slots[pos]])
        for without, (_, _, index) in list(self._lexical.items()):
            for slot in removed:
                index.remove(slot)
            skip = set(without or ())
            for slot in added:
                if data.slot_space[slot] not in skip and data.accepts(
                    slot, self.polarity, self.category
                ):
                    index.add(slot, lexical_text(held(data, slot)))
            self._lexical[without] = (*self._lexical_positions(without), index)

    def _lexical_positions(self, without: tuple[int, ...] | None) -> tuple[np.ndarray, np.ndarray]:
        mask = np.ones(len(self.slots), dtype=bool)
        for s in without or ():
            mask[self.sem_pos[s]] = False
        idx = np.flatnonzero(mask)
        return idx, self.slots[idx]

    def lexical(self, without: tuple[int, ...] | None) -> tuple[np.ndarray, np.ndarray, BM25Index]:
        """Pool positions, their slots, and a BM25 index (by slot) over them: all
        (``None``), or those outside the vector spaces ``without`` (the ones the semantic
        channel ranks for this query)."""
        found = self._lexical.get(without)
        if found is None:
            idx, slots = self._lexical_positions(without)
            index = BM25Index()
            for i, slot in zip(idx.tolist(), slots.tolist(), strict=True):
                index.add(slot, lexical_text(self.members[i]))
            found = (idx, slots, index)
            self._lexical[without] = found
        return found


def held(data: ListData, slot: int) -> Preference:
    pref = data.slot_pref[slot]
    assert pref is not None
    return pref


def lexical_text(pref: Preference) -> str:
    return " ".join([pref.content, *pref.keywords]) if pref.keywords else pref.content


__all__ = ["ListData", "PoolData", "held", "lexical_text"]

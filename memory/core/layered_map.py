"""A mapping whose copy costs what changed since the last flatten, not its size.

The gate plans every write against a copy of the user's active set (each candidate of a
batch sees the ones before it) and the client keeps the committed state as another copy
(:func:`~.ops.apply_ops`), while the snapshot it was planned on must stay unchanged. With
plain dicts each copy is O(n): at 10,000 preferences two copies of four indexes were a
quarter of a warm write (measured). A :class:`LayeredMap` shares a read-only *base* dict
between its copies and keeps its own changes in a small *top* dict; a copy copies only the
top. When the top grows past :func:`flatten_threshold` it is folded into a new base
(O(n), once every many writes), so a copy costs O(√n) at worst and the amortised cost of
a write stays far below one O(n) copy.

A map that has never been copied owns its base and writes into it directly, so building
one from n records is plain dict speed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from math import isqrt
from typing import Generic, TypeVar, cast

K = TypeVar("K")
V = TypeVar("V")

_GONE = object()
"""A key deleted in the top that the base still holds."""
_MISSING = object()

MIN_FLATTEN = 64
"""Fewest top entries that trigger a flatten (a small map flattens cheaply anyway)."""


def flatten_threshold(base_size: int) -> int:
    """Top entries after which the top is folded into a new base.

    ``4·√n`` (at least :data:`MIN_FLATTEN`) balances the two costs: a copy copies at most
    this many entries, and a flatten (n entries) happens at most once every this many
    changes, so each change pays about ``√n / 4`` for flattening: the optimum of
    ``t + n/t`` is ``t = √n``; the factor 4 favours the copies, which happen twice a write.
    """
    return max(MIN_FLATTEN, 4 * isqrt(base_size))


class LayeredMap(Mapping[K, V], Generic[K, V]):
    """A ``Mapping`` with cheap copies (:meth:`copy`) and in-place :meth:`set` / :meth:`delete`.

    Copies are independent: changing one never changes another. Iteration yields the
    base's keys that the top does not override, then the top's; order is not insertion
    order and callers must not rely on it (sort when order matters).

    Args:
        items: Initial contents (copied).
    """

    __slots__ = ("_base", "_len", "_owns_base", "_top")

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        self._base: dict[K, V] = dict(items or {})
        self._top: dict[K, object] = {}
        self._len = len(self._base)
        self._owns_base = True

    def copy(self) -> LayeredMap[K, V]:
        """An independent copy, in O(changes since the last flatten)."""
        other: LayeredMap[K, V] = LayeredMap.__new__(LayeredMap)
        other._base = self._base
        other._top = dict(self._top)
        other._len = self._len
        other._owns_base = self._owns_base = False
        return other

    def __getitem__(self, key: K) -> V:
        value = self._top.get(key, _MISSING)
        if value is _MISSING:
            return self._base[key]
        if value is _GONE:
            raise KeyError(key)
        return cast(V, value)

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        """The value of ``key``, or ``default``."""
        value = self._top.get(key, _MISSING)
        if value is _MISSING:
            return self._base.get(key, default)
        return default if value is _GONE else cast(V, value)

    def __contains__(self, key: object) -> bool:
        value = self._top.get(key, _MISSING)  # type: ignore[call-overload, arg-type]
        if value is _MISSING:
            return key in self._base
        return value is not _GONE

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[K]:
        top = self._top
        for key in self._base:
            if key not in top:
                yield key
        for key, value in top.items():
            if value is not _GONE:
                yield key

    def set(self, key: K, value: V) -> None:
        """Insert or replace ``key``."""
        if key not in self:
            self._len += 1
        if self._owns_base:
            self._base[key] = value
            return
        self._top[key] = value
        self._maybe_flatten()

    def delete(self, key: K) -> None:
        """Remove ``key`` (no-op when absent)."""
        if key not in self:
            return
        self._len -= 1
        if self._owns_base:
            del self._base[key]
        elif key in self._base:
            self._top[key] = _GONE
            self._maybe_flatten()
        else:
            del self._top[key]

    def _maybe_flatten(self) -> None:
        if len(self._top) <= flatten_threshold(len(self._base)):
            return
        base = dict(self._base)
        for key, value in self._top.items():
            if value is _GONE:
                base.pop(key, None)
            else:
                base[key] = cast(V, value)
        self._base, self._top, self._owns_base = base, {}, True

    def __repr__(self) -> str:
        return f"LayeredMap({dict(self.items())!r})"


__all__ = ["MIN_FLATTEN", "LayeredMap", "flatten_threshold"]

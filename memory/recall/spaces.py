"""The vectors of one preference list that one embedder can score (recall's matrix):
:class:`VectorSpace` for one model, :class:`FusedSpace` for a fused one (one
:class:`VectorSpace` per part, rows in step)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np

from ..embeddings import Embedder, is_fused, l2_normalise, zscore_fusion
from .relevance import generic_prior


class VectorSpace:
    """The vectors of one list that one embedder can score, in growable chunks of rows.

    Rows are handed out by :meth:`add` and returned by :meth:`free`; a freed row is reused by
    a later add, and :meth:`compact` closes the gaps once they pass a quarter of the rows in
    use. The matrix grows by appending a chunk of at least a quarter of its rows, so growing
    never copies the rows already stored (a copy of 10k × 512 rows measured 100 ms on a
    loaded 2-core machine). A row's vector is normalised on its own (``l2_normalise`` is
    row-wise), so a row holds the same bits whichever batch, order or chunk it arrived in.

    Attributes:
        embedder: Embeds the query in this space.
        chunks: ``float32[size, dim]`` unit vectors, rows numbered across the chunks in
            order; rows ``≥ high`` and freed rows are unused.
        high: One more than the highest row in use.
    """

    __slots__ = ("_free", "_prior", "_starts", "chunks", "embedder", "high")

    COMPACT_MIN = 64
    """Freed rows always tolerated before :meth:`compact` (a quarter of :attr:`high` above)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.chunks: list[np.ndarray] = []
        self._starts: list[int] = []
        self.high = 0
        self._free: list[int] = []
        # (prior of rows < capacity,) once computed; (None,) when the space has none
        self._prior: tuple[np.ndarray | None] | None = None

    @property
    def live(self) -> int:
        """Rows in use."""
        return self.high - len(self._free)

    @property
    def capacity(self) -> int:
        """Rows allocated."""
        return self._starts[-1] + len(self.chunks[-1]) if self.chunks else 0

    def add(self, raw: np.ndarray) -> np.ndarray:
        """Store ``raw`` (``float32[m, dim]``, not normalised); returns their rows."""
        m = len(raw)
        reuse = [self._free.pop() for _ in range(min(m, len(self._free)))]
        fresh = m - len(reuse)
        unit = l2_normalise(raw)
        rows = np.asarray(reuse + list(range(self.high, self.high + fresh)), dtype=np.intp)
        cap = self.capacity
        whole = False
        if self.high + fresh > cap:
            size = max(self.high + fresh - cap, cap // 4, 16)
            whole = not reuse and self.high == cap and size == m
            # a whole new chunk is kept as is, not copied
            self.chunks.append(unit if whole else np.zeros((size, unit.shape[1]), np.float32))
            self._starts.append(cap)
            if self._prior is not None and self._prior[0] is not None:
                self._prior = (np.concatenate([self._prior[0], np.zeros(size)]),)
        self.high += fresh
        for j, row in enumerate([] if whole else rows.tolist()):
            c = bisect.bisect_right(self._starts, row) - 1
            self.chunks[c][row - self._starts[c]] = unit[j]
        if self._prior is not None and self._prior[0] is not None:
            self._prior[0][rows] = generic_prior(self.embedder, unit)
        return rows

    def free(self, rows: Sequence[int]) -> None:
        """Return rows to the free list."""
        self._free.extend(rows)

    def needs_compaction(self) -> bool:
        """Whether freed rows pass a quarter of :attr:`high` and :attr:`COMPACT_MIN`."""
        return len(self._free) > max(self.COMPACT_MIN, self.high // 4)

    def compact(self) -> np.ndarray:
        """Move the rows in use into one chunk, in row order.

        Returns:
            ``intp[old high]``: each old row's new row (−1 for a freed one).
        """
        keep = np.ones(self.high, dtype=bool)
        keep[self._free] = False
        moved = np.full(self.high, -1, dtype=np.intp)
        live = np.flatnonzero(keep)
        moved[live] = np.arange(len(live))
        whole = np.concatenate(self.chunks) if len(self.chunks) > 1 else self.chunks[0]
        self.chunks = [np.ascontiguousarray(whole[live])]
        self._starts = [0]
        if self._prior is not None and self._prior[0] is not None:
            self._prior = (self._prior[0][live],)
        self.high = len(live)
        self._free = []
        return moved

    def prior(self) -> np.ndarray | None:
        """:func:`generic_prior` of every row (``float64[capacity]``; computed on first use,
        then kept up to date by :meth:`add`); ``None`` for an embedder without a
        ``generic_penalty``."""
        if self._prior is None:
            parts = [generic_prior(self.embedder, c) for c in self.chunks]
            if any(p is None for p in parts):
                self._prior = (None,)
            else:
                self._prior = (np.concatenate([p for p in parts if p is not None] or
                                              [np.zeros(0)]),)  # fmt: skip
        return self._prior[0]

    def cosines(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """``float32[len(rows)]`` cosines of rows ``rows`` with a unit query vector.

        Every row is scored and the wanted ones gathered afterwards: a row's dot product
        does not depend on the other rows, and gathering 10k scores is cheaper than
        gathering a 10k × 512 matrix."""
        # einsum, not `@`: a matrix-vector product is memory-bound, and OpenBLAS' threaded
        # sgemv measured 4x slower at 10k x 384 on 2 cores (7.8 vs 1.8 ms) and slowed the
        # next query embedding (threads spinning against the model's).
        parts = [np.einsum("ij,j->i", c, query) for c in self.chunks]
        return (parts[0] if len(parts) == 1 else np.concatenate(parts))[rows]

    def scores(
        self, query: np.ndarray, rows: np.ndarray, corrected: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """``(cosine, label score, ranking score, corrected)`` of rows ``rows``: the
        cosine, and the cosine less the generic-request prior (when ``corrected`` and the
        model has one; ``corrected`` comes back True then) as both scores."""
        sims = self.cosines(query, rows)
        prior = self.prior() if corrected else None
        label = sims.astype(np.float64)
        if prior is not None:
            label = label - prior[rows]
        return sims, label, label, prior is not None


class FusedSpace:
    """The vectors of one list in a fused space (:class:`~.embeddings.FusedEmbedder`): one
    :class:`VectorSpace` per part, each a contiguous matrix of that part's unit blocks.

    The parts take every :meth:`add`, :meth:`free` and :meth:`compact` in step, so a row
    number means the same preference in each. Scoring reads each part's matrix whole (two
    contiguous products: ≈1.0 ms at 10k × (512 + 384), against ≈3.1 ms for strided column
    slices of one 896-wide matrix). A part's block is zero on a text it could not read
    (:class:`~.embeddings.FusedEmbedder`); its unit row stays zero, so its cosine there is
    exactly 0.

    Attributes:
        embedder: The fused embedder (embeds the query).
        parts: One :class:`VectorSpace` per part, the primary first.
        blocks: The parts' widths.
    """

    __slots__ = ("blocks", "embedder", "parts")

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.blocks: tuple[int, ...] = tuple(getattr(embedder, "blocks", ()))
        self.parts = [VectorSpace(p) for p in getattr(embedder, "parts", ())]

    def add(self, raw: np.ndarray) -> np.ndarray:
        """Store ``raw`` (``float32[m, dim]`` fused rows); returns their rows."""
        start, rows = 0, None
        for part, width in zip(self.parts, self.blocks, strict=True):
            got = part.add(np.ascontiguousarray(raw[:, start : start + width]))
            if rows is not None and not np.array_equal(got, rows):
                raise AssertionError("the parts of a fused space fell out of step")
            rows, start = got, start + width
        assert rows is not None
        return rows

    def free(self, rows: Sequence[int]) -> None:
        """Return rows to every part's free list."""
        for part in self.parts:
            part.free(rows)

    def needs_compaction(self) -> bool:
        """:meth:`VectorSpace.needs_compaction` (the parts are in step)."""
        return self.parts[0].needs_compaction()

    def compact(self) -> np.ndarray:
        """Compact every part; returns each old row's new row (the same in every part)."""
        moved = [part.compact() for part in self.parts]
        return moved[0]

    def scores(
        self, query: np.ndarray, rows: np.ndarray, corrected: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """``(cosine, label score, ranking score, corrected)`` of rows ``rows``.

        The cosine and label score are the primary part's (:meth:`VectorSpace.scores`);
        the ranking score sums the parts' z-scores over those rows, the primary's label
        score standing for its cosine, each other part standardised over the rows it read
        (:func:`~.embeddings.fused.zscore_fusion`). A part whose query block is zero (it
        cannot read the request) adds nothing."""
        blocks = np.split(np.asarray(query, dtype=np.float32), np.cumsum(self.blocks)[:-1])
        units = [l2_normalise(b[None, :])[0] for b in blocks]  # a zero block stays zero
        sims, label, _, corrected = self.parts[0].scores(units[0], rows, corrected)
        others = [part.cosines(q, rows) for part, q in zip(self.parts[1:], units[1:], strict=True)]
        ranked = np.vstack([label, *others])
        read = np.vstack([np.ones(len(label), bool), *(c != 0 for c in others)])
        return sims, label, zscore_fusion(ranked, read), corrected


def make_space(embedder: Embedder) -> VectorSpace | FusedSpace:
    """The matrix holder for ``embedder``'s vectors: fused or single."""
    return FusedSpace(embedder) if is_fused(embedder) else VectorSpace(embedder)


__all__ = ["FusedSpace", "VectorSpace", "make_space"]

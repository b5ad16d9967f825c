"""The memory check-up: a background job that flags semantic contradictions and near-duplicates.

The gate resolves contradictions on the hot path by keyword arithmetic, so "likes leather
jackets" and "avoids animal products" — no shared word — both stay active (DESIGN.md §6).
The check-up looks for such pairs off the hot path and **flags** them for the user to confirm;
it never deletes a preference. Signals:

* ``embedding``: cosine of the two preferences' vectors (content plus category, as the gate
  embeds them). Opposite polarities at or above the contradiction floor are a possible
  contradiction; same polarities at or above the duplicate floor a near-duplicate. Each
  floor is the embedder's own (``contradiction_cosine`` / ``duplicate_cosine``, measured per
  model by ``python bench/thresholds.py``: Youden's J on hand-written pairs; the default
  USE multilingual 0.60 / 0.75, all-MiniLM-L6-v2 0.60 / 0.80), unless
  ``Settings.contradiction_cosine`` / ``Settings.duplicate_cosine`` override it. With USE:
  "likes jazz music" / "dislikes jazz" 0.86, "prefers cheap flights" / "avoids budget
  airlines" 0.69 (contradictions), "likes apple" / "dislikes Apple products" 0.69 (not one,
  and still flagged: the pairs overlap); "likes cotton t-shirts" / "loves cotton shirts" 0.91
  (duplicate), "loves wool sweaters" / "loves cotton shirts" 0.75 (not one, at the floor).
  The planted "likes leather jackets" / "avoids animal products" shares no subject word and
  scores low with every model measured (all-MiniLM-L6-v2 0.2–0.3), so sentence embeddings
  alone cannot find it without flooding the user with false flags; hence
* ``lexicon``: a tiny curated concept lexicon (:data:`CONCEPTS`: leather, wool, silk … →
  animal products; coffee, espresso … → caffeine). A preference about a member and an
  opposite-polarity preference naming its concept are a possible contradiction.
* ``model``: with a configured model (a :class:`ContradictionJudge`), the opposite-polarity
  pairs (most similar first, at most ``max_model_pairs``) are put to it, and the pairs it
  judges contradictory are flagged too.

Cost: every pair is covered, but only the pairs that can be flagged are examined one by one
(:func:`find_issues`): cosines by one matrix product per block of rows, lexicon pairs by
shared concept: 2,000 preferences take 0.5 s, not 38–71 s (issue 12).

Jobs: :func:`checkup_job` takes the user's lease (``SET key token NX PX``) so one worker at a
time checks a user, retries a failing check with exponential backoff, renews the lease before
each try and, from a :class:`LeaseKeeper`, every third of its TTL during a try (a long try
keeps the user; one that lost its lease stops before writing), and gives the lease back when
done. A crashed worker's lease simply expires
after ``Settings.checkup_lease_ms``; :func:`run_due_checkups` works from a schedule
(``penchant:checkup:due``) from which a user is removed only after a successful check, so
another worker picks the stranded user up on its next run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import numpy as np

from .embeddings import embedding_text, from_bytes, threshold
from .errors import PenchantError
from .flags import Flag, Signal, flag_id
from .keys import UserKeys
from .normalize import singular
from .records import Preference, utcnow

if TYPE_CHECKING:
    from .client import AsyncMemory, BaseMemory, Memory

logger = logging.getLogger(__name__)

CONCEPTS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "animal products": (
        ("animal product", "animal-derived", "animal derived", "animal-based"),
        frozenset(
            """leather suede wool cashmere silk fur down feather meat beef pork chicken lamb
            steak bacon ham fish seafood shrimp sushi dairy milk cheese butter yogurt cream
            egg honey gelatin""".split()
        ),
    ),
    "meat": (
        ("meat",),
        frozenset("beef pork chicken lamb steak bacon ham sausage turkey veal".split()),
    ),
    "dairy": (("dairy",), frozenset("milk cheese butter yogurt cream".split())),
    "caffeine": (
        ("caffeine", "caffeinated"),
        frozenset("coffee espresso latte cappuccino matcha cola energy-drink".split()),
    ),
    "synthetic fabrics": (
        ("synthetic fabric", "synthetic material", "synthetics", "synthetic"),
        frozenset("polyester nylon acrylic spandex elastane lycra microfiber".split()),
    ),
    "alcohol": (
        ("alcohol", "alcoholic"),
        frozenset("beer wine whisky whiskey vodka gin rum champagne cocktail sake".split()),
    ),
}
"""Concept → (phrases that name it, words that are instances of it). Deliberately tiny: a
second signal beside the embedding, for the commonest "no shared word" contradictions."""

_WORD_RE = re.compile(r"[a-z][a-z-]*")


@dataclass(frozen=True)
class PairVerdict:
    """A model's judgement of one pair of preferences.

    Attributes:
        first: Id of the first preference.
        second: Id of the second.
        contradiction: Whether both cannot hold at once.
        reason: One line.
    """

    first: str
    second: str
    contradiction: bool
    reason: str = ""


@runtime_checkable
class ContradictionJudge(Protocol):
    """A model that judges whether pairs of preferences contradict each other."""

    def judge(self, pairs: Sequence[tuple[Preference, Preference]]) -> list[PairVerdict]:
        """One verdict per pair it has an opinion on (pairs it omits are not flagged)."""
        ...


@dataclass
class CheckupReport:
    """What one check-up found.

    Attributes:
        user_id: Whose memory.
        flags: Every open flag after the check-up.
        new: Flags this check-up added.
        pairs: Pairs of preferences examined.
    """

    user_id: str
    flags: list[Flag] = field(default_factory=list)
    new: list[Flag] = field(default_factory=list)
    pairs: int = 0

    def public_dict(self) -> dict[str, Any]:
        """The CLI contract: ``{"flags": [...], "new": [ids], "pairs": N}``."""
        return {
            "flags": [f.public_dict() for f in self.flags],
            "new": [f.id for f in self.new],
            "pairs": self.pairs,
        }


# -- signals --------------------------------------------------------------------------------------


def _words(pref: Preference) -> set[str]:
    text = " ".join([pref.content, *pref.keywords]).lower()
    return {singular(w) for w in _WORD_RE.findall(text)}


def _phrase_text(pref: Preference) -> str:
    return " " + " ".join(_WORD_RE.findall(" ".join([pref.content, *pref.keywords]).lower())) + " "


def concepts_named(pref: Preference) -> set[str]:
    """Concepts of :data:`CONCEPTS` that a preference names ("avoids animal products")."""
    text = _phrase_text(pref)
    return {
        concept
        for concept, (phrases, _members) in CONCEPTS.items()
        if any(f" {phrase}" in text for phrase in phrases)
    }


def concepts_instanced(pref: Preference) -> set[str]:
    """Concepts a preference is about an instance of ("likes leather jackets" → animal products)."""
    words = _words(pref)
    return {concept for concept, (_p, members) in CONCEPTS.items() if words & members}


def lexicon_contradiction(a: Preference, b: Preference) -> str | None:
    """The concept through which two opposite-polarity preferences clash, or ``None``."""
    if a.polarity == b.polarity:
        return None
    return _clash(
        (concepts_instanced(a), concepts_named(a)), (concepts_instanced(b), concepts_named(b))
    )


_Concepts = tuple[set[str], set[str]]
"""A preference's ``(concepts it is an instance of, concepts it names)``."""


def _clash(a: _Concepts, b: _Concepts) -> str | None:
    """:func:`lexicon_contradiction` on precomputed concepts (polarities already opposite)."""
    for (instanced, named_by_instance), (_i, named) in ((a, b), (b, a)):
        shared = instanced & named
        shared -= named_by_instance  # "avoids animal products but loves wool": explicit
        if shared:
            return sorted(shared)[0]
    return None


EMBED_BATCH = 256
"""Preferences embedded per call when their stored vectors are missing or from another model
(the job's lease is checked between calls)."""


def preference_vectors(
    memory: BaseMemory,
    prefs: Sequence[Preference],
    *,
    checkpoint: Callable[[], None] | None = None,
) -> np.ndarray | None:
    """Unit vectors of ``prefs`` in the current embedder's space (``float32[n, dim]``).

    Stored vectors are used when they come from the same model; the others are embedded
    (content plus category, as the gate does), :data:`EMBED_BATCH` at a time with
    ``checkpoint`` called before each batch. ``None`` without an embedder.
    """
    embedder = memory.embedder
    if embedder is None or not prefs:
        return None
    rows: list[np.ndarray | None] = []
    for pref in prefs:
        same = pref.embedding and pref.embedding_model == embedder.name
        rows.append(from_bytes(pref.embedding, embedder.dim) if same and pref.embedding else None)
    missing = [i for i, row in enumerate(rows) if row is None]
    for start in range(0, len(missing), EMBED_BATCH):
        if checkpoint is not None:
            checkpoint()
        batch = missing[start : start + EMBED_BATCH]
        fresh = embedder.embed([embedding_text(prefs[i].content, prefs[i].category)
                                for i in batch])
        for i, vector in zip(batch, fresh, strict=True):
            rows[i] = np.asarray(vector, dtype=np.float32)
    matrix = np.vstack([r for r in rows if r is not None]).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


# -- the check -----------------------------------------------------------------------------------


def similarity_floors(memory: BaseMemory) -> tuple[float, float]:
    """``(contradiction, duplicate)`` cosine floors: the settings' overrides, else the
    embedder's measured ones (:func:`~penchant.memory.embeddings.threshold`)."""
    settings = memory.settings
    contradiction = settings.contradiction_cosine
    duplicate = settings.duplicate_cosine
    if contradiction is None:
        contradiction = threshold(memory.embedder, "contradiction_cosine")
    if duplicate is None:
        duplicate = threshold(memory.embedder, "duplicate_cosine")
    return float(contradiction), float(duplicate)


@dataclass
class _Finding:
    kind: Literal["contradiction", "duplicate"]
    a: Preference
    b: Preference
    score: float
    signals: list[Signal] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def find_issues(
    memory: BaseMemory,
    prefs: Sequence[Preference],
    *,
    judge: ContradictionJudge | None = None,
    max_model_pairs: int = 30,
    checkpoint: Callable[[], None] | None = None,
) -> tuple[list[Flag], int]:
    """Find possible contradictions and near-duplicates among one user's preferences.

    Every pair is covered, but only pairs that can be flagged are examined one by one
    (blocking): the pairs whose cosine reaches a floor, found by one matrix product per block
    of rows (:func:`similar_pairs`), and the pairs that share a lexicon concept
    (:func:`lexicon_pairs`). The result is exactly what comparing all pairs gives, in the
    same order, at O(n²·dim) vectorised work instead of O(n²) Python steps (2,000
    preferences of both polarities, 512-d vectors: 38 s pair by pair, 0.47 s blocked, on the
    same 2-core machine; issue 12 measured 71 s).

    Args:
        memory: For the embedder and the thresholds in its settings.
        prefs: The user's active preferences (one user).
        judge: Optional model asked about the opposite-polarity pairs.
        max_model_pairs: Most pairs put to the model, most similar first.
        checkpoint: Called between blocks of work; raises to stop a check-up that must not
            go on (the job's lease was lost).

    Returns:
        ``(flags, pairs covered)``: pairs covered is ``n·(n−1)/2``.

    Raises:
        PenchantError: The embedder failed; exceptions of ``judge`` and ``checkpoint``
            pass through.
    """
    tick = checkpoint or _no_checkpoint
    contradiction_floor, duplicate_floor = similarity_floors(memory)
    vectors = preference_vectors(memory, prefs, checkpoint=tick)
    like = np.array([p.polarity == "like" for p in prefs], dtype=bool)
    concepts = [(concepts_instanced(p), concepts_named(p)) for p in prefs]
    candidates = lexicon_pairs(prefs, concepts)
    if vectors is not None:
        candidates |= similar_pairs(
            vectors, like, contradiction_floor, duplicate_floor, checkpoint=tick
        )
    findings: dict[tuple[str, str], _Finding] = {}
    for i, j in sorted(candidates):  # the order all pairs were compared in
        a, b = prefs[i], prefs[j]
        score = float(vectors[i] @ vectors[j]) if vectors is not None else 0.0
        key = (a.id, b.id)
        if a.polarity != b.polarity:
            if vectors is not None and score >= contradiction_floor:
                _note(findings, key, "contradiction", a, b, score, "embedding",
                      f"similar meaning (cosine {score:.2f}) but opposite polarity")
            concept = _clash(concepts[i], concepts[j])
            if concept:
                _note(findings, key, "contradiction", a, b, score, "lexicon",
                      f"one is about {concept}, the other about an instance of it")
        elif vectors is not None and score >= duplicate_floor:
            _note(findings, key, "duplicate", a, b, score, "embedding",
                  f"nearly the same meaning (cosine {score:.2f})")
    if judge is not None:
        tick()
        _ask_judge(judge, prefs, vectors, like, max_model_pairs, findings, tick)
    n = len(prefs)
    return [_flag(f) for f in findings.values()], n * (n - 1) // 2


def _no_checkpoint() -> None:
    return None


ROW_BLOCK_CELLS = 1 << 22
"""Cells of one block of the cosine matrix (4 Mi float32 = 16 MiB): rows per block are this
divided by the number of preferences."""
SCORE_MARGIN = 1e-3
"""Cosines from the blocked matrix product may differ from a pair's own dot product in the
last float32 bits (another summation order, about 1e-6 for unit vectors); pairs are
selected this far below a floor and then decided on their own dot product."""


def _row_blocks(
    vectors: np.ndarray, checkpoint: Callable[[], None]
) -> Iterator[tuple[int, np.ndarray]]:
    """``(first row, cosines of rows r… against columns r…)`` per block, upper triangle
    only (entries at or below the diagonal are ``-inf``)."""
    n = len(vectors)
    rows = max(1, ROW_BLOCK_CELLS // max(1, n))
    for r0 in range(0, n, rows):
        checkpoint()
        r1 = min(n, r0 + rows)
        block = vectors[r0:r1] @ vectors[r0:].T  # float32[r1-r0, n-r0]
        block[np.tril_indices(r1 - r0, 0, block.shape[1])] = -np.inf
        yield r0, block


def similar_pairs(
    vectors: np.ndarray,
    like: np.ndarray,
    contradiction_floor: float,
    duplicate_floor: float,
    *,
    checkpoint: Callable[[], None] = _no_checkpoint,
) -> set[tuple[int, int]]:
    """Index pairs ``(i, j)``, ``i < j``, whose cosine may reach its floor: the contradiction
    floor for opposite polarities, the duplicate floor for the same (each less
    :data:`SCORE_MARGIN`; the caller decides on the pair's own cosine).

    Args:
        vectors: ``float32[n, dim]`` unit vectors.
        like: ``bool[n]``, whether each preference is a like.
        contradiction_floor: Cosine floor of opposite-polarity pairs.
        duplicate_floor: Cosine floor of same-polarity pairs.
        checkpoint: Called before each block of rows.
    """
    found: set[tuple[int, int]] = set()
    for r0, block in _row_blocks(vectors, checkpoint):
        same = like[r0 : r0 + len(block), None] == like[None, r0:]
        floor = np.where(same, duplicate_floor, contradiction_floor) - SCORE_MARGIN
        rows, cols = np.nonzero(block >= floor)
        found.update(zip((rows + r0).tolist(), (cols + r0).tolist(), strict=True))
    return found


def lexicon_pairs(
    prefs: Sequence[Preference], concepts: Sequence[_Concepts]
) -> set[tuple[int, int]]:
    """Index pairs ``(i, j)``, ``i < j``, of opposite polarity where one is about an instance
    of a concept the other names: the only pairs the lexicon signal can flag.

    Args:
        prefs: The preferences.
        concepts: ``(concepts_instanced(p), concepts_named(p))`` of each, in order.
    """
    instances: dict[str, list[int]] = {}
    naming: dict[str, list[int]] = {}
    for i, (instanced, named) in enumerate(concepts):
        for concept in instanced:
            instances.setdefault(concept, []).append(i)
        for concept in named:
            naming.setdefault(concept, []).append(i)
    found: set[tuple[int, int]] = set()
    for concept, generals in naming.items():
        for i in instances.get(concept, ()):
            for g in generals:
                if i != g and prefs[i].polarity != prefs[g].polarity:
                    found.add((min(i, g), max(i, g)))
    return found


def top_opposite_pairs(
    vectors: np.ndarray | None,
    like: np.ndarray,
    k: int,
    *,
    checkpoint: Callable[[], None] = _no_checkpoint,
) -> list[tuple[int, int]]:
    """The ``k`` opposite-polarity pairs ``(i, j)``, ``i < j``, with the highest cosine, most
    similar first, ties in index order (as a stable sort of all pairs would give); without
    vectors every cosine is 0, so the first ``k`` in index order.
    """
    n = len(like)
    if k <= 0:
        return []
    if vectors is None:
        first: list[tuple[int, int]] = []
        for i in range(n):
            opposite = np.nonzero(like[i + 1 :] != like[i])[0] + i + 1
            first += [(i, int(j)) for j in opposite[: k - len(first)]]
            if len(first) >= k:
                break
        return first
    kept_scores: list[np.ndarray] = []
    kept_pairs: list[np.ndarray] = []
    for r0, block in _row_blocks(vectors, checkpoint):
        block[like[r0 : r0 + len(block), None] == like[None, r0:]] = -np.inf
        flat = block.ravel()
        finite = int(np.count_nonzero(np.isfinite(flat)))
        if not finite:
            continue
        at = flat.size - min(k, finite)  # the k-th largest cosine of this block
        kth = np.partition(flat, at)[at]
        rows, cols = np.nonzero(block >= kth - SCORE_MARGIN)
        kept_scores.append(block[rows, cols])
        kept_pairs.append(np.stack([rows + r0, cols + r0], axis=1))
    if not kept_scores:
        return []
    scores, pairs = np.concatenate(kept_scores), np.concatenate(kept_pairs)
    floor = np.sort(scores)[::-1][min(k, len(scores)) - 1] - SCORE_MARGIN
    chosen = [(int(i), int(j)) for i, j in pairs[scores >= floor]]
    exact = {(i, j): float(vectors[i] @ vectors[j]) for i, j in chosen}
    return sorted(exact, key=lambda ij: (-exact[ij], ij))[:k]


def _ask_judge(
    judge: ContradictionJudge,
    prefs: Sequence[Preference],
    vectors: np.ndarray | None,
    like: np.ndarray,
    max_model_pairs: int,
    findings: dict[tuple[str, str], _Finding],
    checkpoint: Callable[[], None],
) -> None:
    """Put the most similar opposite-polarity pairs to the model; note what it flags."""
    top = top_opposite_pairs(vectors, like, max_model_pairs, checkpoint=checkpoint)
    if not top:
        return
    by_pair: dict[tuple[str, str], tuple[float, Preference, Preference]] = {}
    for i, j in top:
        score = float(vectors[i] @ vectors[j]) if vectors is not None else 0.0
        by_pair[(prefs[i].id, prefs[j].id)] = (score, prefs[i], prefs[j])
    for verdict in judge.judge([(a, b) for _s, a, b in by_pair.values()]):
        hit = by_pair.get((verdict.first, verdict.second)) or by_pair.get(
            (verdict.second, verdict.first)
        )
        if hit and verdict.contradiction:
            s, a, b = hit
            _note(findings, (a.id, b.id), "contradiction", a, b, s, "model",
                  verdict.reason or "the model judged them contradictory")
    checkpoint()


def _note(
    findings: dict[tuple[str, str], _Finding],
    key: tuple[str, str],
    kind: Literal["contradiction", "duplicate"],
    a: Preference,
    b: Preference,
    score: float,
    signal: Signal,
    reason: str,
) -> None:
    found = findings.setdefault(key, _Finding(kind, a, b, score))
    if signal not in found.signals:
        found.signals.append(signal)
        found.reasons.append(reason)


def _flag(found: _Finding) -> Flag:
    ids = [found.a.id, found.b.id]
    return Flag(
        id=flag_id(found.kind, ids),
        user_id=found.a.user_id,
        kind=found.kind,
        preference_ids=ids,
        contents=[found.a.content, found.b.content],
        score=round(found.score, 4),
        signals=found.signals,
        reason="; ".join(found.reasons),
        created_at=utcnow(),
    )


def run_checkup(
    memory: Memory,
    user_id: str,
    *,
    judge: ContradictionJudge | None = None,
    checkpoint: Callable[[], None] | None = None,
) -> CheckupReport:
    """Check one user's memory now and store what it finds as flags (nothing is deleted).

    Flags whose preferences are no longer both active are removed; a flag found again keeps
    its first record. New flags are logged as ``flagged`` change events (``source =
    checkup``).

    Args:
        memory: The memory.
        user_id: Whose memory.
        judge: Optional model (see :func:`find_issues`).
        checkpoint: Called between blocks of work and before the flags are written; raises
            to stop (a job whose lease was lost writes nothing).

    Raises:
        InvalidInputError: Bad user id.
        StorageUnavailableError: Redis failed.
        PenchantError: The embedder failed; a failing ``judge``'s or ``checkpoint``'s
            exception passes through.
    """
    prefs = memory.preferences(user_id, with_embeddings=True)
    found, pairs = find_issues(memory, prefs, judge=judge, checkpoint=checkpoint)
    if checkpoint is not None:
        checkpoint()
    new = memory.write_flags(user_id, found)
    return CheckupReport(user_id=user_id, flags=memory.flags(user_id), new=new, pairs=pairs)


async def arun_checkup(
    memory: AsyncMemory,
    user_id: str,
    *,
    judge: ContradictionJudge | None = None,
    checkpoint: Callable[[], None] | None = None,
) -> CheckupReport:
    """:func:`run_checkup` over an :class:`~.client.AsyncMemory` (the comparison, CPU work
    and the judge's call, runs in a worker thread, and so does ``checkpoint``)."""
    prefs = await memory.preferences(user_id, with_embeddings=True)
    found, pairs = await asyncio.to_thread(
        find_issues, memory, prefs, judge=judge, checkpoint=checkpoint
    )
    if checkpoint is not None:
        checkpoint()
    new = await memory.write_flags(user_id, found)
    return CheckupReport(user_id=user_id, flags=await memory.flags(user_id), new=new,
                         pairs=pairs)


# -- jobs ----------------------------------------------------------------------------------------


@dataclass
class JobOutcome:
    """How one check-up job ended.

    Attributes:
        status: ``done``; ``busy`` (another worker holds the user's lease); ``failed``
            (every try failed; the user stays scheduled).
        attempts: Tries made.
        report: The check-up's report when done.
        error: The last error when failed.
    """

    user_id: str
    status: Literal["done", "busy", "failed"]
    attempts: int = 0
    report: CheckupReport | None = None
    error: str = ""


def checkup_job(
    memory: Memory,
    user_id: str,
    *,
    judge: ContradictionJudge | None = None,
    worker_id: str | None = None,
    lease_ms: int | None = None,
    attempts: int | None = None,
    backoff_seconds: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> JobOutcome:
    """Run one user's check-up under a lease, with retries (a schedulable job function).

    Args:
        memory: The memory.
        user_id: Whose memory.
        judge: Optional model (see :func:`find_issues`).
        worker_id: This worker's lease token; a fresh UUID when ``None``.
        lease_ms: Lease time; ``settings.checkup_lease_ms`` by default. Renewed before each
            try; a worker that dies loses it after this long.
        attempts: Tries; ``settings.checkup_attempts`` by default.
        backoff_seconds: First retry delay, doubled after each failure;
            ``settings.checkup_backoff_seconds`` by default.
        sleep: Waits between tries (injected by tests).

    Returns:
        ``done`` with the report, ``busy`` when another live worker holds the lease, or
        ``failed`` with the last error (logged; the job can be run again).
    """
    job = _Job.of(memory, user_id, worker_id, lease_ms, attempts, backoff_seconds)
    if not memory.acquire_lease(job.lease_key, job.token, job.lease_ms):
        return JobOutcome(user_id=user_id, status="busy")
    error = ""
    try:
        for attempt in range(1, job.tries + 1):
            if not memory.renew_lease(job.lease_key, job.token, job.lease_ms):
                return job.lost(attempt)
            try:
                with LeaseKeeper(job.renewal(memory), job.renew_every, job.limit) as keeper:
                    report = run_checkup(memory, user_id, judge=judge, checkpoint=keeper.check)
                return JobOutcome(user_id=user_id, status="done", attempts=attempt, report=report)
            except LeaseLostError:
                return job.lost(attempt + 1, during=True)
            except Exception as exc:  # any failure is retried; PenchantError or not
                error = job.failed(exc, attempt)
                if attempt < job.tries:
                    sleep(job.delay(attempt))
        return JobOutcome(user_id=user_id, status="failed", attempts=job.tries, error=error)
    finally:
        memory.release_lease(job.lease_key, job.token)


async def acheckup_job(
    memory: AsyncMemory,
    user_id: str,
    *,
    judge: ContradictionJudge | None = None,
    worker_id: str | None = None,
    lease_ms: int | None = None,
    attempts: int | None = None,
    backoff_seconds: float | None = None,
) -> JobOutcome:
    """:func:`checkup_job` over an :class:`~.client.AsyncMemory` (waits with
    :func:`asyncio.sleep`)."""
    job = _Job.of(memory, user_id, worker_id, lease_ms, attempts, backoff_seconds)
    if not await memory.acquire_lease(job.lease_key, job.token, job.lease_ms):
        return JobOutcome(user_id=user_id, status="busy")
    error = ""
    try:
        for attempt in range(1, job.tries + 1):
            if not await memory.renew_lease(job.lease_key, job.token, job.lease_ms):
                return job.lost(attempt)
            try:
                async with AsyncLeaseKeeper(job.arenewal(memory), job.renew_every,
                                            job.limit) as keeper:  # fmt: skip
                    report = await asyncio.wait_for(
                        arun_checkup(memory, user_id, judge=judge, checkpoint=keeper.check),
                        job.limit)  # a try stuck in its worker thread is given up on
                return JobOutcome(user_id=user_id, status="done", attempts=attempt, report=report)
            except TimeoutError:
                error = f"the try ran past checkup_try_seconds ({job.limit:.0f} s)"
                logger.error("check-up of %r: %s; the user is left for another run",
                             user_id, error)  # fmt: skip
                return JobOutcome(user_id=user_id, status="failed", attempts=attempt,
                                  error=error)  # fmt: skip
            except LeaseLostError:
                return job.lost(attempt + 1, during=True)
            except Exception as exc:  # any failure is retried; PenchantError or not
                error = job.failed(exc, attempt)
                if attempt < job.tries:
                    await asyncio.sleep(job.delay(attempt))
        return JobOutcome(user_id=user_id, status="failed", attempts=job.tries, error=error)
    finally:
        await memory.release_lease(job.lease_key, job.token)


class LeaseLostError(PenchantError):
    """The check-up's lease was taken by another worker (or expired) during a try."""


class LeaseKeeper:
    """Renews a check-up lease from a background thread while a try runs.

    A try can outlast the lease (a large store, a slow model or embedder), and a lease
    renewed only between tries would let a second worker take the user mid-run. The keeper
    renews every ``every_seconds``; once a renewal says the lease is not ours, :meth:`check`
    raises :class:`LeaseLostError`, which the check-up calls between blocks of work and
    before it writes. A renewal that fails on a Redis error is logged and tried again at the
    next tick (the lease still holds for the rest of its TTL).

    Args:
        renew: Extends the lease; ``False`` when it is no longer ours.
        every_seconds: Time between renewals.
    """

    def __init__(
        self, renew: Callable[[], bool], every_seconds: float, limit_seconds: float = math.inf
    ) -> None:
        self._renew = renew
        self._every = every_seconds
        self._deadline = time.monotonic() + limit_seconds
        self._lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="penchant-lease", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def check(self) -> None:
        """Raise :class:`LeaseLostError` once the lease was lost (thread-safe)."""
        if self._lost.is_set():
            raise LeaseLostError("the check-up lease was lost to another worker")

    def _overdue(self) -> bool:
        """Past the try's time limit: stop renewing, so that a try stuck for good (a model
        call that never returns) does not hold the user for ever (issue 19: a lease renewed
        27k times); :meth:`check` then stops the try at its next checkpoint."""
        if time.monotonic() < self._deadline:
            return False
        logger.error("check-up try ran past its time limit; its lease is no longer renewed")
        self._lost.set()
        return True

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            if self._overdue():
                return
            try:
                if not self._renew():
                    self._lost.set()
                    return
            except Exception as exc:  # a Redis hiccup: the lease still runs; retry next tick
                logger.warning("could not renew the check-up lease: %s", exc)


class AsyncLeaseKeeper(LeaseKeeper):
    """:class:`LeaseKeeper` as an asyncio task (``async with``); :meth:`check` stays
    callable from the worker thread the comparison runs in."""

    def __init__(
        self, renew: Callable[[], Awaitable[bool]], every_seconds: float,
        limit_seconds: float = math.inf,
    ) -> None:
        super().__init__(lambda: True, every_seconds, limit_seconds)
        self._arenew = renew
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> AsyncLeaseKeeper:
        self._task = asyncio.create_task(self._arun())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _arun(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            if self._overdue():
                return
            try:
                if not await self._arenew():
                    self._lost.set()
                    return
            except Exception as exc:  # a Redis hiccup: the lease still runs; retry next tick
                logger.warning("could not renew the check-up lease: %s", exc)


@dataclass(frozen=True)
class _Job:
    """One check-up job's lease and retry plan (what the sync and async jobs share)."""

    user_id: str
    lease_key: str
    token: str
    lease_ms: int
    tries: int
    backoff: float
    limit: float = math.inf

    @classmethod
    def of(
        cls,
        memory: BaseMemory,
        user_id: str,
        worker_id: str | None,
        lease_ms: int | None,
        attempts: int | None,
        backoff_seconds: float | None,
    ) -> _Job:
        settings = memory.settings
        return cls(
            user_id=user_id,
            lease_key=UserKeys.for_user(user_id).checkup_lease,
            token=worker_id or uuid.uuid4().hex,
            lease_ms=lease_ms or settings.checkup_lease_ms,
            tries=attempts or settings.checkup_attempts,
            backoff=settings.checkup_backoff_seconds if backoff_seconds is None
            else backoff_seconds,
            limit=settings.checkup_try_seconds,
        )

    def delay(self, attempt: int) -> float:
        """Seconds before the next try: the backoff doubled after each failure."""
        return float(self.backoff * 2 ** (attempt - 1))

    @property
    def renew_every(self) -> float:
        """Seconds between renewals during a try: a third of the lease, so two renewals
        can fail (a slow Redis) before it runs out."""
        return self.lease_ms / 3000.0

    def renewal(self, memory: Memory) -> Callable[[], bool]:
        return lambda: memory.renew_lease(self.lease_key, self.token, self.lease_ms)

    def arenewal(self, memory: AsyncMemory) -> Callable[[], Awaitable[bool]]:
        return lambda: memory.renew_lease(self.lease_key, self.token, self.lease_ms)

    def lost(self, attempt: int, *, during: bool = False) -> JobOutcome:
        where = " during the check-up; nothing was written" if during else ""
        return JobOutcome(user_id=self.user_id, status="busy", attempts=attempt - 1,
                          error=f"lost the lease to another worker{where}")

    def failed(self, exc: Exception, attempt: int) -> str:
        error = f"{type(exc).__name__}: {exc}"
        level = logging.WARNING if isinstance(exc, PenchantError) else logging.ERROR
        logger.log(level, "check-up of %r failed (try %d/%d): %s",
                   self.user_id, attempt, self.tries, error)
        return error


def schedule_checkup(memory: Memory, user_id: str, *, delay_ms: int = 0) -> int:
    """Put a user's check-up on the schedule (an earlier due time is kept).

    Returns:
        The due time, epoch milliseconds.
    """
    UserKeys.for_user(user_id)
    due = int(time.time() * 1000) + max(0, delay_ms)
    memory.schedule_checkup(user_id, due)
    return due


async def aschedule_checkup(memory: AsyncMemory, user_id: str, *, delay_ms: int = 0) -> int:
    """:func:`schedule_checkup` over an :class:`~.client.AsyncMemory`."""
    UserKeys.for_user(user_id)
    due = int(time.time() * 1000) + max(0, delay_ms)
    await memory.schedule_checkup(user_id, due)
    return due


def run_due_checkups(
    memory: Memory,
    *,
    worker_id: str | None = None,
    judge: ContradictionJudge | None = None,
    limit: int = 100,
    now_ms: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> list[JobOutcome]:
    """One worker pass over the due check-ups (call it from cron, a loop or a task queue).

    A user leaves the schedule only after a successful check (and only if nobody rescheduled
    it meanwhile); a busy or failed one stays for the next pass, so a crashed worker strands
    nothing: its lease expires and the user is still due.
    """
    now = int(time.time() * 1000) if now_ms is None else now_ms
    token = worker_id or uuid.uuid4().hex
    outcomes = []
    for user_id, due in memory.due_checkups(now, limit):
        outcome = checkup_job(memory, user_id, judge=judge, worker_id=token, sleep=sleep)
        if outcome.status == "done":
            memory.complete_checkup(user_id, due)
        outcomes.append(outcome)
    return outcomes


async def arun_due_checkups(
    memory: AsyncMemory,
    *,
    worker_id: str | None = None,
    judge: ContradictionJudge | None = None,
    limit: int = 100,
    now_ms: int | None = None,
) -> list[JobOutcome]:
    """:func:`run_due_checkups` over an :class:`~.client.AsyncMemory` (one user at a time,
    like the sync pass)."""
    now = int(time.time() * 1000) if now_ms is None else now_ms
    token = worker_id or uuid.uuid4().hex
    outcomes = []
    for user_id, due in await memory.due_checkups(now, limit):
        outcome = await acheckup_job(memory, user_id, judge=judge, worker_id=token)
        if outcome.status == "done":
            await memory.complete_checkup(user_id, due)
        outcomes.append(outcome)
    return outcomes


__all__ = [
    "CONCEPTS",
    "AsyncLeaseKeeper",
    "CheckupReport",
    "ContradictionJudge",
    "JobOutcome",
    "LeaseKeeper",
    "LeaseLostError",
    "PairVerdict",
    "acheckup_job",
    "arun_checkup",
    "arun_due_checkups",
    "aschedule_checkup",
    "checkup_job",
    "concepts_instanced",
    "concepts_named",
    "find_issues",
    "lexicon_contradiction",
    "lexicon_pairs",
    "preference_vectors",
    "run_checkup",
    "run_due_checkups",
    "schedule_checkup",
    "similar_pairs",
    "top_opposite_pairs",
]

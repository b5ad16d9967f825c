"""Where each embedder's similarity thresholds come from: recall's relevance floor, the check-up's.

* ``relevant_cosine`` (recall labels a preference relevant to a request, e.g. a dislike that
  becomes a constraint; it labels, it does not rank): hand-written (request, stored
  preference) pairs below, the preference as capture stores it (a short sentence plus its
  category), relevant ones (a material for a product, a diet for a meal, a habit for a trip)
  and unrelated ones. The floor is the multiple of 0.01 that maximises Youden's J, the
  *lower* one on a tie: a constraint left out is worse than a needless one. PrefEval-dev
  (content only: each question with its own preference, 505 pairs, against preferences of
  other topics) is reported beside it as a check on long sentences.
* ``contradiction_cosine`` / ``duplicate_cosine`` (the check-up flags a pair for the user to
  confirm): hand-written pairs below (English, Chinese and mixed), embedded as the gate
  embeds them (content plus category). The floor is the multiple of 0.05 that maximises
  Youden's J (share of positive pairs caught minus share of negative pairs flagged; Youden
  1950, "Index for rating diagnostic tests"), the higher one on a tie (a false flag asks the
  user something). Pairs with Chinese are left out for an English-only model. Positive and
  negative pairs overlap for every model measured, so the report gives both shares.

Usage::

    python bench/thresholds.py [--embedders use-multilingual minilm e5 use-multilingual+e5]

Prints a table per embedder, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from penchant.memory.embeddings import Embedder, build_embedder, embedding_text, is_fused
from penchant.memory.recall.engine import cjk_dominant

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "prefeval-dev"

# (request, stored preference, its category): the preference bears on the request.
RELEVANT = [
    ("Can you recommend a water bottle for hiking?", "dislikes plastic", "material"),
    ("Recommend a lunch box for work", "dislikes plastic", "material"),
    ("I need a new phone case", "avoids plastic", "material"),
    ("What sweater should I buy for winter?", "allergic to wool", "material"),
    ("Recommend a jacket for autumn", "avoids leather", "material"),
    ("Find me a good pair of boots", "does not wear leather", "material"),
    ("Suggest a toy for my nephew", "prefers wooden toys", "material"),
    ("What should I cook tonight?", "is vegetarian", "food"),
    ("Suggest a snack for the road", "allergic to peanuts", "food"),
    ("Where should we go for dinner?", "dislikes spicy food", "food"),
    ("Pick a hotel in Rome", "hates noisy rooms", "travel"),
    ("Book me a flight to Berlin", "prefers aisle seats", "travel"),
    ("Plan a weekend activity for me", "is afraid of heights", "sport"),
    ("Recommend a TV series to binge", "hates horror", "movies"),
    ("Put on some music", "loves jazz", "music"),
    ("推荐一个水杯", "不要塑料制品", "material"),
    ("晚饭吃什么？", "不吃辣", "food"),
    ("Can you recommend a water bottle for hiking?", "不要塑料制品", "material"),
    ("给我推荐一件毛衣", "allergic to wool", "material"),
]
# (request, stored preference, its category): the preference has nothing to do with it.
UNRELATED = [
    ("Can you recommend a water bottle for hiking?", "dislikes cilantro", "food"),
    ("Recommend a lunch box for work", "hates horror movies", "movies"),
    ("Book me a flight to Berlin", "dislikes cilantro", "food"),
    ("What sweater should I buy for winter?", "hates early morning flights", "travel"),
    ("Suggest a toy for my nephew", "dislikes jazz", "music"),
    ("Pick a hotel in Rome", "allergic to peanuts", "food"),
    ("Put on some music", "avoids leather", "material"),
    ("What should I cook tonight?", "prefers aisle seats", "travel"),
    ("Recommend a TV series to binge", "dislikes plastic", "material"),
    ("推荐一个水杯", "讨厌恐怖片", "movies"),
    ("晚饭吃什么？", "prefers wooden toys", "material"),
    ("Find me a good pair of boots", "loves jazz", "music"),
]

# (like, dislike, category): opposite polarities about one subject.
CONTRADICTIONS = [
    ("prefers cheap flights", "avoids budget airlines", "travel"),
    ("likes dark chocolate", "dislikes milk chocolate", "food"),
    ("loves spicy food", "cannot stand spicy dishes", "food"),
    ("enjoys long road trips", "hates long drives", "travel"),
    ("likes horror movies", "avoids scary films", "movies"),
    ("loves crowded music festivals", "hates big crowds", "entertainment"),
    ("likes minimalist furniture", "dislikes minimalist interiors", "style"),
    ("enjoys hiking in the mountains", "does not like mountain hikes", "sport"),
    ("prefers window seats", "does not want a window seat", "travel"),
    ("likes jazz music", "dislikes jazz", "music"),
    ("wants plastic storage boxes", "no plastic please", "material"),
    ("喜欢吃辣的菜", "不吃辣", "food"),
    ("喜欢塑料收纳盒", "不要塑料制品", "material"),
    ("likes spicy food", "不吃辣", "food"),
]
# Opposite polarities about different subjects of one domain: not contradictions.
NOT_CONTRADICTIONS = [
    ("likes apple", "dislikes Apple products", "other"),
    ("loves Italian food", "dislikes cilantro", "food"),
    ("prefers aisle seats", "hates early morning flights", "travel"),
    ("likes wool sweaters", "dislikes polyester shirts", "material"),
    ("enjoys jazz", "dislikes heavy metal", "music"),
    ("likes cats", "is allergic to dogs", "pets"),
    ("likes sushi", "dislikes sweet desserts", "food"),
    ("loves beach holidays", "hates ski resorts", "travel"),
    ("likes leather jackets", "dislikes plastic bags", "material"),
    ("likes red wine", "dislikes beer", "food"),
    ("喜欢绿茶", "不喜欢咖啡", "food"),
    ("likes science fiction novels", "dislikes romance novels", "books"),
    ("likes running marathons", "dislikes swimming", "sport"),
    ("喜欢日本料理", "讨厌恐怖片", "other"),
]
# (first, second, category), same polarity and the same meaning.
DUPLICATES = [
    ("likes cotton t-shirts", "loves cotton shirts", "material"),
    ("dislikes plastic", "does not want anything made of plastic", "material"),
    ("prefers aisle seats", "likes sitting in the aisle seat", "travel"),
    ("loves jazz", "enjoys listening to jazz", "music"),
    ("hates early morning flights", "dislikes flights that leave early in the morning", "travel"),
    ("likes green tea", "enjoys drinking green tea", "food"),
    ("allergic to peanuts", "has a peanut allergy", "food"),
    ("喜欢帆布包", "爱用帆布袋", "style"),
    ("不吃香菜", "讨厌香菜", "food"),
    ("likes canvas bags", "喜欢帆布包", "style"),
    ("prefers wooden toys for kids", "likes wooden toys for children", "shopping"),
    ("dislikes horror movies", "cannot stand horror films", "movies"),
    ("likes minimalist Scandinavian furniture", "prefers minimalist Nordic furniture", "style"),
]
# Same polarity, different objects of one domain: not duplicates.
NOT_DUPLICATES = [
    ("loves wool sweaters", "loves cotton shirts", "material"),
    ("likes green tea", "likes black coffee", "food"),
    ("likes jazz", "likes classical music", "music"),
    ("prefers aisle seats", "prefers direct flights", "travel"),
    ("dislikes cilantro", "dislikes mushrooms", "food"),
    ("likes Italian food", "likes Japanese food", "food"),
    ("喜欢绿茶", "喜欢咖啡", "food"),
    ("dislikes horror movies", "dislikes romantic comedies", "movies"),
    ("likes hiking", "likes cycling", "sport"),
    ("likes leather boots", "likes leather bags", "style"),
    ("allergic to peanuts", "allergic to shellfish", "food"),
    ("likes cats", "likes dogs", "pets"),
]


def _pair_cosines(
    embedder: Embedder, pairs: list[tuple[str, str, str]], query_first: bool = False
) -> np.ndarray:
    """Cosine of each pair, each side embedded as the gate stores it (content plus category),
    or with ``query_first`` the first side as recall embeds a request (as it is)."""
    a = embedder.embed([x if query_first else embedding_text(x, c) for x, _, c in pairs])
    b = embedder.embed([embedding_text(y, c) for _, y, c in pairs])
    return np.einsum("ij,ij->i", a, b)


def youden_floor(
    positives: np.ndarray, negatives: np.ndarray, step: float = 0.05, prefer: str = "higher"
) -> float:
    """The multiple of ``step`` maximising caught positives minus flagged negatives (shares);
    on a tie the highest such floor (``prefer="higher"``) or the lowest (``"lower"``)."""
    grid = np.round(np.arange(-0.2, 1.0 + step / 2, step), 2)
    j = [(positives >= f).mean() - (negatives >= f).mean() for f in grid]
    best = max(j)
    ties = [float(f) for f, v in zip(grid, j, strict=True) if v >= best - 1e-12]
    return max(ties) if prefer == "higher" else min(ties)


def _readable(embedder: Embedder, pairs: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    if getattr(embedder, "multilingual", True):
        return pairs
    return [p for p in pairs if not (cjk_dominant(p[0]) or cjk_dominant(p[1]))]


def checkup_floors(embedder: Embedder) -> dict[str, Any]:
    """Contradiction and duplicate floors from the hand-written pairs."""
    out: dict[str, Any] = {}
    for kind, positives, negatives in (
        ("contradiction", CONTRADICTIONS, NOT_CONTRADICTIONS),
        ("duplicate", DUPLICATES, NOT_DUPLICATES),
    ):
        pos = _pair_cosines(embedder, _readable(embedder, positives))
        neg = _pair_cosines(embedder, _readable(embedder, negatives))
        floor = youden_floor(pos, neg)
        out[kind] = {
            "floor": floor,
            "positives_caught": f"{int((pos >= floor).sum())}/{len(pos)}",
            "negatives_flagged": f"{int((neg >= floor).sum())}/{len(neg)}",
            "positives_median": round(float(np.median(pos)), 3),
            "negatives_median": round(float(np.median(neg)), 3),
        }
    return out


def _load_prefeval(data: Path) -> tuple[list[str], list[str], list[str]]:
    topics, prefs, questions = [], [], []
    for path in sorted(data.glob("*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")):
            topics.append(path.stem)
            prefs.append(row["preference"])
            questions.append(row["question"])
    if not topics:
        raise SystemExit(f"no PrefEval *.json files under {data}; pass --data DIR")
    return topics, prefs, questions


def _cosines(embedder: Embedder, prefs: list[str], questions: list[str]) -> np.ndarray:
    """``float[n_questions, n_prefs]``: the semantic channel's cosine (the mean of the parts'
    cosines for a fused embedder, which is what recall compares with the floor)."""
    return np.asarray(embedder.embed(questions) @ embedder.embed(prefs).T, dtype=np.float64)


def relevance_floor(embedder: Embedder, data: Path) -> dict[str, Any]:
    """Youden's J on the hand-written pairs (0.01 grid, lower on a tie), checked on PrefEval."""
    pos = _pair_cosines(embedder, _readable(embedder, RELEVANT), query_first=True)
    neg = _pair_cosines(embedder, _readable(embedder, UNRELATED), query_first=True)
    floor = youden_floor(pos, neg, step=0.01, prefer="lower")
    out: dict[str, Any] = {
        "floor": floor,
        "relevant_kept": f"{int((pos >= floor).sum())}/{len(pos)}",
        "unrelated_dropped": f"{int((neg < floor).sum())}/{len(neg)}",
        "relevant_median": round(float(np.median(pos)), 3),
        "unrelated_median": round(float(np.median(neg)), 3),
    }
    if any(data.glob("*.json")):
        topics, prefs, questions = _load_prefeval(data)
        sims = _cosines(embedder, prefs, questions)
        t = np.asarray(topics)
        relevant, unrelated = np.diag(sims), sims[t[:, None] != t[None, :]]
        out["prefeval_relevant_kept"] = round(float((relevant >= floor).mean()), 3)
        out["prefeval_unrelated_dropped"] = round(float((unrelated < floor).mean()), 3)
    return out


def measure(selector: str, data: Path) -> dict[str, Any]:
    """Every threshold of one embedder, with the figures behind it."""
    embedder = build_embedder(selector)
    report: dict[str, Any] = {"embedder": embedder.name, "fused": is_fused(embedder)}
    report["relevant"] = relevance_floor(embedder, data)
    report.update(checkup_floors(embedder))
    return report


def main(argv: list[str] | None = None) -> int:
    """Print each embedder's thresholds, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--embedders", nargs="+", default=["use-multilingual", "minilm", "e5"],
        help="PENCHANT_EMBEDDINGS selectors",
    )  # fmt: skip
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    reports = [measure(s, args.data) for s in args.embedders]
    for r in reports:
        print(r["embedder"])
        for key in ("relevant", "contradiction", "duplicate"):
            if key in r:
                print(f"  {key:14} " + ", ".join(f"{k} {v}" for k, v in r[key].items()))
    print(json.dumps(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())

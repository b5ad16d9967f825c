"""A shopping bot over a small product catalogue, with Penchant as its memory.

The user's stated preferences (captured from their own words, English or
Chinese) decide what they are shown:

* a **dislike** hard-filters out every product it is about (``dislikes plastic``
  removes anything tagged or named ``plastic``, but not ``plastic-free``);
* a **like** ranks the products it is about up.

"About" uses Penchant's own matching (:mod:`penchant.memory.core.matching`): each of
the preference's keywords must cover one of the product's tags or category
(same word, a spelling variant, or its head: ``chocolate`` covers ``dark
chocolate``), or appear at word boundaries in the product name. Searches and
choices are stored as history snapshots (what the user *did*), never as
preferences.

Run it::

    python examples/shopping_bot.py                       # the scripted demo session
    python examples/shopping_bot.py --user bob --tell "I don't like leather." --search sofa
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from penchant.memory import (
    GateResult,
    HistorySnapshot,
    Memory,
    Preference,
    Settings,
    forget_matches,
    forget_query_words,
    has_cjk,
    keyword_covers,
    normalise_keywords,
    word_tokens,
)

CATALOGUE = Path(__file__).with_name("catalogue.json")
LIKE_BOOST = 2.0
"""Score a like adds per unit of its confidence (a query word match adds 1)."""
DEMO_USER = "demo-shopper"
DEMO_STATEMENTS = (
    "I don't like plastic.",
    "I love bamboo.",
    "I'm allergic to peanuts.",
    "I hate cilantro.",
    "I like wool sweaters.",
    "我不喜欢辣的食物。",
)
DEMO_SEARCHES = ("water bottle for hiking", "food", "sweater", "bathroom", "kitchen storage")

Output = Callable[[str], None]


@dataclass(frozen=True)
class Product:
    """One catalogue entry.

    Attributes:
        id: Stable product id.
        name: Display name.
        category: Product category (``bag``, ``food`` …).
        tags: Materials and attributes, some also in Chinese (``plastic``, ``塑料``).
        price: Price in EUR.
    """

    id: str
    name: str
    category: str
    tags: tuple[str, ...]
    price: float

    @property
    def terms(self) -> list[str]:
        """Normalised category and tags, the product's matchable attributes."""
        return normalise_keywords([self.category, *self.tags])

    def is_about(self, keyword: str) -> bool:
        """Whether a normalised preference keyword names this product or one of its attributes."""
        if any(keyword_covers(keyword, term) for term in self.terms):
            return True
        return forget_matches(keyword, [], self.name)


def load_catalogue(path: Path = CATALOGUE) -> list[Product]:
    """The products of a catalogue file ``{"products": [{id, name, category, tags, price}]}``."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return [
        Product(p["id"], p["name"], p["category"], tuple(p["tags"]), float(p["price"]))
        for p in document["products"]
    ]


def preference_applies(preference: Preference, product: Product) -> bool:
    """Whether every keyword of a preference is about the product (no keywords: never)."""
    return bool(preference.keywords) and all(product.is_about(k) for k in preference.keywords)


def query_overlap(query_words: Sequence[str], product: Product) -> int:
    """How many of the query's content words the product's name, category or tags contain."""
    latin = set(word_tokens(product.name))
    for term in product.terms:
        latin.update(term.split(" "))
    cjk = [t for t in product.terms if has_cjk(t)]
    return sum(
        1
        for word in query_words
        if (any(t in word or word in t for t in cjk) if has_cjk(word) else word in latin)
    )


@dataclass
class Ranked:
    """A product shown to the user, with the likes that lifted it."""

    product: Product
    score: float
    liked_because: list[str] = field(default_factory=list)


@dataclass
class SearchResult:
    """What one search showed and what it filtered out.

    Attributes:
        query: The user's query.
        shown: Products in rank order.
        excluded: ``(product, content of the dislike that removed it)``.
    """

    query: str
    shown: list[Ranked]
    excluded: list[tuple[Product, str]]


class ShoppingBot:
    """A catalogue search that honours one user's Penchant preferences.

    Args:
        memory: The memory (borrowed).
        user_id: The shopper.
        catalogue: The products; :func:`load_catalogue` by default.
    """

    def __init__(
        self, memory: Memory, user_id: str, catalogue: Sequence[Product] | None = None
    ) -> None:
        self.memory = memory
        self.user_id = user_id
        self.catalogue = list(catalogue) if catalogue is not None else load_catalogue()

    def tell(self, text: str) -> GateResult:
        """Capture preferences from the user's own words (through the gate)."""
        return self.memory.capture(self.user_id, text)

    def search(self, query: str, limit: int = 5) -> SearchResult:
        """Find products for ``query``: dislikes filter out, likes rank up; records a snapshot."""
        preferences = self.memory.preferences(self.user_id)
        dislikes = [p for p in preferences if p.polarity == "dislike"]
        likes = [p for p in preferences if p.polarity == "like"]
        words = forget_query_words(query)
        shown: list[Ranked] = []
        excluded: list[tuple[Product, str]] = []
        for product in self.catalogue:
            overlap = query_overlap(words, product) if words else 1
            if not overlap:
                continue
            blocking = next((d for d in dislikes if preference_applies(d, product)), None)
            if blocking is not None:
                excluded.append((product, blocking.content))
                continue
            lifting = [like for like in likes if preference_applies(like, product)]
            score = overlap + LIKE_BOOST * sum(like.confidence for like in lifting)
            shown.append(Ranked(product, score, [like.content for like in lifting]))
        shown.sort(key=lambda r: (-r.score, r.product.price))
        result = SearchResult(query, shown[:limit], excluded)
        self._record_search(result)
        return result

    def choose(self, product: Product, query: str = "") -> None:
        """Record that the user picked a product (a history snapshot, not a like)."""
        self.memory.record_history(
            self.user_id,
            HistorySnapshot(
                kind="choice",
                summary=f"chose {product.name} ({product.price:.2f} EUR)",
                payload={"product_id": product.id, "price": product.price, "query": query},
            ),
        )

    def _record_search(self, result: SearchResult) -> None:
        self.memory.record_history(
            self.user_id,
            HistorySnapshot(
                kind="search",
                summary=f"searched for {result.query!r}: {len(result.shown)} shown, "
                f"{len(result.excluded)} filtered out by dislikes",
                payload={
                    "query": result.query,
                    "shown": [r.product.id for r in result.shown],
                    "excluded": [p.id for p, _ in result.excluded],
                },
            ),
        )


def print_result(result: SearchResult, out: Output) -> None:
    """Print one search's results and exclusions."""
    out(f"\nsearch: {result.query}")
    for rank, item in enumerate(result.shown, 1):
        why = f"  (+ {'; '.join(item.liked_because)})" if item.liked_because else ""
        out(f"  {rank}. {item.product.name}  {item.product.price:.2f} EUR{why}")
    if not result.shown:
        out("  nothing left to show")
    for product, reason in result.excluded:
        out(f"  filtered out: {product.name}  (because: {reason})")


def run(
    memory: Memory,
    user_id: str = DEMO_USER,
    *,
    statements: Sequence[str] = DEMO_STATEMENTS,
    searches: Sequence[str] = DEMO_SEARCHES,
    out: Output = print,
) -> list[SearchResult]:
    """A shopping session: tell preferences, search, pick the top result of each search.

    Args:
        memory: The memory (borrowed).
        user_id: The shopper.
        statements: The user's words, captured through the gate first.
        searches: Queries to run.
        out: Where to print.

    Returns:
        Each search's result, in order.
    """
    bot = ShoppingBot(memory, user_id)
    for text in statements:
        stored = bot.tell(text)
        out(f"user> {text}\n  memory: {stored.describe()}")
    results = []
    for query in searches:
        result = bot.search(query)
        print_result(result, out)
        if result.shown:
            bot.choose(result.shown[0].product, query)
            out(f"  -> chose {result.shown[0].product.name}")
        results.append(result)
    out(f"\nhistory of {user_id}:")
    for snapshot in memory.history(user_id, limit=4):
        out(f"  [{snapshot.kind}] {snapshot.summary}")
    return results


def main(argv: Sequence[str] | None = None, memory: Memory | None = None) -> int:
    """Command-line entry; with no ``--tell``/``--search``, runs the scripted session.

    Args:
        argv: Arguments (``sys.argv[1:]`` when ``None``).
        memory: A memory to borrow; ``Memory.from_settings(Settings())`` (owned,
            closed at the end) when ``None``.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--user", default=DEMO_USER)
    parser.add_argument("--tell", action="append", default=[], help="a preference, your words")
    parser.add_argument("--search", action="append", default=[], help="a product query")
    args = parser.parse_args(argv)
    scripted = not (args.tell or args.search)
    owned = memory is None
    mem = Memory.from_settings(Settings()) if memory is None else memory
    try:
        run(
            mem,
            args.user,
            statements=DEMO_STATEMENTS if scripted else args.tell,
            searches=DEMO_SEARCHES if scripted else args.search,
        )
    finally:
        if owned:
            mem.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

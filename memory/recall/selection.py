"""What one request injects: the few preferences that bear on it (DESIGN.md §8).

A pure step after recall. Recall ranks every preference; injection must not send them all.
:func:`select_injection` keeps

* every **protected** preference (allergies, intolerances): always, whatever the request;
* **hard dislikes that apply**: a dislike whose keyword the request names, or a dislike of a
  material when the request asks for a product (``Which lunch box should I buy?`` after
  ``I don't like plastic``: no embedder here puts the two near each other, since a lunch
  box says nothing of what it is made of; USE's cosine is −0.01);
* then the **relevant** recalled items (:attr:`~.results.RecallItem.matched`, the embedder's
  calibrated threshold), best first; these two together at most ``max_items`` and within a
  token budget.

An unrelated request ("what's the time in Tokyo?") so injects only the protected ones.
:func:`select_turns` keeps a transcript's recent turns the same way: in order, whole
(user, assistant) turns, alternation intact even after a forget scrubbed some messages.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from ..model import Preference, normalise_keyword, word_tokens
from .results import RecallResult, estimate_tokens

MAX_INJECTED = 3
"""Most preferences injected for one request besides the protected ones. Issue 18 asks that
a user with 20 preferences gets at most 4 on average, protected ones included: on the
tuning topics of ``bench/recall_quality.py`` (40 users × 20 PrefEval-dev preferences, seeds
1 / 2 / 7) a cap of 4 injected 4.06 a request (0.7 of them protected), a cap of 3 injects
3.5–3.8 with the request's own preference among them for 99 % of requests (92–96 % on the
held-out topics)."""
INJECTION_TOKEN_BUDGET = 160
"""Estimated tokens (:func:`~.results.estimate_tokens`) of the injected preferences' contents
besides the protected ones: the cap's three long PrefEval preferences (≈ 25–35 tokens each)
fit with room for short ones."""

PRODUCT_REQUEST_RE = re.compile(
    r"\b(?:buy|buying|purchase|order|shop(?:ping)? for|get me|gift|present)\b"
    r"|\b(?:recommend|suggest|find|need|want|looking for|pick)\b[^.?!]{0,40}?"
    r"\b(?:a|an|some|new|good|the best)\b"
    r"|买|购买|推荐.{0,6}(?:个|款|件|双|把|台|只)",
    re.IGNORECASE,
)
"""A request for a thing one buys or uses: a dislike of a material applies to it. Broad on
purpose (``suggest a soup recipe`` matches too): a material constraint shown needlessly costs
a line, one left out costs the answer."""
MATERIAL_CATEGORY = "material"


@dataclass
class Injection:
    """The preferences one request injects.

    Attributes:
        relevant: Recalled preferences that bear on the request, best first (the
            constraints and leanings of the prompt); protected ones are not repeated here.
        applying: Dislikes that apply by their words (:func:`dislike_applies`), taken
            before the relevant ones whatever recall ranked them.
        protected: The user's protected preferences (always injected).
        tokens: Estimated tokens of ``relevant`` and ``applying``.
    """

    relevant: list[Preference] = field(default_factory=list)
    applying: list[Preference] = field(default_factory=list)
    protected: list[Preference] = field(default_factory=list)
    tokens: int = 0

    @property
    def preferences(self) -> list[Preference]:
        """Everything injected: protected, then relevant, then applying dislikes."""
        return [*self.protected, *self.relevant, *self.applying]

    @property
    def ids(self) -> set[str]:
        """Ids of :attr:`preferences`."""
        return {p.id for p in self.preferences}


def dislike_applies(pref: Preference, query: str) -> bool:
    """Whether a dislike constrains ``query`` whatever its cosine: the request names one of
    its keywords (whole words, normalised), or it is a dislike of a material and the request
    asks for a product (:data:`PRODUCT_REQUEST_RE`)."""
    return _Request(query).constrained_by(pref)


class _Request:
    """One request's words, read once for every dislike it is checked against."""

    __slots__ = ("product", "query", "text")

    def __init__(self, query: str) -> None:
        self.query = query
        self.product = bool(PRODUCT_REQUEST_RE.search(query)) if query.strip() else False
        self.text = " " + " ".join(normalise_keyword(w) for w in word_tokens(query)) + " "

    def constrained_by(self, pref: Preference) -> bool:
        if pref.polarity != "dislike" or not self.query.strip():
            return False
        if self.product and pref.category == MATERIAL_CATEGORY:
            return True
        for keyword in pref.keywords:
            key = _normalised(keyword)
            if key and (f" {key} " in self.text or (not key.isascii() and key in self.query)):
                return True
        return False


@lru_cache(maxsize=65_536)
def _normalised(keyword: str) -> str:
    return normalise_keyword(keyword)


_CANDIDATES: OrderedDict[int, tuple[tuple[Preference, ...], tuple[Preference, ...],
                                     tuple[Preference, ...]]] = OrderedDict()  # fmt: skip
_CANDIDATES_LOCK = threading.Lock()
CANDIDATE_CACHE_SIZE = 16
"""Preference tuples (users) whose protected ones and dislikes are kept (by identity)."""


def _candidates(
    preferences: Sequence[Preference],
) -> tuple[tuple[Preference, ...], tuple[Preference, ...]]:
    """The protected preferences and the dislikes that a request could name (keywords, or a
    material), in list order. Kept for a tuple (immutable: the snapshot's
    ``ordered_preferences()`` is the same tuple while the user's preferences are
    unchanged), so a repeat request skips the pass over them (≈6 ms at 10k)."""
    key = id(preferences)
    if isinstance(preferences, tuple):
        with _CANDIDATES_LOCK:
            found = _CANDIDATES.get(key)
            if found is not None and found[0] is preferences:
                _CANDIDATES.move_to_end(key)
                return found[1], found[2]
    protected = tuple(p for p in preferences if p.protected)
    dislikes = tuple(
        p for p in preferences
        if p.polarity == "dislike" and (p.keywords or p.category == MATERIAL_CATEGORY)
    )  # fmt: skip
    if isinstance(preferences, tuple):
        with _CANDIDATES_LOCK:
            _CANDIDATES[key] = (preferences, protected, dislikes)
            while len(_CANDIDATES) > CANDIDATE_CACHE_SIZE:
                _CANDIDATES.popitem(last=False)
    return protected, dislikes


def select_injection(
    result: RecallResult,
    preferences: Sequence[Preference],
    query: str,
    *,
    max_items: int = MAX_INJECTED,
    token_budget: int | None = INJECTION_TOKEN_BUDGET,
) -> Injection:
    """The preferences one request injects (see the module docs).

    Args:
        result: Recall's ranking for ``query``.
        preferences: The user's active preferences (protected ones and dislikes are
            taken from here even when recall did not return them).
        query: The request.
        max_items: Most relevant plus applying preferences (protected ones not counted).
        token_budget: Most estimated tokens of those; ``None``: no limit.

    Returns:
        The :class:`Injection`.
    """
    protected, dislikes = _candidates(preferences)
    chosen = Injection(protected=list(protected))
    taken = {p.id for p in chosen.protected}

    def take(pref: Preference, into: list[Preference]) -> None:
        cost = estimate_tokens(pref.content)
        if pref.id in taken or len(chosen.relevant) + len(chosen.applying) >= max_items:
            return
        if token_budget is not None and chosen.tokens + cost > token_budget:
            return
        into.append(pref)
        taken.add(pref.id)
        chosen.tokens += cost

    request = _Request(query)
    for pref in dislikes:  # hard constraints first: they bind whatever the cosine says
        if request.constrained_by(pref):
            take(pref, chosen.applying)
    for item in result.items:
        if item.matched:
            take(item.preference, chosen.relevant)
    return chosen


M = TypeVar("M")

MAX_TURNS = 6
"""Most recent (user, assistant) turns of a transcript sent to the model."""
TURN_TOKEN_BUDGET = 1_200
"""Estimated tokens of the selected turns' texts."""


def select_turns(
    messages: Sequence[M],
    role: Callable[[M], str],
    text: Callable[[M], str],
    *,
    max_turns: int = MAX_TURNS,
    token_budget: int | None = TURN_TOKEN_BUDGET,
) -> list[M]:
    """The most recent whole turns of a transcript, in order, alternating user/assistant.

    A turn is a user message and the assistant messages that answer it. Messages before the
    first user message, and a user message left without its answer except the last one,
    are dropped (a forget may have scrubbed either half); so is an assistant message that
    follows another assistant message. The newest turns are kept first, whole, until
    ``max_turns`` or the budget is reached; the last user message (the request) is always
    kept.

    Args:
        messages: Oldest first; anything ``role`` and ``text`` can read.
        role: ``"user"``, ``"assistant"`` or another role (other roles ride with their turn).
        text: The message's text (for the budget).
        max_turns: Most turns kept.
        token_budget: Most estimated tokens of the kept texts; ``None``: no limit.

    Returns:
        A sub-list of ``messages`` in their order.
    """
    turns: list[list[M]] = []
    for message in messages:
        who = role(message)
        if who == "user":
            if turns and not any(role(m) == "assistant" for m in turns[-1]):
                turns.pop()  # its answer was scrubbed: the question alone misleads
            turns.append([message])
        elif turns and not (who == "assistant" and role(turns[-1][-1]) == "assistant"):
            turns[-1].append(message)
    kept: list[list[M]] = []
    used = 0
    for turn in reversed(turns):
        cost = sum(estimate_tokens(text(m)) for m in turn)
        over = len(kept) >= max_turns or (token_budget is not None and used + cost > token_budget)
        if kept and over:
            break
        kept.append(turn)
        used += cost
    return [m for turn in reversed(kept) for m in turn]


__all__ = [
    "INJECTION_TOKEN_BUDGET",
    "MAX_INJECTED",
    "MAX_TURNS",
    "PRODUCT_REQUEST_RE",
    "TURN_TOKEN_BUDGET",
    "Injection",
    "dislike_applies",
    "select_injection",
    "select_turns",
]

"""What a stance rule is: one way of stating a preference, and how to read its match.

The English and Chinese rule tables (:mod:`.rules_en`, :mod:`.rules_zh`) are
built from :class:`Rule`. A rule's pattern finds the verb of a stance (``I
like``, ``I have a strong aversion to``, ``我不再…``); named groups, when
present, cut more out of the clause:

- ``obj``: the object; without it the object is the rest of the clause.
- ``old``: what the user left for ``obj`` ("switched from *old* to obj",
  ``从…换成…``); it is stored with the opposite polarity.
- ``slot``: the single-valued slot ``obj`` fills ("my favourite *author* is …").
- ``verb``, ``adj``: words shown in the content label.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ...model import Polarity

Copula = Literal["no", "ok", "required", "modal"]
"""Whether "am"/"'m" may stand between "I" and the match (``modal``: also "'d", "would")."""


@dataclass(frozen=True)
class Rule:
    """One way of stating a stance.

    Attributes:
        pattern: Compiled pattern of the stance's verb (and groups, see module doc).
        polarity: What the stance says about the object.
        label: Content template: ``{obj}`` and ``{verb}`` (the ``verb`` group or,
            without one, the whole match), ``{adj}``, ``{old}``, ``{slot}``.
        copula: Whether "am"/"'m" may stand between "I" and the match.
        comparative: The object stops at "over / than / rather than / instead of";
            what follows is the compared-against object, stored with the opposite
            polarity when the stance is a like ("I prefer tea over coffee").
        third_person: Never yields a candidate; only marks someone else speaking and
            provides an antecedent ("my friend loves sushi, but I hate it").
        first_person: The match itself says the user speaks (``my favourite``, ``me``).
        elliptic: Names no object (``…, I'm allergic``): it refers to the object
            mentioned last in the message, if any.
        pronoun_only: The object must be a pronoun with an antecedent in the message
            ("…, it's great"); a named object yields nothing.
        topic: Names an object without a stance ("I've changed my mind on linen"):
            it becomes the antecedent of what follows, and yields nothing itself.
        no_possessive: An object that starts with "my" is the user's situation, not a
            preference ("I quit my job"): nothing.
        reverses: Elliptic, with the polarity opposite to the last stance's ("I used
            to love sushi. Not anymore.").
        old_label: Content template of the ``old`` object's candidate.
        fronted_topic: Chinese words before the match may name what the stance is about,
            not who holds it (``手机只认苹果``, ``理发只去楼下那家小店``): they make it
            another's only when they name someone or something that acts
            (:func:`~.zh_subjects.fronted_topic`).
    """

    pattern: re.Pattern[str]
    polarity: Polarity
    label: str
    copula: Copula = "no"
    comparative: bool = False
    third_person: bool = False
    first_person: bool = False
    elliptic: bool = False
    pronoun_only: bool = False
    topic: bool = False
    no_possessive: bool = False
    reverses: bool = False
    old_label: str = "switched from {old} to {obj}"
    fronted_topic: bool = False

    def group(self, match: re.Match[str], name: str) -> str | None:
        """The text of a named group of ``match``, or None when the rule has none."""
        if name not in self.pattern.groupindex:
            return None
        return match.group(name)


def en(source: str, polarity: Polarity, label: str, **options: Any) -> Rule:
    """An English rule (matched case-insensitively); options as :class:`Rule`'s fields."""
    return Rule(re.compile(source, re.IGNORECASE), polarity, label, **options)


def zh(source: str, polarity: Polarity, label: str = "{verb}{obj}", **options: Any) -> Rule:
    """A Chinese rule (matched on simplified text); options as :class:`Rule`'s fields."""
    return Rule(re.compile(source), polarity, label, **options)


_NAMED_GROUP_RE = re.compile(r"\(\?P<\w+>")


class RuleTable:
    """A language's rules, scanned once per clause for where any of them matches.

    Running every rule over every clause costs a scan per rule; one combined
    pattern (the union of the rules, groups unnamed) finds the earliest position
    where some rule matches, and only there is each rule tried, anchored. The
    order is the tables' contract: earliest match first, then the longest, then
    the rule listed first.
    """

    def __init__(self, rules: tuple[Rule, ...], flags: int = 0) -> None:
        self.rules = rules
        union = "|".join(f"(?:{_NAMED_GROUP_RE.sub('(?:', r.pattern.pattern)})" for r in rules)
        self._any = re.compile(union, flags)

    def matches(self, clause: str) -> Iterator[tuple[re.Match[str], Rule]]:
        """Every (match, rule) in ``clause``, in precedence order, found lazily."""
        position = 0
        while position <= len(clause) and (hit := self._any.search(clause, position)):
            start = hit.start()
            here = [(m, r) for r in self.rules if (m := r.pattern.match(clause, start))]
            here.sort(key=lambda pair: pair[0].start() - pair[0].end())
            yield from here
            position = start + 1


__all__ = ["Copula", "Rule", "RuleTable", "en", "zh"]

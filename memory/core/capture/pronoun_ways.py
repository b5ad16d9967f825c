"""How a thing is had, said after the pronoun that stands for it: ``I love it black``,
``I like them without beans`` (issue 17). The object is the pronoun's antecedent so
qualified (*black coffee*, *burritos without beans*); before, it was the words themselves
(*likes it black*, keyword ``it black``), which match nothing.
"""

from __future__ import annotations

import re

from .lexicons import EN_PEOPLE_RE, STOP_WORDS

_EN_PRONOUN_HOW_RE = re.compile(
    r"^(?P<pron>it|them|they)\s+(?P<way>"
    r"(?:with|without)\s+(?!(?:a|an|the|my|your|our|his|her|their|all|every|some|question|fail|"
    r"exception|doubt|end)\b|[a-z]+ing\b)[\w' -]+|[a-z]{3,})$",
    re.IGNORECASE,
)
"""A pronoun and how the thing is liked (``I love it black``, ``I like them without beans``):
the thing is the antecedent, so qualified (*black coffee*). Not a circumstance of the liking
(``with a passion``, ``with my dog``, ``without fail``, ``without feeling sick``)."""
_EN_NOT_HOW = frozenset(
    """
    here there now then more less better best most much lot lots loads tons plenty alot way
    anyway anyways already again though tho all both back out up off over well fine anymore
    still instead alone enough either myself forever ever everyday everytime overall otherwise
    nonetheless regardless somehow somewhat tonight tomorrow yesterday today lately always
    never sometimes often lol lmao lmfao haha tbh btw fyi ngl idk omg welp yep yeah okay
    """.split()
)
"""Words after a pronoun that say how much, when or how sure, or are chat: not how the thing
is had (``I like it a lot``, ``I love it tonight``, ``I love it lmao``); and every word ending
in ``-ly`` and every stop word (:data:`~.lexicons.STOP_WORDS`)."""


def way_had(display: str) -> str | None:
    """The way a thing is had, where an English object is a pronoun followed by it.

    Args:
        display: An object's words (``it black``, ``them with extra cheese``).

    Returns:
        The words after the pronoun (``black``, ``with extra cheese``), or None where there
        is no pronoun first or the words say how much, when, with whom or how sure
        (:data:`_EN_NOT_HOW`; ``with a passion``, ``without fail``).
    """
    found = _EN_PRONOUN_HOW_RE.match(display)
    if found is None:
        return None
    way: str = found["way"]
    return way if _is_how(way) else None


def _is_how(way: str) -> bool:
    word = way.lower()
    if word.startswith(("with ", "without ")):
        return not EN_PEOPLE_RE.search(word)  # "with friends": company
    return word not in _EN_NOT_HOW and word not in STOP_WORDS and not word.endswith("ly")


__all__ = ["way_had"]

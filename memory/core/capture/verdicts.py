"""Whether a clause judges a thing well or badly: a small learned head over its embedding.

A verdict is said without a verb of liking: "Google Maps kept sending me through traffic",
"the pod machine tasted like cardboard", ``滴滴的加价太离谱了``, ``胶囊咖啡跟刷锅水一样``. The
statement head (:mod:`.statements`) reads such a clause as no preference, rightly on its own
(a complaint about today's traffic is no taste); where the sentence says what the user chose
instead, it is the user's dislike of what they left (:mod:`.alternatives`). This head tells
three readings apart: the speaker judges the thing well (``favourable``), badly
(``unfavourable``), or not at all (``neutral``: a fact, a plan, a question, one occasion, and
someone else's verdict).

Same model as the statement head (:class:`~.statements.StatementHead`: softmax regression
mixed with a one-hidden-layer network over the USE-multilingual v3 vector, and a lexical part
over hashed n-grams), trained on ``bench/corpus/verdicts/`` (clauses written for it in English
and Chinese by helpers who saw no file of the repository) by ``python bench/train_verdicts.py``,
which rewrites ``verdicts.npz`` and :data:`VERDICT_HEAD_SHA256`.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...model import has_han
from ..pinned_weights import loaded_once
from .statements import StatementHead

VERDICTS: tuple[str, ...] = ("favourable", "unfavourable", "neutral")
"""The readings the head tells apart, in the order of its outputs."""
VERDICT_HEAD_PATH = Path(__file__).resolve().with_name("verdicts.npz")
"""The shipped weights (the shape of :data:`~.statements.HEAD_PATH`'s, three outputs)."""
VERDICT_HEAD_SHA256 = "3e371e4f3a8bc841b2adfc8cb1c29228ca9d7d58b412aca9ae1a17714c676458"
"""SHA-256 of :data:`VERDICT_HEAD_PATH`, rewritten by ``bench/train_verdicts.py``."""


_EN_BEFORE_RE = r"(?:\b(?:the|my|our|their|those|these|that|this|his|her|your)\s+)?"


def masked(text: str, thing: str) -> str:
    """``text`` with the thing it judges said as a pronoun (``it``, ``它``): the head reads the
    verdict, not what a name is known for (trained on the Chinese and English corpus with its
    things masked the same way, it reads .809 of the clauses right out of fold against .789
    unmasked; an English complaint about a supermarket chain had read favourable).

    Args:
        text: One clause.
        thing: What it judges, as written in it; not found: ``text`` unchanged.
    """
    if not thing:
        return text
    if has_han(text):
        return text.replace(thing, "它", 1)
    pattern = re.compile(_EN_BEFORE_RE + re.escape(thing), re.IGNORECASE)
    return pattern.sub("it", text, count=1)


class VerdictHead(StatementHead):
    """The statement head's model with :data:`VERDICTS` as its outputs; read it with
    :meth:`~.statements.StatementHead.probabilities` (columns in :data:`VERDICTS` order)."""

    OUTPUTS = VERDICTS


@loaded_once
def default_verdict_head() -> VerdictHead:
    """The shipped verdict head, loaded (and its digest checked) once per process.

    Raises:
        ModelIntegrityError: ``verdicts.npz`` is missing or its digest differs.
    """
    return VerdictHead.load(
        VERDICT_HEAD_PATH, VERDICT_HEAD_SHA256, "verdict head", "python bench/train_verdicts.py"
    )


__all__ = ["VERDICTS", "VERDICT_HEAD_PATH", "VERDICT_HEAD_SHA256", "VerdictHead",
           "default_verdict_head", "masked"]

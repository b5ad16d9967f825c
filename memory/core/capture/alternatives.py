"""What the user chose against, judged: a dislike said without a verb, beside a choice.

"I use Waze now, Google Maps kept sending me through traffic", "Pour-over only for me now;
the pod machine tasted like cardboard", ``以后打车只用曹操出行，滴滴的加价太离谱了``,
``键盘换成红轴了，青轴太吵``: the rules read the like of what the user chose; the other piece of
the sentence names what they chose against and judges it badly with no verb of disliking, and
had stored nothing (issue 17: the other side of a switch lost, so the older preference stayed
active). Alone, such a piece is no taste ("the pod machine tasted like cardboard" may be one
cup); beside a choice it is why the user chose.

Where the rules read a like in the sentence and it is a choice (the structure head reads the
whole sentence as a switch, :data:`CHOICE_MIN_P`, or the rules read the like as the current or
only one, "I only shop at Aldi these days"), each piece of the sentence (split at ``, ; ，；``)
that names none of the objects read already, opens with a thing (:func:`~.kinds.pull_object_en`,
:func:`~.zh_objects.pull_object_zh`, :func:`_opened_with`, :func:`_names_a_thing`: the object
tagger marks it, or it is a name), is not someone else's, and that the
verdict head (:mod:`.verdicts`) reads as unfavourable at :data:`JUDGED_MIN_P` or more, with the
thing said as a pronoun (:func:`~.verdicts.masked`), is a dislike of that thing. A praise of
the thing chosen adds nothing, nor a fact about another thing, nor someone else's verdict ("my
brother says iPhones are overpriced"), nor a complaint beside a like with no choice in it ("I
love hiking, the trail near me gets way too crowded").
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

from ...model import PreferenceCandidate, has_cjk
from .holders import someone_else
from .keywords import object_keywords
from .kinds import pull_object_en
from .object_tagger import default_tagger
from .objects import is_pronoun
from .segment import tag
from .statements import Kind
from .structures import Part, part_candidate
from .verdicts import VERDICTS, masked
from .zh_objects import pull_object_zh

CHOICE_MIN_P = 0.2
"""The structure head's probability of a switch, for the whole sentence, at or above which a
like in it is a choice made against something: chosen on the development sets (the switch
sets' switches with a judged other side read 0.25–0.86; likes beside a complaint with no
choice in them, 0.00–0.08)."""
JUDGED_MIN_P = 0.6
"""The verdict head's probability of ``unfavourable`` at or above which a piece judges its
thing badly. Out of fold on its corpus (``bench/train_verdicts.py``, things masked): caught
en .60, zh .57 of the unfavourable clauses; taken wrongly .042 / .018 of the neutral ones and
.062 / .092 of the favourable ones (at 0.5 more are caught and twice as many taken wrongly)."""
_CHOSEN_RE = re.compile(r"^(?:only|switched to)\b|^(?:只|换成)|都用")
"""The rules' own wording of a like read as a sole choice or a switch ("only shop at Aldi",
``只用鲨鱼记账``): a choice, whatever the structure head reads. Not a like come round to
("now likes", ``现在喜欢``): its other piece is mostly the older view of the same thing
(``现在超爱逛菜市场，以前觉得又脏又吵``)."""
_UNFAVOURABLE = VERDICTS.index("unfavourable")
_PIECE_RE = re.compile(r"[^,;，；]+")
_EN_NOT_A_THING = frozenset("i me we us you my our".split())
_EN_BEFORE_THING = frozenset("the those these that this old a an all any every".split())
"""Words that may come before the thing a piece opens with ("the pod machine…"); not "my":
what the user has there is mostly what the choice did to them ("Switched to oat milk, my
stomach finally stopped hurting", "…, my wallet is crying"), and not another's ("his")."""
_ZH_BEFORE_THING_TAGS = ("n", "r", "m", "q", "eng")
"""POS tags (jieba's) of words that may come before it (``这两个App…``), or else the words
before it end as an attribute (:data:`_ZH_ATTRIBUTE_RE`: ``超市那种白吐司…``)."""
_ZH_ATTRIBUTE_RE = re.compile(r"^.{0,6}?(?:的|那种|那个|这个|那些|这些|那款|这款)$")
_ZH_VERDICT_START_RE = re.compile(r"(?:太|很|越来越|老是|总是|特别|超级|真的|不太|根本|一点)")
"""Degree adverbs and the like that begin a verdict, never a name (``星巴克太贵``: the HMM of
jieba tags 太贵 as a name)."""
_ZH_ADJECTIVE_END_RE = re.compile(r"[吵甜贵慢卡挤丑臭差烂苦咸酸腻]$")
"""A one-character verdict the HMM joined to the name before it, before 得/死/了."""


@runtime_checkable
class Judge(Protocol):
    """A reader that also reads verdicts (:meth:`~...client.reading.ClauseReader.judge`):
    favourable, unfavourable and neutral probabilities per text, :data:`~.verdicts.VERDICTS`
    order."""

    def judge(self, texts: list[str]) -> list[tuple[float, ...]]: ...


def _opened_with(piece: str, thing: str) -> str | None:
    """The thing a piece opens with, as the verdict's subject ("Google Maps kept…",
    ``滴滴的加价太离谱了``), or None where words of another role come first ("can't go back to
    the cheap stuff", "hit a bunch of weird bugs"): only determiners or more of a capitalised
    name in English ("Whole Foods is…" where the object read is *Foods*), only nouns,
    pronouns and measure words, or an attribute, in Chinese. A Chinese thing ends before a
    degree adverb (``星巴克太贵`` → 星巴克); an English one loses a contracted *is* ("Chrome's
    gone")."""
    at = piece.lower().find(thing.lower())
    if at < 0:
        return None
    before = piece[:at]
    if not has_cjk(piece):
        words = before.split()
        while words and words[0].lower() in _EN_BEFORE_THING:
            words.pop(0)
        if not all(w[:1].isupper() for w in words):  # "Whole Foods": a name goes on
            return None
        return re.sub(r"'s$", "", " ".join([*words, thing]), flags=re.I)
    before = before.strip()
    if "我" in before:  # ``我的头皮``: what the choice did to the user (see _EN_BEFORE_THING)
        return None
    if before and not _ZH_ATTRIBUTE_RE.match(before) and any(
        not flag.startswith(_ZH_BEFORE_THING_TAGS) for _, flag in tag(before)
    ):
        return None
    cut = _ZH_VERDICT_START_RE.search(thing, 2)
    thing = thing[: cut.start()] if cut else thing
    if len(thing) > 2 and piece[at + len(thing) : at + len(thing) + 1] in ("得", "死", "了"):
        thing = _ZH_ADJECTIVE_END_RE.sub("", thing)  # 青轴吵得要死: the HMM's 青轴吵
    return thing if len(thing) > 1 else None  # ``到现在一直没断``: no one-character thing


def _names_a_thing(sentence: str, piece: str, thing: str) -> bool:
    """Whether ``thing`` names a thing: the object tagger marks an object in the piece that
    holds it or is held in it ("google creeps me out": *google*), or in English a capitalised
    name that does not open the sentence ("…, Jetstar has burned me one too many times"). Words
    of another role that open a piece read as nothing ("…, weird how taste changes", ``…，以前
    觉得又脏又吵``, ``…，结果学着学着上瘾了``): the tagger marks none there."""
    lowered = thing.lower()
    for found in default_tagger().read(piece).objects:
        text = found.text.lower()
        if lowered in text or text in lowered:
            return True
    return (not has_cjk(piece) and thing[:1].isupper()
            and not sentence.lstrip().startswith(piece))


def judged_alternatives(
    sentence: str, whole: Kind | None, found: list[PreferenceCandidate], reader: object,
    confidence: float,
) -> list[PreferenceCandidate]:
    """``found`` and a dislike of each thing the sentence chose against and judged badly.

    Args:
        sentence: One sentence.
        whole: The statement head's reading of the whole sentence (its structure head's
            reading decides whether it is a choice), or None (nothing is added).
        found: What the sentence's clauses were read as so far.
        reader: Judges the pieces, each with its thing said as a pronoun
            (:func:`~.verdicts.masked`); a reader that is no :class:`Judge` (a stand-in
            returning fixed kinds, or None) adds nothing.
        confidence: The confidence of a candidate made here.

    Returns:
        ``found``, then one dislike per judged thing (none where the sentence is no choice,
        the rules read no like in it, or no piece judges another thing badly).
    """
    if not isinstance(reader, Judge) or whole is None or not any(
        c.polarity == "like" for c in found
    ):
        return found
    if whole.for_structure().of("switch") < CHOICE_MIN_P and not any(
        c.polarity == "like" and _CHOSEN_RE.search(c.content) for c in found
    ):
        return found
    named = {k.lower() for c in found for k in c.keywords}
    pending: dict[str, str] = {}  # piece -> the thing it names
    for piece in (p.strip() for p in _PIECE_RE.findall(sentence)):
        lowered = piece.lower()
        if not piece or any(k in lowered for k in named) or someone_else(piece):
            continue
        pulled = pull_object_zh(piece) if has_cjk(piece) else pull_object_en(piece)
        thing = pulled and _opened_with(piece, pulled)
        if not thing or is_pronoun(thing) or thing.lower() in _EN_NOT_A_THING or any(
            k in n or n in k for n in named for k in object_keywords(thing)
        ):
            continue
        if thing.lower() not in {t.lower() for t in pending.values()}:
            pending[piece] = thing
    if not pending:
        return found
    made = []
    judged = reader.judge([masked(piece, thing) for piece, thing in pending.items()])
    for (piece, thing), verdict in zip(pending.items(), judged, strict=True):
        if verdict[_UNFAVOURABLE] < JUDGED_MIN_P:
            continue
        if not _names_a_thing(sentence, piece, thing):
            continue
        content = f"不喜欢{thing}" if has_cjk(sentence) else f"dislikes {thing}"
        if (candidate := part_candidate(Part("dislike", thing, content), confidence)) is not None:
            made.append(candidate)
    return [*found, *made]


__all__ = ["CHOICE_MIN_P", "JUDGED_MIN_P", "Judge", "judged_alternatives"]

"""What a stored preference sentence is about, when the writer did not say.

The gate compares objects, not sentences (DESIGN.md §6.3), so a candidate
written without keywords (a ``remember`` call, a tool call, an import, a
reflect proposal) gets them here, from its content, with the same extractor
that end-of-turn capture uses (:func:`~.capture.extract_preferences`, English
and Chinese). Preference sentences are often written as labels in the third
person (``likes velvet curtains``, ``does not want plastic``, ``is allergic to
shrimp``); those are read as the user's own statement. A sentence no stance
rule reads (``no plastic please``, ``velvet curtains``) falls back to the
object phrase itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..model import Polarity, clean_text, has_cjk, is_retraction, normalise_keyword, to_simplified
from .capture import extract_preferences
from .capture.keywords import ZH_GENERIC, object_keywords, object_qualifiers
from .capture.lexicons import ZH_DROPPED_HEADS
from .capture.objects import cut_en, object_span, resolve
from .capture.segment import noun_runs

_LABELS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"^(?:the\s+)?user\s+", ""),
        (r"^(?:does\s*n[o']t|does\s+not)\s+", "I don't "),
        (r"^(?:is|'s)\s+", "I'm "),
        (r"^(?:has|'s\s+got)\s+", "I have "),
        (r"^(?=(?:(?:not|no\s+longer)\s+)?(?:allergic|intolerant)\b)", "I'm "),
        (r"^(?:can'?t|cannot)\s+", "I can't "),
        (r"^(?:never|no\s+longer|always|really|strongly)\s+", r"I \g<0>"),
    )
)
_LABEL_VERBS = {
    "likes": "like", "loves": "love", "enjoys": "enjoy", "prefers": "prefer", "adores": "adore",
    "hates": "hate", "dislikes": "dislike", "detests": "detest", "loathes": "loathe",
    "despises": "despise", "avoids": "avoid", "wants": "want", "eats": "eat", "drinks": "drink",
    "wears": "wear", "uses": "use", "buys": "buy", "needs": "need", "favours": "favour",
    "favors": "favor",
}  # fmt: skip
_LABEL_VERB_RE = re.compile(rf"^(?:{'|'.join(_LABEL_VERBS)})\b", re.IGNORECASE)
_NEGATORS = re.compile(
    r"^(?:(?:is|am|'m)\s+)?(?:no\s+longer|not|no|never|without|avoid(?:s|ing)?|zero|"
    r"anything\s+but|nothing\s+with)\s+(?:(?:allergic|intolerant)\s+(?:to|of)\s+)?",
    re.IGNORECASE,
)
_ZH_STANCE_RE = re.compile(
    r"喜欢|爱|讨厌|厌恶|反感|不要|不想|不吃|不喝|不用|不穿|不买|过敏|不耐|受不了|戒|偏好|怕"
)
_CLAUSE_RE = re.compile(
    r"^(?:is|are|am|was|were|has|have|had|'s|'m)\b|"
    r"(?<!\bthat)(?<!\bwhich)(?<!\bwho)\s+(?:is|are|am|was|were|isn't|aren't)\b",
    re.IGNORECASE,
)
"""A label that is a clause (a copula after its subject, or leading): not an object phrase."""


_EN_STANCE_PREFIX_RE = re.compile(
    r"^(?:(?:i|i'm|i've|i'd|has|have|had|is|am|are|was|were|does|did|do|doesn't|don't|"
    r"didn't|isn't|hasn't|haven't|never|no\s+longer|not|now|really|just|recently|finally|"
    r"also|still|totally|completely|actually|kind\s+of|sort\s+of|it\s+turns\s+out|turns\s+out|"
    r"turned\s+out|started|begun|began|come\s+to|grown\s+to|learned\s+to|learnt\s+to|"
    r"decided\s+to|going\s+to|want\s+to|wants\s+to|will|would|can't|cannot|won't|"
    r"been|become|getting|got)\s+)*"
    r"(?!(?:it|this|that|there|he|she|they|we|you|what|which|who|my|the|a|an)\b)[a-z]+(?:'[a-z]+)?(?:\s+(?:off|up|out|on|of|with|to|from|away\s+from|into|over))?\s+"
    r"(?:(?:eating|drinking|using|wearing|buying|having|doing|watching|playing|reading)\s+)?",
    re.IGNORECASE,
)
"""A stance's verb group at the start of a label (``has gone off``, ``has stopped eating``,
``turns out loves``): whatever the verb, the object is what follows it."""
_EN_TOPIC_RE = re.compile(
    r"^(?P<np>(?!(?:i|it|this|that|these|those|my|he|she|they|we|you|there|what|which)\b)"
    r"[a-z][a-z' -]{1,60}?)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+|just\s+)?"
    r"(?:off|out|no\s+longer|not|my|a|the|so|really|too|great|awful|terrible|amazing|the\s+best|"
    r"the\s+worst|dead|over|done|back|a\s+no)\b",
    re.IGNORECASE,
)
"""A topic-fronted label (``suede jackets are off the menu now``): the object is the subject."""


MAX_LABEL_WORDS = 8
"""Only a short label is read by its object alone (``has gone off suede jackets``); a longer
sentence no stance rule reads (``Due to my allergies, I require …``) gives no object: a wrong
object merges or supersedes an unrelated preference."""
MAX_LABEL_CHARS_ZH = 16
"""The same bound for Chinese, in characters."""
_EN_NOT_A_VERB_RE = re.compile(
    r"^(?:due|because|as|for|with|in|on|at|if|when|since|while|although|though|after|before|"
    r"so|and|but|or|the|a|an|my|our|your|their|his|her|its|i|we|you|they|he|she|it)\b",
    re.IGNORECASE,
)
"""A sentence that starts with a preposition, a conjunction, an article or a pronoun has no
leading stance verb to strip (a topic-fronted label starts with its noun)."""


def _bare_object(content: str) -> list[str]:
    """Keywords of the object a label names, whatever its stance verb (issue 17).

    Used only when no stance rule reads the sentence: the writer gave the polarity, so only
    the object is needed. English: the topic of a topic-fronted label, else what follows
    the leading verb group, cut at its first clause boundary (capture's :func:`cut_en`).
    Chinese: the first noun phrase of the segmenter (:func:`~.capture.segment.noun_runs`),
    which also finds a topic-fronted object (``螺蛳粉现在不吃了`` → ``螺蛳粉``); a noun that
    only frames the object (``口感``) is skipped.
    """
    if has_cjk(content):
        if len(content) > MAX_LABEL_CHARS_ZH:
            return []
        for run in noun_runs(to_simplified(content)):
            if run in ZH_GENERIC or run in ZH_DROPPED_HEADS:
                continue
            found = resolve(run, True, None)
            keywords = object_keywords(found.display) if found else []
            if keywords:
                return keywords
        return []
    text = content.strip()
    if len(text.split()) > MAX_LABEL_WORDS or _EN_NOT_A_VERB_RE.match(text):
        return []
    topic = _EN_TOPIC_RE.match(text)
    rest = topic.group("np") if topic else _EN_STANCE_PREFIX_RE.sub("", text, count=1)
    if not rest or rest == text and not topic or _CLAUSE_RE.match(rest):
        return []
    found = resolve(cut_en(rest).display, False, None)
    return object_keywords(found.display) if found else []


@dataclass(frozen=True)
class DerivedObjects:
    """Objects read from a preference sentence.

    Attributes:
        keywords: Normalised keywords (``["velvet", "curtain"]``); empty when
            nothing specific was found (then the gate takes no action on it).
        slot: The single-valued slot the sentence fills, if capture read one.
        groups: The keywords object by object: ``likes coffee and tea`` is two
            objects (``[["coffee"], ["tea"]]``), ``likes plastic water bottles``
            one object with two facets (``[["plastic", "water bottle"]]``).
    """

    keywords: list[str]
    slot: str | None = None
    groups: tuple[tuple[str, ...], ...] = ()


def _first_person(content: str) -> str:
    """``likes velvet curtains`` → ``I like velvet curtains``; other text unchanged."""
    text = content
    for pattern, replacement in _LABELS:
        text = pattern.sub(replacement, text, count=1)
    return _LABEL_VERB_RE.sub(lambda m: "I " + _LABEL_VERBS[m.group(0).lower()], text, count=1)


def _restated(content: str, polarity: Polarity) -> str:
    """The sentence restated as a first-person stance, for a label no rule reads."""
    if has_cjk(content):
        if _ZH_STANCE_RE.search(content):
            return ""  # a stance the rules read but whose object is unusable (``不喜欢这个``)
        return f"我喜欢{content}。" if polarity == "like" else f"我不要{content}。"
    if _CLAUSE_RE.search(content):
        return ""  # a whole statement no rule reads: its words are no object
    if re.match(r"(?:i|we|due|because|since|as|if|when)\b", content, re.IGNORECASE):
        return ""  # the speaker's own sentence no rule reads (``Due to my allergies, I …``)
    rest = _NEGATORS.sub("", _LABEL_VERB_RE.sub("", content)).strip()
    return f"I like {rest}." if polarity == "like" else f"I don't want {rest}."


def derive_objects(content: str, polarity: Polarity) -> DerivedObjects:
    """See :func:`_derive_objects` (cached: the gate asks for one sentence's objects several
    times per write); the result's lists are the caller's own."""
    found = _derive_objects(content, polarity)
    return DerivedObjects(list(found.keywords), found.slot, found.groups)


@lru_cache(maxsize=8192)
def _derive_objects(content: str, polarity: Polarity) -> DerivedObjects:
    """Keywords (and slot) of a preference sentence that came without keywords.

    Tried in order, first that yields keywords wins: the sentence as a
    first-person statement (third-person labels rewritten, ``likes X`` → ``I
    like X``); the sentence with leading negators stripped, restated in the
    candidate's polarity (``no plastic please`` → ``I don't want plastic
    please.``, ``皮鞋`` → ``我喜欢皮鞋。``); the object after any stance verb, or the
    topic of a topic-fronted sentence (``has gone off suede jackets``, ``螺蛳粉现在不吃了``:
    :func:`_bare_object`), since the candidate already says its polarity. Pronouns
    without an antecedent (``likes it``) give nothing. Only stances of the candidate's own
    polarity count: ``likes everything except pizza`` is not a like of pizza, and
    ``prefers tea over coffee`` is a like of tea alone.

    Args:
        content: The preference sentence, e.g. ``"does not want velvet curtains"``
            or ``"不要皮鞋"``.
        polarity: The candidate's polarity: the stances kept, and how a bare label is restated.

    Returns:
        The objects; ``keywords`` is empty when nothing specific remains.
    """
    text = clean_text(content)
    if not text:
        return DerivedObjects([])
    for attempt in (_first_person(text), _restated(text, polarity)):
        found = [c for c in extract_preferences(attempt) if c.polarity == polarity]
        groups = [
            tuple(dict.fromkeys(k for k in map(normalise_keyword, c.keywords) if k)) for c in found
        ]
        keywords = [k for group in groups for k in group]
        if keywords:
            slot = next((c.slot for c in found if getattr(c, "slot", None)), None)
            return DerivedObjects(
                list(dict.fromkeys(keywords)), slot, tuple(dict.fromkeys(g for g in groups if g))
            )
    bare = [k for k in map(normalise_keyword, _bare_object(text)) if k]
    if bare:
        bare = list(dict.fromkeys(bare))
        return DerivedObjects(bare, None, (tuple(bare),))
    return DerivedObjects([])


@dataclass(frozen=True)
class ObjectForm:
    """One object of a preference: its keywords (modifiers and head) and its qualifiers.

    Attributes:
        keywords: Normalised keywords, the head last (``["smoked sausage with mash"]``,
            ``["silk", "sheet"]``).
        qualifiers: Modifier words the keywords leave out (``restaurants that only take
            cash`` → ``{"take", "cash"}``: :func:`~.capture.keywords.object_qualifiers`).
    """

    keywords: tuple[str, ...]
    qualifiers: frozenset[str] = frozenset()


@lru_cache(maxsize=8192)
def object_forms(
    content: str, polarity: Polarity, keywords: tuple[str, ...]
) -> tuple[ObjectForm, ...]:
    """The objects of a preference with their qualifiers (issue 17).

    Like :func:`object_groups`; each group also carries the qualifier words of its phrase
    in the content, read from where its first keyword is named up to the clause boundary
    (so ``dislikes coffee because it is bitter`` has none). Qualifiers are read when the
    content's own keywords are among the stored ones (a merged preference holds the union of
    its mentions' keywords); other keywords given by the writer are one object with no
    qualifiers: the writer said what the object is.

    Returns:
        One form per object; ``(ObjectForm(keywords),)`` when the content shows nothing more.
    """
    groups = object_groups(content, polarity, keywords)
    derived = derive_objects(content, polarity)
    if not derived.keywords or not set(derived.keywords) <= set(keywords) or has_cjk(content):
        return tuple(ObjectForm(tuple(g)) for g in groups)
    forms = []
    for index, group in enumerate(groups):
        siblings = [k.split(" with ", 1)[0] for g in groups if g is not group for k in g]
        qualifiers = _qualifiers_in(content, group, [*group, *siblings])
        if index and len(groups[0]) > 1:  # "vegan makeup and beauty products": vegan is shared
            qualifiers |= {w for k in groups[0][:-1] for w in k.split(" ")} - set(group)
        forms.append(ObjectForm(tuple(group), frozenset(qualifiers)))
    return tuple(forms)


def object_words(form_set: tuple[ObjectForm, ...]) -> frozenset[str]:
    """Every word that names a preference's objects: keywords and qualifiers together.

    Two preferences of one polarity merge only when these agree (issue 17): ``hotels near
    the airport`` and ``hotels that only take cash`` share the keyword ``hotel`` and are
    still two preferences; ``coffee and tea`` and ``tea and coffee`` are one.
    """
    named = {w for f in form_set for k in f.keywords for w in re.split(r"[\s-]+", k) if w}
    return frozenset(named | {q for f in form_set for q in f.qualifiers})


def _qualifiers_in(content: str, group: list[str], named: list[str]) -> frozenset[str]:
    """Qualifiers of the object phrase that starts where ``group``'s first word is named
    (the words of ``named``, its own keywords and its coordinated siblings' heads, are
    none: ``coffee and tea``; a sibling's own qualifier is shared: ``shows or movies with
    graphic violence``)."""
    if not group:
        return frozenset()
    first = group[0].replace("-", " ").split(" ")[0]
    lowered = content.lower()
    for stem in dict.fromkeys((first, first[: max(3, len(first) - 2)])):
        found = re.search(rf"\b{re.escape(stem)}", lowered)
        if found:
            return object_qualifiers(object_span(content[found.start() :]), named)
    return frozenset()


@lru_cache(maxsize=4096)
def object_groups(content: str, polarity: Polarity, keywords: tuple[str, ...]) -> list[list[str]]:
    """The objects a stored preference is about, each a list of normalised keywords.

    A preference whose keywords are the ones its content derives keeps the content's
    objects apart (``likes coffee and tea`` → ``[["coffee"], ["tea"]]``); keywords given
    by the writer are one object, as they always were. The gate supersedes a preference
    only when a newer statement covers *every* one of its objects, so ``dislikes tea``
    leaves ``likes coffee and tea`` alone (DESIGN.md §6.3).

    Args:
        content: The preference sentence.
        polarity: Its polarity.
        keywords: Its normalised keywords.

    Returns:
        One or more keyword lists; ``[list(keywords)]`` when the content shows no
        separate objects.
    """
    derived = derive_objects(content, polarity)
    if len(derived.groups) > 1 and set(derived.keywords) == set(keywords):
        return [list(g) for g in derived.groups]
    return [list(keywords)]


def retracted_objects(content: str) -> list[str]:
    """Keywords of the allergies or intolerances a sentence explicitly takes back.

    Only the retraction's own clause counts: ``I love tree nuts, I'm not allergic to
    cats`` retracts ``cat``, never ``tree nut``, so a like that merely mentions some
    other retraction cannot lift a protected allergy (DESIGN.md §6.3).

    Args:
        content: A preference sentence, e.g. ``"no longer allergic to peanuts"``.

    Returns:
        Normalised keywords of the retracted objects; empty when nothing is retracted.
    """
    text = clean_text(content)
    if not text or not is_retraction(text):
        return []
    found = extract_preferences(_first_person(text))
    keywords = [
        normalise_keyword(k)
        for c in found
        if c.polarity == "like" and is_retraction(c.content)
        for k in c.keywords
    ]
    return list(dict.fromkeys(k for k in keywords if k))


def only_retracts(content: str) -> bool:
    """Whether a sentence does nothing but take back allergies or intolerances.

    ``"I'm not allergic to eggs anymore"`` only retracts (it lifts the allergy and
    states no like of eggs, issue 17); ``"I love cashews again: I'm no longer allergic
    to tree nuts"`` also states a like of cashews, so it does not.

    Args:
        content: A preference sentence.

    Returns:
        True when every preference read from ``content`` is a retraction and at least
        one is.
    """
    text = clean_text(content)
    if not text or not is_retraction(text):
        return False
    found = extract_preferences(_first_person(text))
    return bool(found) and all(c.polarity == "like" and is_retraction(c.content) for c in found)


__all__ = [
    "DerivedObjects",
    "ObjectForm",
    "derive_objects",
    "object_forms",
    "object_groups",
    "object_words",
    "only_retracts",
    "retracted_objects",
]

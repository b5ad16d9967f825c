"""Stances no stance rule read: from a clause's kind and from an ellipsis.

:mod:`.extract` tries the stance rules first. When none matches, a clause may still state a
preference:

- the statement head reads a polar kind in it (:func:`kind_stance`), and the object is the
  noun phrase the rules pull (:mod:`.kinds`) or the topic the clause before named;
- it repeats the clause before with its polarity turned (:func:`elliptic_stance`: ``…, but I
  do now``).

What the object tagger reads of a whole sentence is :mod:`.tagged_sides`.
"""

from __future__ import annotations

import re

from ...model import Polarity, has_cjk
from .allergies import mentions_allergy, states_no_symptom
from .changes import ZH_PRESENT
from .clauses import Speaker, clause_speaker, located
from .kinds import (
    gives_a_role,
    labels_for,
    polar_mass,
    polarity_of,
    pull_object_en,
    strongest_kind,
)
from .negation import kept, negated_aversion, not_yet
from .objects import Cut, Object, is_pronoun, lower_sentence_start, resolve
from .orders import asks_for
from .past import left_behind, past_stretch
from .rules import Rule
from .rules_en_past import past_verdict
from .segment import names_a_thing_zh
from .stance import Context, Stance, elliptic, persists
from .statements import Kind
from .zh_objects import pull_object_zh

_NOW_RE = re.compile(ZH_PRESENT)
"""The present, in a Chinese clause that names what the user turned to."""


AGREED_MIN_P = 0.4
"""A head leans to a polarity (:func:`leaning`) whose kinds together have this probability
or more, and at least :data:`AGREED_MARGIN` times the other polarity's: under
:data:`~.kinds.NEW_MIN_P`, at which the head alone stores a noun the rules pull. Set before
measuring, with :data:`AGREED_MARGIN` and :data:`AGREED_TAG_MIN_P`, not tuned. Against the
tagger with no leaning, over the 35,101 texts of the repository's sets: 87 changed, and the
held-out sets got 9 more statements right and one amount limit wrong (``珍珠奶茶，快乐加倍！``,
``腊肠炒饭一闻就饿了``, "Beer has always tasted bitter and flat to me", ``周一早上是一周里
最难熬的时候``, all of which stored nothing)."""
AGREED_MARGIN = 2.0
"""See :data:`AGREED_MIN_P`."""
AGREED_TAG_MIN_P = 0.9
"""The least probability of an object the tagger marks, kept where the head only leans to its
polarity (:func:`leaning`); see :data:`AGREED_MIN_P`."""


def leaning(kind: Kind) -> tuple[Polarity, str] | None:
    """The polarity a reading leans to, below :data:`~.kinds.NEW_MIN_P`, and the kind of it
    read most: its polar kinds (:data:`~.kinds.POLAR_KINDS`) summed to :data:`AGREED_MIN_P`
    or more, :data:`AGREED_MARGIN` times the other polarity's; None where it leans to
    neither. Alone, a leaning stores nothing: only an object the tagger marks with that
    polarity (:func:`~.retagging.retagged`)."""
    mass = polar_mass(kind)
    best: Polarity = "like" if mass["like"] >= mass["dislike"] else "dislike"
    other: Polarity = "dislike" if best == "like" else "like"
    if mass[best] < AGREED_MIN_P or mass[best] < AGREED_MARGIN * mass[other]:
        return None
    return best, strongest_kind(kind, best)


def labelled_stance(
    obj: Object, display: str, polarity: Polarity, name: str, match: str,
    speaker: Speaker = "user",
) -> Stance:
    """A stance no stance rule matched: ``obj`` held with ``polarity``, its content the label
    of kind ``name`` in the language of ``match``, the words it was read in
    (:func:`~.kinds.labels_for`)."""
    label = labels_for(match, display)[name]
    words = {"verb": "", "adj": "", "slot": "", "match": match}
    return Stance(Rule(re.compile(r"^"), polarity, label), words, speaker, obj, polarity,
                  Cut(display))


def not_meant(text: str) -> set[Polarity]:
    """The polarities a text's words read as but do not state now: what the user left
    behind ("I used to like jazz": no like of it now, :func:`~.past.left_behind`), and a
    dislike in a negated aversion ("I don't mind cilantro", :func:`~.negation.
    negated_aversion`), in what the user keeps ("I could never quit sugar",
    :func:`~.negation.kept`) or in what has not happened yet (:func:`~.negation.not_yet`).
    The statement head and the object tagger read both the other way. Neither in a verdict
    told in the past and bounded to a past stretch ("I hated vim at first",
    :func:`~.past.past_stretch`): the head read it as coming round."""
    meant_not: set[Polarity] = set()
    if (left := left_behind(text)) is not None:
        meant_not.add(left)
    if negated_aversion(text) or kept(text) or not_yet(text):
        meant_not.add("dislike")
    if past_verdict(text) and past_stretch(text):  # "I hated vim at first": history only
        meant_not |= {"like", "dislike"}
    return meant_not


_EN_POINTS_BACK_RE = re.compile(r"\b(?:it|them)\b", re.I)
"""A pronoun that points back to the topic the clause before named."""
_NO_RETURN_RE = re.compile(
    r"\b(?:never|not|no)\s+(?:going|coming|looking|go|come|look)(?:ing)?\s+back\b(?!\s+to\b)|"
    r"回不去|回不了头|不(?:会|想|要)?再回去|再也不回(?:去|头)",
    re.IGNORECASE,
)
"""A clause that only says the user is not returning ("…and I'm never going back", ``再也回不去
了``): which way it goes is the clause before's (a thing left or taken up), not its own stance."""
_CONTRAST_RE = re.compile(
    r"\b(?:but|though|although|yet|however|whereas|while|still|now|anymore|no\s+longer|"
    r"these\s+days|nowadays|lately)\b|"
    r"但|可是|不过|却|现在|如今|再也|不再",
    re.IGNORECASE,
)
"""Words that set a clause against the one before it, or mark a change since."""


def contrasted(sentence: str, parts: list[str]) -> set[int]:
    """The positions in ``parts`` (the clauses of ``sentence``) of the clauses a word of
    contrast or change opens or holds (:data:`_CONTRAST_RE`); the English splitter drops its
    connector ("…, but it gives me goosebumps"), so it is looked for just before the clause."""
    return {i for i, part, _start, gap in located(sentence, parts)
            if i and (_CONTRAST_RE.search(gap) or _CONTRAST_RE.search(part))}


_EN_I_RE = re.compile(r"^\W*(?:(?:and|but|so|oh|well|also|just)\s+)*i\b", re.IGNORECASE)
"""A clause the user opens ("I want…", "so I'd like…"): a want of theirs may be a like."""


def _against_clause_before(context: Context, polarity: Polarity, kind: str, topic: Object) -> bool:
    """Whether a clause that names no object would turn what the clause just before it in the
    same sentence read of that object, with no word of contrast or change (:func:`contrasted`):
    "Anime openings are elite, I never skip them", "Long haul flights are brutal, I dread them
    every time" say more of the same stance (the statement head misreads them), not its
    opposite."""
    return bool(context.in_sentence and not context.contrast and kind in ("like", "dislike")
                and context.last_polarity not in (None, polarity)
                and context.antecedent is not None and topic.display == context.antecedent.display)


def kind_stance(
    clause: str, context: Context, kind: Kind | None, topic: Object | None = None
) -> Stance | None:
    """A stance the rules did not read, from the clause's kind and the object rules pull, or,
    when the clause names none, the ``topic`` the clause before named. A reply to a topic put up
    as a question (``topic`` at a sentence's start: "Velcro shoes? absolutely not") needs only
    a :func:`leaning`, where it names no object of its own."""
    read = polarity_of(kind) if kind is not None else None
    replied = False
    if read is None and kind is not None and topic is not None and not context.previous:
        read, replied = leaning(kind), True
    if read is None:
        return None
    polarity, label_kind = read
    if clause_speaker(clause) == "other" or context.speaker == "other":
        return None
    if label_kind in ("flip_like", "flip_dislike") and mentions_allergy(clause):
        return None  # an allergy over or not is for its readers, with their vetoes
    if polarity in not_meant(clause) or states_no_symptom(clause):
        return None  # (or "…and not a single hive": a symptom absent is no taste)
    zh = has_cjk(clause)
    if asks_for(clause) and (polarity == "dislike" or not _EN_I_RE.match(clause)):
        return None  # "Fetch me a coffee": an order, no taste (the head read it as a dislike)
    raw = pull_object_zh(clause) if zh else pull_object_en(clause)
    if raw is None and topic is None and context.previous and not zh and gives_a_role(clause):
        raw = pull_object_en(context.previous)  # "I tried padel, it's my new obsession"
    if raw and topic is not None and topic == context.antecedent and not (
        zh or context.in_sentence
    ) and _EN_POINTS_BACK_RE.search(clause):
        raw = None  # "Jazz? Could listen to it all day": *it* is the question's topic
    changed_mind = label_kind in ("flip_like", "flip_dislike", "quit") and topic is not None
    if raw and zh and changed_mind and not names_a_thing_zh(raw):
        raw = None  # 漫威以前每部都冲，现在懒得看: no noun here (懒得); the topic before is it
    if raw and replied:
        return None  # "Hiking? I'd rather swim": a leaning is not enough for its own object
    if raw:
        display = raw if zh else lower_sentence_start(raw)
        obj = resolve(display, zh, context.antecedent, initial=not zh)
    elif topic is not None and not (
        polarity == "dislike" and context.last_polarity == "like" and topic.zh
        and topic.display in context.previous and _NOW_RE.search(context.previous)
    ):  # ``现在全用飞书了，钉钉早卸载了``: what is left is not what the user just turned to
        if _against_clause_before(context, polarity, label_kind, topic) or _NO_RETURN_RE.search(
                clause):  # fmt: skip
            return None
        obj, display, zh = topic, topic.display, topic.zh
    else:
        return None
    if obj is None or is_pronoun(obj.display):
        return None
    return labelled_stance(obj, display, polarity, label_kind, clause, "unknown")


_EN_ALLOWED_RE = re.compile(
    r"^\W*(?:(?:but|though|although|still)\s+)?(?P<obj>(?!(?:it|that|this|they|these|those|the|"
    r"i|everything|anything|whatever|whichever|my|our|your|his|her|their|today'?s|tonight'?s)"
    r"\b)[^,;]+?)\s+(?:is|are|'s|'re)\s+(?:still\s+)?(?:(?:totally|perfectly|"
    r"just|absolutely|actually)\s+)?(?:fine|ok|okay|alright|all\s+right|allowed)"
    r"(?:\s+(?:by|with|for)\s+me)?\W*$",
    re.IGNORECASE,
)
_ZH_ALLOWED_RE = re.compile(
    r"^(?:不过|但是?|可是|只是)?(?!现在|如今|今天|明天|昨天|周末|这|那|你)"
    r"(?P<obj>[^，,。！!？?我都也完全]{1,10}?)(?:倒是|倒|还是)?"
    r"(?:还行|可以|没问题|没事|能吃|能喝|照吃|照喝)(?:的|吧|啦|哈)?[。！!～~]*$"
)
"""A thing the clause says is all right: "bacon is fine", ``培根还行``; not a particular one ("the
weather is fine", "my hotel is fine", ``今天的会还行``, ``这部还行``), nor all there is now
(``现在整个蛋都能吃啦`` names what an allergy no longer forbids)."""


def excepted_stance(clause: str, context: Context) -> Stance | None:
    """``I don't eat pork anymore, but bacon is fine`` / ``猪肉我不吃了，不过培根还行``: a thing set
    against a dislike of the same sentence as all right is its exception, liked. Alone, "X is
    fine" states nothing ("the weather is fine"); after the user's own dislike and a word of
    contrast, it says where that dislike stops."""
    if not (context.in_sentence and context.contrast and context.last_polarity == "dislike"
            and context.speaker == "user"):
        return None
    zh = has_cjk(clause)
    if (m := (_ZH_ALLOWED_RE if zh else _EN_ALLOWED_RE).match(clause.strip())) is None:
        return None
    raw = m["obj"].strip() if zh else pull_object_en(m["obj"], alone=True)
    if not raw or is_pronoun(raw) or (context.antecedent is not None
                                      and raw == context.antecedent.display):
        return None
    return labelled_stance(Object(raw, zh), raw, "like", "like", clause)


def elliptic_stance(clause: str, context: Context) -> Stance | None:
    """``…, but I do now`` / ``…, not anymore``: the previous clause's object, turned;
    ``…, and I still do``: the previous clause's stance, held now (:func:`~.stance.persists`;
    after a stance the user left behind too, "Hated spicy food as a kid, and I still do")."""
    polarity, name = elliptic(clause), ""
    if polarity is None and persists(clause) and context.last_polarity is not None:
        polarity = name = context.last_polarity
    if polarity is None:
        return None
    obj = context.antecedent if context.in_sentence else None
    if obj is None and context.previous and (raw := pull_object_en(context.previous)):
        obj = resolve(lower_sentence_start(raw), False, None, initial=True)
    obj = obj or context.mentioned
    if obj is None or obj.zh:
        return None
    name = name or ("flip_like" if polarity == "like" else "flip_dislike")
    return labelled_stance(obj, obj.display, polarity, name, clause)


__all__ = [
    "AGREED_MARGIN", "AGREED_MIN_P", "AGREED_TAG_MIN_P", "contrasted", "elliptic_stance",
    "excepted_stance",
    "kind_stance",
    "labelled_stance", "leaning", "not_meant",
]

"""A change of mind told as then and now (``I used to love burgers but I'm over them now``,
``美剧以前追得可起劲，现在懒得看了``).

A sentence whose earlier clause is marked as the past (``used to``, ``back then``,
``以前``, ``原来``…) and whose later clause is marked as the present or turns against it
(``now``, ``anymore``, ``but``, ``现在``, ``如今``, ``但``…) states the later state. The
past clause is history: what it says is not stored as the user's preference now. When
the present clause says no stance that rules or the statement head can read (``I'm over
them now``, ``现在懒得看了``), it says the past one has turned: the object the past clause
names is stored with the opposite of the polarity the past clause has.

The markers are words of time and contrast, never objects or stance phrasings; the
polarities come from the stance rules (on the past clause without its marker) or from
the statement head's reading of each clause (:mod:`.statements`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ...model import Polarity, PreferenceCandidate, has_cjk
from ..lexical import ENGLISH_STOP_WORDS
from .clauses import EN_PEOPLE_RE, clause_speaker
from .kinds import labels_for, polarity_of, pull_object_en
from .object_tagger import default_tagger
from .objects import is_pronoun, lower_sentence_start, resolve
from .past import (
    EN_NOW_RE,
    EN_NOW_SINCE_RE,
    EN_THEN_RE,
    ZH_THEN_RE,
    said_now,
    said_then,
)
from .rules_en_past import past_verdict
from .statements import Kind
from .structures import Part, part_candidate
from .switches import ZH_V
from .zh_objects import pull_object_zh
from .zh_subjects import fronted_topic

_EN_WAS = {"was": "is", "were": "are", "i was": "I am"}
"""The present of a past ``was`` marker, to read its clause without the past: "Pilates was my
favourite workout" → "Pilates is my favourite workout", whose rules read the like."""
_EN_USED_TO_IT_RE = re.compile(
    r"\b(?:am|'m|are|'re|is|get|got|getting|be|been)\s+(?:\w+\s+){0,2}used\s+to\b",
    re.IGNORECASE,
)
"""``I'm used to spicy food``: accustomed, not the past."""
THEN_MIN_P = 0.55
"""The past clause's polarity is read from the head when its plain like or dislike reaches
this (a lower bar than :data:`~.kinds.NEW_MIN_P`: the present clause's turning, not this
reading, is what makes the statement)."""

TURN_MIN_P = 0.6
"""The structure head's reading of a whole then-and-now sentence gives the way it turned when
its turning kinds of one way (coming round to it; going off it or quitting) reach this."""
TAGGED_MIN_P = 0.8
"""The object tagger names a then-and-now sentence's object, where the rules read none in its
past clause, when it marks one at this mean probability or more (as
:data:`~.retagging.RETAG_MIN_P`)."""

_OPPOSITE: dict[Polarity, Polarity] = {"like": "dislike", "dislike": "like"}


_ZH_PERSON_RE = re.compile(
    r"[他她]|(?:老公|老婆|室友|同事|朋友|妈妈|爸爸|孩子|儿子|女儿|男朋友|女朋友|闺蜜|老板|"
    r"哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|对象|我妈|我爸|我姐|我哥|我弟|我妹)"
)
"""Someone else in a Chinese clause of a then-and-now sentence, wherever they stand
(``以前室友爱吃香菜``, ``现在她不吃了``): the change is theirs, not the user's."""


_THEY_RE = re.compile(
    r"\b(?:they(?:'re|'ve)?|s?he(?:'s)?)\b"
    r"(?!\s+(?:say|said|think|thought|told|tell|reckon|claim|keep\s+saying)\b)",
    re.IGNORECASE,
)
"""``they`` in a sentence that names no one ("now they just stress me out", "now they're on
repeat"): the things the past clause named; not a report ("they say it's unhealthy"). ``he``
or ``she`` too, where the past clause names someone by name and no one else is in the sentence
("Used to adore Adele, but now she annoys me": the artist, not another person's stance)."""
_PRONOUNS = frozenset("he she they him her them his their".split())
_HE_SHE = _PRONOUNS - {"they", "them", "their"}


def _someone_else(clause: str, people: bool) -> bool:
    """Whether a clause of a then-and-now sentence is another person's; ``people``: whether
    the sentence names someone other than by ``they`` ("Mum used to…")."""
    if has_cjk(clause):
        return bool(_ZH_PERSON_RE.search(clause))
    if not people:  # "now they make me gag": the things the past clause named, not people
        clause = _THEY_RE.sub("it", clause)
    bare = (EN_THEN_RE.sub(" ", EN_NOW_RE.sub(" ", clause))).strip(" ,;")
    return clause_speaker(clause) == "other" or clause_speaker(bare) == "other"


def then_and_now(parts: Sequence[str]) -> tuple[int, int] | None:
    """Indices of the past clause and of the first later clause marked as the present,
    or None when the sentence is not told as then and now, or another person is in it."""
    for then, clause in enumerate(parts):
        marked = said_then(clause)
        verdict = not marked and past_verdict(clause)
        if not (marked or verdict) or _EN_USED_TO_IT_RE.search(clause):
            continue
        for now in range(then + 1, len(parts)):
            later = EN_NOW_SINCE_RE.search(parts[now]) if verdict else said_now(parts[now])
            if later and not said_then(parts[now]):
                named = _HE_SHE if _EN_NAME_RE.search(parts[then]) else frozenset()
                people = any(m.group(0).lower() not in {"they", "them", *named}
                             for part in parts for m in EN_PEOPLE_RE.finditer(part))
                if any(_someone_else(part, people) for part in parts[then : now + 1]):
                    return None
                return then, now
        return None
    return None


def _past(
    clause: str, said: Kind | None, reader: Callable[[list[str]], list[Kind]] | None
) -> Polarity | None:
    """The polarity the head reads in a past clause once its marker is out (``bare``): its
    plain like or dislike at :data:`THEN_MIN_P` or more (a change of mind or quitting says
    nothing of which way the past went), and only when the clause as said (``said``, marker
    in) does not lean the other way on its plain like and dislike."""
    if reader is None or not clause:
        return None
    kind = reader([clause])[0]
    like, dislike = kind.of("like"), kind.of("dislike")
    if max(like, dislike) < THEN_MIN_P:
        return None
    polarity: Polarity = "like" if like > dislike else "dislike"
    if said is not None:
        leans = said.of("like") - said.of("dislike")
        if (leans < -0.2 and polarity == "like") or (leans > 0.2 and polarity == "dislike"):
            return None
        went = said.of("quit") + said.of("flip_dislike") - said.of("flip_like")
        if (went >= 0.5 and polarity == "dislike") or (went <= -0.5 and polarity == "like"):
            return None  # "I used to smoke" read as quitting: the bare "I smoke" misreads
    return polarity


_EN_BACK_RE = re.compile(r"\b(?:it|them|they|s?he|him|her)\b", re.IGNORECASE)
_ZH_BACK_RE = re.compile(r"它|这玩意|那玩意")
_EN_NAME_RE = re.compile(r"(?<!^)(?<![.!?]\s)\b(?!I\b)[A-Z]")
_ALLERGY_RE = re.compile(r"过敏|不耐受|allerg|intoleran", re.IGNORECASE)
_NO_TURN_RE = re.compile(
    r"\b(?:still|more\s+than\s+ever|even\s+more|as\s+much|too|as\s+well|not\s+sure|"
    r"no\s+idea|don'?t\s+know|maybe)\b|还是|依然|仍然|照样|依旧|更|不确定|说不好|不知道",
    re.IGNORECASE,
)
"""A present clause that goes on with the past (``…and I still do now``) or is unsure
(``now I'm not sure``): no turn to read."""


def _turn(whole: Kind | None) -> Polarity | None:
    """The way the structure head reads a whole then-and-now sentence turning (``鹅肝以前觉得腻，
    现在觉得绵密好吃``: coming round to it), at :data:`TURN_MIN_P`; None without that head.
    Read whole, a sentence says which way it went; its present clause alone (``现在觉得绵密好吃``)
    often does not, and the statement head read that one as going off it."""
    if whole is None or whole.structure is None:
        return None
    read = whole.for_structure()
    like, dislike = read.of("flip_like"), read.of("flip_dislike") + read.of("quit")
    if max(like, dislike) < TURN_MIN_P:
        return None
    return "like" if like > dislike else "dislike"


def _refers_back(clause: str) -> bool:
    """Whether a present clause's object is the past clause's: ``it`` or ``them`` with no
    name of its own (``now I put it on everything``; not ``now it's all about Pepsi``),
    ``它`` in Chinese."""
    if has_cjk(clause):
        return bool(_ZH_BACK_RE.search(clause))
    return bool(_EN_BACK_RE.search(clause)) and not _EN_NAME_RE.search(clause)


def _tagged(parts: Sequence[str], then: int, polarity: Polarity) -> str | None:
    """The object the tagger marks in the past clause, reading the whole sentence, at
    :data:`TAGGED_MIN_P`, of ``polarity`` where it marks one of each
    (``曾经是王者荣耀重度玩家，现在看到图标就累``: 王者荣耀, where the noun run is the whole
    ``王者荣耀重度玩家``). One marked only in the present clause (``现在觉得香甜可口``, or what a
    switch turned to) is none."""
    zh = has_cjk(parts[0])
    people = [m.group(0).lower() for part in parts  # not the "kid" of "as a kid"
              for m in EN_PEOPLE_RE.finditer(EN_THEN_RE.sub(" ", part))]
    if not zh and set(people) - _PRONOUNS:  # (a pronoun's holder is the clause's speaker)
        return None  # "Mum used to live on Coke…": the tagger reads words, not whose they are
    past = parts[then].lower()
    found = [o for o in default_tagger().objects(("，" if zh else ", ").join(parts))
             if o.p >= TAGGED_MIN_P and o.text.lower() in past]
    if not found:
        return None  # one only in the present clause is what a switch turned to
    best = max(found, key=lambda o: (o.polarity == polarity, o.p))
    zh = has_cjk(best.text)
    if zh:
        text = best.text.lstrip("的")  # (曾经不屑一顾)的国产剧
    else:  # "e-books and": the run's edges may be function words
        words = best.text.split()
        while words and words[-1].lower() in ENGLISH_STOP_WORDS:
            words.pop()
        text = lower_sentence_start(" ".join(words)) if words else ""
    obj = resolve(text, zh, None, initial=not zh)
    return obj.display if obj is not None and not is_pronoun(obj.display) else None


def _named_back(
    then: str, now: str, rules: Callable[[str], list[PreferenceCandidate]]
) -> Polarity | None:
    """The polarity the rules read in a present clause that refers back to the past one once
    its pronoun names the past clause's object ("Playdates used to be fun, now they just stress
    me out": "now Playdates just stress me out", a dislike); the pronoun alone has no
    antecedent where no rule read the past clause. None when they read none or both."""
    if has_cjk(now) or not _refers_back(now) or (obj := _object(then)) is None:
        return None
    named = _EN_BACK_RE.sub(obj, now, count=1)
    read = {c.polarity for c in rules(named)}
    return read.pop() if len(read) == 1 else None


def _was_only(clause: str) -> bool:
    """Whether a clause's only marker of the past is a ``was`` of who the user was or what was
    theirs ("Dune was my favourite book"): a past tense, which says nothing of a turn until the
    present clause says one ("…, now it's a movie" says none)."""
    if has_cjk(clause):
        return False
    found = [m.group(0).lower() for m in EN_THEN_RE.finditer(clause)]
    return bool(found) and all(word in _EN_WAS for word in found)


_USED_TO_BE_RE = re.compile(r"\bused\s+to\s+be\b", re.IGNORECASE)


def _without_then(clause: str) -> str:
    """The clause with its past marker out (``I used to love burgers`` → ``I love burgers``)."""
    if has_cjk(clause):
        bare = ZH_THEN_RE.sub(" ", clause)
    else:
        clause = _USED_TO_BE_RE.sub("is", clause)  # "romcoms used to be my go-to"
        bare = EN_THEN_RE.sub(lambda m: f" {_EN_WAS.get(m.group(0).lower(), '')} ", clause)
    return re.sub(r"\s{2,}", " ", bare).strip()


def _object(clause: str) -> str | None:
    """The object a clause names (in Chinese with its marker kept first: ``真人秀以前追得勤``,
    where it ends the noun phrase)."""
    bare = _without_then(clause)
    if not has_cjk(clause):
        return pull_object_en(bare)
    return pull_object_zh(clause) or pull_object_zh(bare)


_ZH_LEFT_BARE_RE = re.compile(
    r"^(?P<obj>[^，,。！？!?我]{1,14}?)我?(?:真的|基本上?|早就|已经|彻底|现在|也|都)*"
    rf"(?P<verb>(?:不再?|没再|再也不)(?:{ZH_V}|打开|碰|坐|骑|开|刷|抽)|受够|卸载?|删掉?)了[啊呀啦哈～~！!。]*$"
)
"""A Chinese clause that leaves a thing named first and nothing after its verb
(``滴滴不用了``, ``Windows真的受够了``, ``网易云卸了``): alone, a quit or a one-off
(``晚饭不吃了``); beside a routine of now (:func:`_left_for_now`), the half of a switch
turned from."""
_LATIN_NAME_RE = re.compile(r"[A-Za-z][\w .+&'-]{0,30}")
"""A name in Latin letters (``Chrome``, ``VS Code``): a thing, which the segmenter tags as a
foreign word, not a noun."""
_ZH_COMPLAINT_RE = re.compile(
    r"^(?:真的|真是|真|太|好|很|简直|实在|也太|每天都)*(?:烦|恶心|难用|垃圾|无语|崩溃|痛苦|折磨|"
    r"受不了|头疼|头大|想吐|心累|闹心)(?:死了?|透了?|爆了?|得要命|到爆|人)?了?[啊呀啦吧哦。！!～~]*$"
)
"""A clause of complaint alone, about what the clause just before does (``烦死了``,
``真的恶心``): the routine before it is kept against the user's will. Not after a clause that
names its own object (``只戴机械表，智能手表天天要充电，烦死了``)."""
ZH_PRESENT = r"现在|如今|目前|最近|这两年|这几年"
"""Words that put a Chinese clause in the present, as what the user does now."""
_ZH_NOW_CHOICE_RE = re.compile(rf"{ZH_PRESENT}|全靠|只")


def _left_for_now(
    parts: Sequence[str], found: Sequence[list[PreferenceCandidate]], confidence: float
) -> list[PreferenceCandidate] | None:
    """A Chinese switch told as a thing left (:data:`_ZH_LEFT_BARE_RE`) beside what the user
    does now (``QQ音乐不用了，现在都用网易云``, ``Windows真的受够了，现在主力机是Mac``): every
    clause's candidates and a dislike of the thing left; or a routine complained of after it
    (:data:`_ZH_COMPLAINT_RE`, :func:`_forced`); None when the sentence is neither. The thing
    left must be a thing (:func:`~.zh_subjects.fronted_topic`), not a person."""
    now = [i for i, made in enumerate(found) if any(c.polarity == "like" for c in made)
           and _ZH_NOW_CHOICE_RE.search(parts[i])]  # fmt: skip
    if not now or not has_cjk(parts[now[0]]):
        return None
    left = []
    for i, clause in enumerate(parts):
        if i == now[0] + 1 and _ZH_COMPLAINT_RE.match(clause.strip()):  # what it read is junk
            return _forced(parts, [[] if j == i else f for j, f in enumerate(found)], now[0],
                           confidence)  # 现在都用钉钉，烦死了
        if i in now or found[i] or not (m := _ZH_LEFT_BARE_RE.match(clause.strip())):
            continue
        obj = m["obj"].strip()
        if not (fronted_topic(obj) or _LATIN_NAME_RE.fullmatch(obj)) or not (made := part_candidate(
                Part("dislike", obj, f"受够了{obj}" if m["verb"] == "受够" else
                     f"不再{m['verb'].lstrip('不再没也') if '不' in m['verb'] else '用'}{obj}"),
                confidence)):
            continue
        left.append(made)
    return [c for made in found for c in made] + left if left else None


def _forced(parts: Sequence[str], found: Sequence[list[PreferenceCandidate]], at: int,
            confidence: float) -> list[PreferenceCandidate]:
    """Every clause's candidates, the likes of clause ``at`` (a routine of now) turned into
    dislikes: a routine the user complains of is one they are made to keep, not a choice."""
    out = [c for i, made in enumerate(found) if i != at for c in made]
    for c in found[at]:
        turned = c.polarity == "like" and part_candidate(
            Part("dislike", c.keywords[0], f"不喜欢{c.keywords[0]}"), confidence)
        out.append(turned or c)
    return out


def changed(
    parts: Sequence[str],
    kinds: Sequence[Kind | None],
    found: Sequence[list[PreferenceCandidate]],
    rules: Callable[[str], list[PreferenceCandidate]],
    confidence: float,
    reader: Callable[[list[str]], list[Kind]] | None = None,
    whole: Kind | None = None,
) -> list[PreferenceCandidate] | None:
    """The candidates of a sentence told as then and now, or None when it is not one.

    Args:
        parts: The sentence's clauses.
        kinds: The head's reading of each clause (None without the head).
        found: The candidates each clause yielded, in order.
        rules: Rule capture of one clause (no head), to read the past clause's polarity.
        confidence: The candidates' confidence.
        reader: The statement head, to read the past clause without its marker when the
            rules do not (one more embedding, for such sentences only): with the marker, the
            head reads a past like as a change of mind (``厦门以前很喜欢``: went off it).
        whole: The heads' reading of the whole sentence (its structure head's with it).

    Returns:
        What the clauses yielded without the past clause's candidates, when a later clause
        yielded any that a rule read, or that agrees with the way the structure head reads
        the whole sentence turning (``whole``, :func:`_turn`); else the past clause's object
        (the tagger's where no rule reads it: :func:`_tagged`) with the present polarity:
        the opposite of the past clause's where a rule reads that, else the way the whole
        sentence turns, else the present clause's own (its head reading at
        :data:`~.kinds.NEW_MIN_P`), else the opposite of the past clause's as the head
        reads it without its marker (at :data:`THEN_MIN_P`, with only the plain like and
        dislike counted). Without a polarity, the other clauses' candidates (the past
        clause is history either way); None when no object can be read, for an allergy, or
        when the present clause goes on with the past one.
    """
    span = then_and_now(parts)
    if span is None:
        return _left_for_now(parts, found, confidence)
    then, now = span
    kept = [c for i, made in enumerate(found) if i != then for c in made]
    stated = any(found[i] for i in range(now, len(parts)))
    bare = _without_then(parts[then])
    ruled = rules(bare)
    before = {c.polarity for c in ruled}
    allergy = any(c.protected for c in ruled) or bool(_ALLERGY_RE.search(parts[then]))
    # the way it turned, where the whole sentence or a past the rules read says it
    was_only = _was_only(parts[then])  # "Dune was my favourite book, now it's a movie"
    turn = _turn(whole) or (
        _OPPOSITE[next(iter(before))] if len(before) == 1 and not was_only else None)
    if stated and not allergy and turn is not None and found[now] and (
        found[now][-1].polarity != turn
    ) and not any(rules(parts[i]) for i in range(now, len(parts))):
        stated = False  # only the head read the present clause, and the other way
        kept = [c for i, made in enumerate(found) if i not in (then, now) for c in made]
    if stated and not (found[now] and _refers_back(parts[now])):
        return kept
    if allergy:
        return None  # an allergy that has cleared is lifted by the retraction rules, not liked
    if _NO_TURN_RE.search(parts[now]):
        return None  # "…and I still do now": no change of mind
    by_rules = len(before) == 1
    past = before.pop() if by_rules else _past(bare, kinds[then], reader)
    held = _object(parts[then])  # the object the past clause names, if any
    if stated:  # "…; now I actually look forward to it": the present stance, on the past object
        polarity: Polarity | None = found[now][-1].polarity
        obj = held
        if not (obj or len(ruled) == 1):
            return kept
        kept = [c for i, made in enumerate(found) if i not in (then, now) for c in made]
    else:
        own = polarity_of(kind) if (kind := kinds[now]) is not None else None
        turned = None if was_only else past  # a past "was" alone says no turn
        polarity = _OPPOSITE[turned] if turned and by_rules else (
            _named_back(parts[then], parts[now], rules) or turn
            or (own[0] if own else (_OPPOSITE[turned] if turned else None)))
        obj = held or _object(parts[now])
    if polarity is None:  # which way it went is not read in the present clause or the whole
        went = polarity_of(read) if (read := kinds[then]) is not None else None
        if went is not None and went[1] in ("flip_dislike", "quit"):
            return None  # the past clause read as going off it ("Gel nails used to be my thing")
        return kept  # the past clause is history ("As a teen I found museums painfully dull")
    if not (obj or len(ruled) == 1):
        return None
    tagged = _tagged(parts, then, polarity)
    words = [w.lower() for w in (obj, ruled[0].keywords[0] if len(ruled) == 1 else None) if w]
    if tagged and " " not in tagged and any(w.startswith(tagged.lower() + " ") for w in words):
        tagged = None  # a modifier alone ("instant" of "instant ramen")
    if not (tagged or stated or held) and _refers_back(parts[now]):
        return None  # "Used to follow Elon Musk, now he annoys me": *annoys* is no object
    obj = tagged or obj
    label = labels_for(parts[then], obj or "")[
        polarity if polarity == past else ("flip_like" if polarity == "like" else "flip_dislike")
    ]
    made = part_candidate(Part(polarity, obj, label.format(obj=obj)), confidence) if obj else None
    if not tagged and len(ruled) == 1 and (
        made is None or set(made.keywords) != set(ruled[0].keywords)
    ):
        # The rules read the past clause's object better than the noun run ("I used to dread
        # jogging": ``jogging``, not ``dread jogging``); the tagger, where it marks one, better
        # than either (``曾经对网购嗤之以鼻``: ``网购``, not ``网购嗤之以鼻``).
        shown = ruled[0].keywords[0]
        made = ruled[0].model_copy(update={
            "polarity": polarity, "content": label.format(obj=shown), "slot": None,
            "protected": None if polarity == "like" else ruled[0].protected,
        })  # fmt: skip
    if made is None:
        return None
    return [c for c in kept if set(c.keywords) != set(made.keywords)] + [made]


__all__ = ["THEN_MIN_P", "ZH_PRESENT", "changed", "then_and_now"]

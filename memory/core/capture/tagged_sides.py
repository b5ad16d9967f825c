"""What the object tagger (:mod:`.object_tagger`) reads of a whole sentence, where the rules
read no object or only one side of it.

- A sentence the head reads as a statement yields nothing by any rule (the object is in words
  no rule pulls: "Chrome's gone, Firefox is my browser now"), or only objects the tagger reads
  as no object at all, and the tagger marks its object (:func:`~.retagging.retagged`, which
  uses this module's readings of whose words and which object).
- A sentence the structure head reads as a switch or a comparison that no connector cut is
  read for its two sides, as the tagger marks them (:func:`structure_sides`).
- A sentence it reads as an exception is read for its class and its member
  (:func:`exception_sides`).

The head reads the whole sentence, the tagger a window of words: each checks the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...model import Polarity, PreferenceCandidate, has_cjk
from ..lexical import ENGLISH_STOP_WORDS
from .allergies import mentions_allergy
from .antecedents import done_with
from .clauses import EN_PEOPLE_RE, FIRST_PERSON_RE, clause_speaker, clauses
from .holders import someone_else
from .keywords import object_keywords
from .kind_stances import labelled_stance
from .object_tagger import Reading, TaggedObject, default_tagger
from .objects import is_pronoun, lower_sentence_start, resolve
from .past import told_as_past
from .rules_en import EN_TABLE
from .rules_zh import ZH_ONLY_BUT, ZH_TABLE
from .stance import Stance
from .statements import Kind
from .structuring import left_to_the_rules
from .temporary import ONE_OCCASION_RE

OUTSIDE_MIN_P = 0.9
"""The tagger reads words as naming no object where it reads them outside any object at
this mean probability or more (:func:`names_nothing`). Chosen with
:data:`~.retagging.RETAG_MIN_P`."""


def names_nothing(reading: Reading, keywords: list[str]) -> bool:
    """Whether the tagger reads the words naming ``keywords`` as outside any object, on
    average, at :data:`OUTSIDE_MIN_P` or more (False where no token names one)."""
    outside = reading.outside(keywords)
    return outside is not None and outside >= OUTSIDE_MIN_P


def _another_person(sentence: str) -> bool:
    """Whether anyone but the user is in the sentence: its first clause's speaker
    (:func:`~.clauses.clause_speaker`), anyone named anywhere in it (:func:`~.allergies.
    someone_else`, and in English :data:`~.clauses.EN_PEOPLE_RE`: "Mum used to live on
    Coke…", "Bluey is the kids' favourite now"). The tagger reads words, not whose stance
    they are."""
    sentence = _COMPANIONS_RE.sub(" ", sentence)  # "…约朋友打掼蛋": the user does it with them
    if (clause_speaker(sentence) == "other" and not _own_thing(sentence)) or someone_else(
        sentence
    ):
        return True
    return not has_cjk(sentence) and bool(EN_PEOPLE_RE.search(sentence))


_COMPANIONS_RE = re.compile(
    r"(?:约|和|跟|陪|带)(?:上|着)?(?:几个|一群)?(?:朋友|同事|家人|孩子|娃|室友|闺蜜|兄弟|同学|"
    r"球友|驴友)们?(?:一起)?|"
    r"\bwith\s+(?:my\s+|our\s+|the\s+)?(?:friends|family|kids|mates|colleagues|coworkers|"
    r"team|crew|gang)\b",
    re.IGNORECASE,
)
"""People the user does a thing with, not who holds the taste (``现在周末都约朋友打掼蛋``,
"…, hiking with friends every Sunday now"); "my wife and I both…" is :mod:`.joint`'s."""


_EN_MY_RE = re.compile(r"^\W*(?:my|our)\s+(?:(?:new|old|usual|daily|morning|whole)\s+)*"
                       r"(?P<noun>[a-z'-]+)", re.IGNORECASE)
_EN_HOLDERS = frozenset(
    "doctor dentist therapist trainer coach manager landlord landlady nutritionist dietitian gp "
    "physio vet barber stylist tutor team dog dogs cat cats puppy kitten pets pet baby toddler "
    "in-laws grandparents nephew niece fiance fiancee fiancé fiancée housemate housemates "
    "bestie bff ex".split()
)
"""Who "my …" may name besides :data:`~.lexicons.EN_PEOPLE_RE`'s people: a role or an animal,
whose tastes are theirs."""


def _own_thing(sentence: str) -> bool:
    """Whether an English sentence opens with the user's own thing, not a person: "my
    commute's a scooter now instead of the bus", "My note taking is all paper notebooks now"
    (the speaker reader reads any "my …" as someone else, for "my wife cooks")."""
    if has_cjk(sentence) or (match := _EN_MY_RE.match(sentence)) is None:
        return False
    noun = match.group("noun").lower().removesuffix("'s")
    return noun not in _EN_HOLDERS and not EN_PEOPLE_RE.fullmatch(noun)


_ONLY_BUT_RE = re.compile(ZH_ONLY_BUT)
_EN_ALL_BUT_RE = re.compile(r"\b(?:anything|everything|whatever|nothing)\s+(?:but|except)\b", re.I)
"""An exception to everything ("Anything but country music"): the connectors' reading
(:mod:`.structures`); the tagger, reading no negation, marked the one excepted as liked."""


def _not_for_sides(sentence: str, found: list[PreferenceCandidate]) -> bool:
    """Whether the sides readers leave a sentence alone: both read, another's (or another's
    switch), an allergy, a switch undone."""
    both = {c.polarity for c in found} == {"like", "dislike"}
    return both or _another_person(sentence) or mentions_allergy(sentence) or (
        left_to_the_rules(sentence, found))


def own_clauses(sentence: str) -> tuple[list[str], list[str]] | None:
    """None where no one but the user is in the sentence; else its clauses that name the user
    and no one else, where the tagger's objects may be the user's ("Yes I know everyone's
    into padel now, I'm still a tennis person": the second), and the others. A clause that
    names no one ("Mum used to live on Coke but it's sparkling water all the way now") is
    not the user's."""
    if not _another_person(sentence):
        return None
    own: list[str] = []
    theirs: list[str] = []
    for clause in clauses(sentence):
        mine = FIRST_PERSON_RE.search(clause) and not _another_person(clause)
        (own if mine else theirs).append(clause)
    return own, theirs


def said_by_user(text: str, own: tuple[list[str], list[str]] | None) -> bool:
    """Whether the words ``text`` of a tagged object are in a clause of the user's own and in
    none of another's (:func:`own_clauses`): "My coworkers all love sushi, so I'm booking a
    sushi place" names sushi in both."""
    return own is None or (_in_any(text, own[0]) and not _in_any(text, own[1]))


SWITCH_MIN_P = 0.2
"""The structure head's probability of a switch (:meth:`~.statements.Kind.for_structure`) at
which a sentence no connector cut is read for its sides by the object tagger
(:func:`structure_sides`). Chosen with :data:`SIDE_MIN_P` and :data:`TURNED_MIN_P` on
``bench/data/statements_kinds_dev.jsonl`` with the structure head and the tagger both trained
without that set: of its 43 English and 35 Chinese switches, 24 -> 28 and 26 -> 27 right, its
401 non-statements unchanged (0.3 found one fewer, a switch read as the most probable kind
at 0.5 or 0.7 one or two fewer; 0.1 and 0.15 stored one non-statement).
The head that ships learns that set, so it reads its switches at far higher probabilities
than any new phrasing: a threshold chosen with it would be one only its training data meets."""
COMPARATIVE_MIN_P = 0.5
"""The structure head's probability of a comparison at which a sentence no connector cut is
read for its sides (:func:`structure_sides`), where it reads no switch at
:data:`SWITCH_MIN_P`: :data:`~.structuring.STRUCTURE_MIN_P`, the probability at which a
structural kind is acted on, not tuned. The development half of the fourth kinds set (which
the head and the tagger learned, so in sample) gains 24 of its 125 comparisons and loses
nothing; 0.3 and 0.7 were also measured, and the held-out halves moved by one or two
messages at any of them."""
EXCEPTION_MIN_P = 0.5
"""The structure head's probability of an exception at which a sentence no connector cut is
read for its two sides (:func:`exception_sides`): :data:`~.structuring.STRUCTURE_MIN_P`, as
for a comparison, not tuned."""
SIDE_MIN_P = 0.8
"""The least mean probability of a side the tagger marks. 0.85 with the tagger before it
learned the corpus of the structural kinds (0.8 and 0.9 found one fewer then). The retrained
tagger marks objects less surely: on the development sets (the kinds' development half, half
0 of the fourth set and of the switch sets) 0.8 completed two more switches and broke
nothing; 0.75 completed four, and stored a like of a switch gone back on ("I moved to a
standing desk but after a month I'm mostly sitting again")."""
TURNED_MIN_P = 0.5
"""A candidate the rules read is dropped when the tagger reads its words with the opposite
polarity at this mean probability or more: the other side of the switch ("I've moved to decaf
permanently, caffeine and me are done" was stored as having given up decaf)."""
WEAK_SWITCH_P = 0.5
"""Under this probability of a switch, a sentence of one occasion or a plan
(:data:`~.temporary.ONE_OCCASION_RE`), or one the statement head reads as no statement at
:data:`WEAK_MAX_NONE` or more, is not read for sides: weak evidence of a switch does not
outweigh either. Set beside :data:`~.structuring.STRUCTURE_MIN_P` and
:data:`~.retagging.TAGGED_MAX_NONE`, not tuned (the development set moved by neither)."""
WEAK_MAX_NONE = 0.7
"""See :data:`WEAK_SWITCH_P`."""


def structure_sides(
    sentence: str, kind: Kind, found: list[PreferenceCandidate],
    candidates: Callable[[Stance], list[PreferenceCandidate]],
) -> list[PreferenceCandidate] | None:
    """A switch or comparison the structure head reads and no connector cut, by its sides as
    the object tagger marks them: the object now liked ("I fly Emirates exclusively now, Qatar
    lost me after that last trip", "It's Lightroom for all my edits now"), and the one left
    where it marks it; the one preferred and the one it is preferred to where the tagger marks
    that as disliked (``鼠标还是罗技的好用，雷蛇的太花哨``, "Cotton bedsheets beat satin for me,
    satin feels slippery and gross"). A switch's sides are labelled as a change ("now likes",
    "no longer likes"), a comparison's as standing ones ("likes", "dislikes").

    Before, such a sentence stored nothing, or what the statement head read of the sentence
    as a whole, a single polarity, on its first object: "Dark chocolate only these days, milk
    chocolate is way too sweet for me now" was "no longer likes dark chocolate". A switch has
    two sides with opposite polarities; the head reads one polarity per clause, and the
    tagger one per word.

    Args:
        sentence: One sentence (its clauses together).
        kind: The statement head's reading of the sentence (its structure head's with it).
        found: What the rules and the connectors read in it.
        candidates: Turns a stance into candidates (:func:`~.extract.candidates`).

    Returns:
        The sentence's candidates: those of ``found`` the tagger does not put on the other
        side of the switch, or read as no object where it marks one of their polarity, and
        a candidate per side the tagger marks at :data:`SIDE_MIN_P` and ``found`` lacks. An
        object of ``found`` the tagger marks whole with the other polarity at any level is
        a side too (a liked side the statement head read as turned away from); a modifier
        alone is not ("animated" of the rules' *animated movies*). A
        liked side in a clause told as the past (:func:`~.changes.told_as_past`: "I used to
        be a Nike guy, but I wear only Adidas now") is not one, nor the other polarity of a
        thing the user did something with (:func:`~.antecedents.done_with`) and gave a
        verdict on by a pronoun ("Used Notion for a while, hated it, back to pen and paper":
        the verdict is the rules' reading).
        None to leave the sentence to the other readers: no switch at :data:`SWITCH_MIN_P`
        nor comparison at :data:`COMPARATIVE_MIN_P` (:func:`_structure_read`; or a weak one,
        :data:`WEAK_SWITCH_P`, in a sentence of one occasion or read as no statement), both
        sides already read, another person's sentence or one about an allergy (for the
        allergy readers and their vetoes), or no liked side marked.
    """
    read = _structure_read(kind)
    if read is None or read[0] == "exception":
        return None
    compared, switch = read[0] == "comparative", read[1]  # its strength, for the weak vetoes
    if switch < WEAK_SWITCH_P and (
        ONE_OCCASION_RE.search(sentence) or kind.of("none") >= WEAK_MAX_NONE
    ):
        return None
    if _not_for_sides(sentence, found):
        return None
    reading = default_tagger().read(sentence)
    sides = [o for o in reading.objects if o.p >= SIDE_MIN_P]
    for c in found:  # an object the rules read, marked whole with the other polarity
        sides += [o for o in reading.objects if o.polarity != c.polarity
                  and o not in sides and _holds(o.text, c.keywords)]
    past = [c for c in clauses(sentence) if told_as_past(c)]
    sides = [o for o in sides if not (o.polarity == "like" and _in_any(o.text, past))]
    done = [c for c in clauses(sentence) if _done_with_alone(c)]  # "Used Notion…, hated it"
    sides = [o for o in sides if not (_in_any(o.text, done) and any(
        c.polarity != o.polarity and _holds(o.text, c.keywords) for c in found))]
    if not any(o.polarity == "like" for o in sides):
        return None
    kept: list[PreferenceCandidate] = []
    for c in found:
        turned = reading.mean(c.keywords, _OPPOSITE[c.polarity])
        if turned is not None and turned >= TURNED_MIN_P:
            continue  # the tagger reads this object on the other side of the switch
        if any(o.polarity != c.polarity and _names(o.text, c.keywords) for o in sides):
            continue  # the same object, marked on the other side
        marked = [o for o in reading.objects if o.polarity == c.polarity]
        if marked and names_nothing(reading, c.keywords):
            sides += [o for o in marked if o not in sides]
            continue  # words that name nothing, where the tagger marks that side's object
        kept.append(c)
    made = list(kept)
    for side in sides:
        if any(c.polarity == side.polarity for c in kept):
            continue
        name = side.polarity if compared else _CHANGED[side.polarity]
        if (stance := tagged_stance(side, name, sentence)) is not None:
            made += _new_candidates(stance, made, candidates)
    return made


def exception_sides(
    sentence: str, kind: Kind, found: list[PreferenceCandidate],
    candidates: Callable[[Stance], list[PreferenceCandidate]],
) -> list[PreferenceCandidate] | None:
    """An exception the structure head reads and no connector cut, by its two sides as the
    object tagger marks them: one liked and one disliked ("Heavy metal's not for me, but I'll
    always put on some Metallica", "all sauces good, mayo bad", ``火锅我都行，就是受不了牛油锅``).
    Before, such a sentence stored one side, or none: the rules read one stance per clause.

    Which side is the class and which the member is not read, so the sides are stored as
    plain likes and dislikes ("likes sauces", "dislikes mayo"), the broader one first where
    one names the other ("cheese" before "blue cheese"): the gate lets a broader statement
    supersede a narrower one of the other polarity, never the reverse, so the member written
    second stands beside its class.

    Args:
        sentence: One sentence (its clauses together).
        kind: The statement head's reading of the sentence (its structure head's with it).
        found: What the rules and the connectors read in it.
        candidates: Turns a stance into candidates (:func:`~.extract.candidates`).

    Returns:
        The allergies of ``found`` and a candidate per side, or None to leave the sentence to
        the other readers: the structure head reads no exception at :data:`EXCEPTION_MIN_P`
        (or reads a switch or comparison: :func:`_structure_read`), the statement head reads
        no statement at :data:`WEAK_MAX_NONE`, the sentence is of one occasion, another
        person's or about an allergy, ``found`` holds both polarities already (on different
        objects), or the tagger does not mark exactly one liked and one disliked object at
        :data:`SIDE_MIN_P`. Where it marks one side only, :func:`_one_side` decides.
    """
    read = _structure_read(kind)
    if read is None or read[0] != "exception":
        return None
    if kind.of("none") >= WEAK_MAX_NONE or ONE_OCCASION_RE.search(sentence):
        return None
    if _another_person(sentence) or mentions_allergy(sentence) or _ONLY_BUT_RE.search(sentence) or (
            _EN_ALL_BUT_RE.search(sentence)):
        return None  # ``除了游泳别的运动我都不喜欢``: the rules' like of the one (ZH_ONLY_BUT)
    reading = default_tagger().read(sentence)
    sides = [o for o in reading.objects if o.p >= SIDE_MIN_P]
    if len(sides) == 1:  # whatever the rules read: it keeps to the side or stands aside
        return _one_side(sentence, sides[0], found, reading, candidates)
    liked = [o for o in sides if o.polarity == "like"]
    disliked = [o for o in sides if o.polarity == "dislike"]
    if len(liked) != 1 or len(disliked) != 1:
        return None
    both = {c.polarity for c in found} == {"like", "dislike"}
    if both and not _sides_mend(found, sides, reading):
        return None  # the rules read other objects, or the very sides the tagger marks
    pair = [liked[0], disliked[0]]
    first, second, lowered = pair[0].text.lower(), pair[1].text.lower(), sentence.lower()
    if first == second:
        return None
    if second in first or (first not in second and lowered.find(second) < lowered.find(first)):
        pair.reverse()  # the broader (the words the other holds) first; else as written
    made = [c for c in found if c.protected]
    for side in pair:
        if (stance := tagged_stance(side, side.polarity, sentence)) is None:
            return None
        made += _new_candidates(stance, made, candidates)
    return made


def _sides_mend(
    found: list[PreferenceCandidate], sides: list[TaggedObject], reading: Reading
) -> bool:
    """Whether the tagger's two sides mend what the rules read of both: each of the rules'
    candidates (allergies aside) names a side the tagger marks, or words it reads as no object
    (``海鲜我几乎都爱,除了生蚝,口感实在接受不了``: 口感), and not every one of them is already
    the side of its polarity (``粽子都爱，除了甜粽子``: the rules read both sides)."""
    read = [c for c in found if not c.protected]
    words = [(o.polarity, set(object_keywords(o.text))) for o in sides]
    if not all(any(w & set(c.keywords) for _, w in words) or names_nothing(reading, c.keywords)
               for c in read):
        return False
    return not all(any(p == c.polarity and w == set(c.keywords) for p, w in words) for c in read)


def _one_side(
    sentence: str, side: TaggedObject, found: list[PreferenceCandidate], reading: Reading,
    candidates: Callable[[Stance], list[PreferenceCandidate]],
) -> list[PreferenceCandidate] | None:
    """An exception of which the tagger marks one side at :data:`SIDE_MIN_P`: that side, and what
    the rules read of the other (candidates of the other polarity on other words, or the tagger's
    object of that polarity where it reads theirs as no object, as :func:`~.retagging.retagged`
    does), the broader first (:func:`exception_sides`). ``水果我基本都爱，除了榴莲，那味儿真顶不住``
    stored only the dislike of 榴莲 (marked at 0.59); ``鸡肉哪个部位我都吃，鸡爪除外`` stored
    nothing. The rules' reading of the marked side's own words with the other polarity is dropped
    (``东北菜我都稀罕，就是酸菜白肉吃不惯`` was a dislike of 东北菜).

    Returns:
        The sentence's candidates, or None to leave it: the rules read another object with
        the side's polarity (which side is which is then unclear), or all the side adds.
    """
    kept: list[PreferenceCandidate] = []
    other: list[PreferenceCandidate] = []
    words = set(object_keywords(side.text))
    for c in found:
        names = words == set(c.keywords)  # not "nut" of "walnuts", nor 粽子 of 甜粽子
        if c.polarity == side.polarity and not names:
            return None
        if c.polarity == side.polarity or not names:
            (kept if names else other).append(c)
    for at, c in enumerate(other):
        of_theirs = [o for o in reading.objects if o.polarity == c.polarity]
        if of_theirs and names_nothing(reading, c.keywords) and (
            stance := tagged_stance(of_theirs[0], c.polarity, sentence)
        ) is not None and (made := candidates(stance)):
            other[at] = made[0]  # "那味儿真顶不住": 味儿 names nothing; 榴莲 is the member
    if not kept:
        if (stance := tagged_stance(side, side.polarity, sentence)) is None:
            return None
        kept = _new_candidates(stance, other, candidates)
    if not kept or kept + other == found:
        return None
    marked, lowered = side.text.lower(), sentence.lower()
    theirs = [k.lower() for c in other for k in c.keywords]
    narrower = any(marked != k and k in marked for k in theirs)  # the member marked
    later = not any(marked in k for k in theirs) and any(
        0 <= lowered.find(k) < lowered.find(marked) for k in theirs)
    return other + kept if narrower or later else kept + other


def _structure_read(kind: Kind) -> tuple[str, float] | None:
    """The structure the structure head reads in a sentence, for its sides to be read, and its
    probability: a switch at :data:`SWITCH_MIN_P`, else a comparison at
    :data:`COMPARATIVE_MIN_P`, else an exception at :data:`EXCEPTION_MIN_P`; None for none of
    them. One reading per sentence: :func:`structure_sides` and :func:`exception_sides` never
    both read one."""
    structure = kind.for_structure()
    for name, least in (("switch", SWITCH_MIN_P), ("comparative", COMPARATIVE_MIN_P),
                        ("exception", EXCEPTION_MIN_P)):
        if (p := structure.of(name)) >= least:
            return name, p
    return None


def _new_candidates(
    stance: Stance, made: list[PreferenceCandidate],
    candidates: Callable[[Stance], list[PreferenceCandidate]],
) -> list[PreferenceCandidate]:
    """A side's candidates that name no keyword ``made`` already has."""
    words = {k for c in made for k in c.keywords}
    return [c for c in candidates(stance) if not set(c.keywords) & words]


def tagged_stance(side: TaggedObject, name: str, sentence: str) -> Stance | None:
    """The stance of an object the tagger marks, labelled as kind ``name``; None where its
    words name no usable object (a pronoun, words :func:`~.objects.resolve` refuses, or
    only function words: "of the")."""
    zh = has_cjk(side.text)
    words = set(re.findall(r"[a-z]+", side.text.lower()))
    if not zh and words and words <= ENGLISH_STOP_WORDS:
        return None
    at_start = re.sub(r"^\W+", "", sentence).startswith(side.text)  # not "a Red Bull"
    display = lower_sentence_start(side.text) if at_start and not zh else side.text
    obj = resolve(display, zh, None, initial=not zh)
    if obj is None or is_pronoun(obj.display):
        return None
    return labelled_stance(obj, display, side.polarity, name, sentence)


_OPPOSITE: dict[Polarity, Polarity] = {"like": "dislike", "dislike": "like"}
_CHANGED: dict[Polarity, str] = {"like": "flip_like", "dislike": "flip_dislike"}
"""The kind whose label a switch's side gets: what the user turned to, and turned from."""


def _done_with_alone(clause: str) -> bool:
    """Whether a clause says the user did something with a thing (:func:`~.antecedents.
    done_with`) and states no stance of its own (no stance rule matches in it)."""
    table = ZH_TABLE if has_cjk(clause) else EN_TABLE
    return done_with(clause)[0] and next(table.matches(clause), None) is None


def _in_any(text: str, parts: list[str]) -> bool:
    """Whether ``text`` is in one of ``parts`` (case-insensitive)."""
    return any(text.lower() in part.lower() for part in parts)


def _holds(text: str, keywords: list[str]) -> bool:
    """Whether the words ``text`` of a tagged object hold a whole keyword or end it, as its
    head does (*KLM* of the rules' *fly KLM*): not a modifier alone (*animated* of *animated
    movie*)."""
    lowered = text.lower()
    return any(k and (k.lower() in lowered or k.lower().endswith(lowered)) for k in keywords)


def _names(text: str, keywords: list[str]) -> bool:
    """Whether the words ``text`` of a tagged object name one of ``keywords``."""
    lowered = text.lower()
    return any(k and (k.lower() in lowered or lowered in k.lower()) for k in keywords)


__all__ = [
    "COMPARATIVE_MIN_P", "EXCEPTION_MIN_P", "OUTSIDE_MIN_P", "SIDE_MIN_P", "SWITCH_MIN_P",
    "TURNED_MIN_P", "WEAK_MAX_NONE", "WEAK_SWITCH_P", "exception_sides", "names_nothing",
    "own_clauses", "said_by_user", "structure_sides", "tagged_stance",
]

"""What the object tagger (:mod:`.object_tagger`) reads in a sentence where the rules read
nothing, or only words that name no object (:func:`retagged`).

The statement head reads the whole sentence and the tagger a window of words; neither alone is
enough. The head must read a polarity (:func:`~.kinds.polarity_of`) or lean to one
(:func:`~.kind_stances.leaning`), and only the tagger's objects of that polarity are kept: two
readers that agree where either alone is unsure.
"""

from __future__ import annotations

from ...model import Polarity, PreferenceCandidate
from .allergies import mentions_allergy
from .kind_stances import AGREED_TAG_MIN_P, leaning, not_meant
from .kinds import NEW_MIN_P, polarity_of
from .object_tagger import default_tagger
from .stance import Stance
from .statements import Kind
from .structuring import STRUCTURAL_KINDS, left_to_the_rules
from .tagged_sides import names_nothing, own_clauses, said_by_user, tagged_stance

RETAG_MIN_P = 0.8
"""The tagger replaces what the rules read only with an object it finds at this mean probability or
more (:func:`retagged`), and only when it reads every object the rules read as outside any object at
:data:`~.tagged_sides.OUTSIDE_MIN_P` or more. Both chosen on the development half of the kinds set
and the corpus's dev split, with the tagger trained without that half: the replacement alone got 9
more of the half's 541 preferences right and 22 more of the split's 972 English messages, and moved
nothing else. With every reading of the tagger (:mod:`.tagged_sides` too), against no tagger: 403 ->
417 of the 541 preferences, the half's 401 non-statements unchanged (381 right), the split's English
901 -> 937, its 590 Chinese unchanged (578), PrefEval's development topics unchanged."""
TAGGED_MAX_LIMIT = 0.2
"""Nor about a sentence whose probability of an amount limit ("two coffees a day, tops") is
this or more: a limit stores no dislike (:func:`~.kinds.is_limit`), and the tagger, which
reads no amounts, would mark the thing limited. Chosen on the same half: one more limit
right, no statement lost."""
TAGGED_MAX_NONE = 0.6
"""The object tagger is asked about a sentence whose probability of being no statement at
all is under this: at 0.6 or more the head can neither read a polarity nor lean to one
(:func:`~.kind_stances.leaning` needs 0.4 of polar kinds). It was 0.35, chosen before the
head had to agree on the polarity (then 0.5 stored something for 8 more of the kinds set's
401 development non-statements). With the agreement, 0.35 -> 0.5 -> 0.6 was chosen on the
development halves and files (``bench/capture_quality.py --quick``: +5 then +2 there, one
allergy look-alike lost; of the repository's development texts 30 then 3 more changed, and
read: 26 right where they had stored nothing or junk, "Mondays can do one", ``老友记重温了不下
十遍``, "Please note I'm using my Revolut card for everything now" (was a switch to *Please
note*), 4 wrong, "Starting over now" a like). Held out, counted after: 13 more right, none
fewer."""
WEAK_READ_TAG_MIN_P = 0.7
"""Where the head reads a polarity only by summing its kinds (:func:`~.kinds.polarity_of`), none
of them reaching :data:`~.kinds.NEW_MIN_P` alone, the tagger's object of that polarity is kept
only at this probability or more: two unsure readers do not make a sure one ("Count me out
when it comes to horror films": like 0.49 and *horror* liked at 0.55 had stored a like). The
leaning's bar (:data:`~.kind_stances.AGREED_TAG_MIN_P`) is higher, a leaning being weaker than
a reading. Chosen on the development texts: 0.7 changed one (*likes trust* gone from "Mullvad
is the one I actually like and trust"), 0.8 six, losing "I'm hooked on Korean dramas right
now". Held out, counted after: one more right, one fewer, of the repository's sets."""


def _polar_reading(kind: Kind | None) -> Kind | None:
    """The statement head's reading, or the structure head's where only that one reads a
    statement of a polarity: "Yes I know everyone's into padel now, I'm still a tennis
    person" and ``试了一圈还是最喜欢喜茶`` are no statement to the statement head (none 0.52)
    and a like to the structure head, which learned the kinds sets (0.73). Only a polar
    reading is taken from it, never a structural one alone, whose sides the tagger would mark
    with no polarity to agree with ("I'm a ProtonMail person now; Gmail can't be trusted"
    became a dislike of ProtonMail)."""
    if kind is None or (kind.of("none") < TAGGED_MAX_NONE and polarity_of(kind) is not None):
        return kind
    other = kind.for_structure()
    if other.of("none") < TAGGED_MAX_NONE and _polar(other) is not None:
        return other
    return kind


def _polar(kind: Kind) -> tuple[Polarity, str] | None:
    """The polarity a reading states (:func:`~.kinds.polarity_of`), or a like where it reads
    a current choice, a slot, at :data:`~.kinds.NEW_MIN_P` ("Pixel 8 is my daily driver these
    days, what case would you get?": the object chosen is the one liked)."""
    if (read := polarity_of(kind)) is not None:
        return read
    return ("like", "like") if kind.of("slot") >= NEW_MIN_P else None


def retagged(
    sentence: str, kind: Kind | None, found: list[PreferenceCandidate]
) -> list[Stance] | None:
    """What the object tagger reads in a sentence, where it replaces what the rules read.

    It replaces nothing the rules read, unless the rules' objects are words the tagger reads
    as no object: every candidate's keywords are, on average, outside any object at
    :data:`OUTSIDE_MIN_P` or more ("I used to live on Coke but it's sparkling water all the
    way now" read by the rules as a like of *live*; ``健身房以前天天泡，现在一想到就emo``
    as a dislike of *emo*), and the tagger finds an object elsewhere at :data:`RETAG_MIN_P`.

    Args:
        sentence: One sentence (its clauses together).
        kind: The statement head's reading of the whole sentence (the structure head's where
            only it reads a polarity: :func:`_polar_reading`); None without a head.
        found: What the rules read in it.

    Returns:
        A stance per object the tagger finds (at most a like and a dislike: the new and the
        old of a switch), or None to keep ``found``. None when the head reads no statement
        (a probability of ``none`` of :data:`TAGGED_MAX_NONE` or more) or may read an amount
        limit (:data:`TAGGED_MAX_LIMIT`), when the sentence is another person's, and when it
        speaks of an allergy: whether one is over is for :mod:`.allergies` alone, whose
        vetoes (a joke, a doubt, a condition) the tagger knows nothing of ("Peanut allergy
        gone!! (jk)" would be a like of peanuts). In a sentence no rule read, the head must
        agree: it reads a polarity (:func:`_polar`: a current choice, a slot read at
        :data:`~.kinds.NEW_MIN_P`, is a like) and only the tagger's objects of that
        polarity are kept (at :data:`WEAK_READ_TAG_MIN_P` where no one kind of it reaches
        :data:`~.kinds.NEW_MIN_P`), or it reads a switch, comparison, exception or weaker slot
        (:data:`~.structuring.STRUCTURAL_KINDS`), whose sides the tagger marks. The
        head reads the whole sentence, the tagger a window of words; alone, the tagger
        stored "Java's gone, C++ is my language now" as a like of Java and "kimchi is dead
        to me" as a like (a breaker's findings). Where the head only leans to a polarity
        (:func:`~.kind_stances.leaning`), the tagger's objects of that polarity are kept at
        :data:`~.kind_stances.AGREED_TAG_MIN_P`. A replacement keeps to the polarities the
        rules read: the tagger corrects their object, not their polarity
        (``以前爱喝可乐，现在只喝气泡水``, where jieba cuts 气泡水 in two and the tagger reads
        only 可乐, keeps the rules' like).
    """
    kind = _polar_reading(kind)
    if kind is None or kind.of("none") >= TAGGED_MAX_NONE:
        return None
    if kind.of("limit") >= TAGGED_MAX_LIMIT:
        return None
    if mentions_allergy(sentence):
        return None  # an allergy only as its readers read it, with vetoes
    if left_to_the_rules(sentence, found):
        return None  # a switch undone, someone else's switch, an order the rules read
    if (own := own_clauses(sentence)) is not None and not own[0]:
        return None  # another person's
    reading = default_tagger().read(sentence)
    unmeant = not_meant(sentence)
    tagged = [o for o in reading.objects if o.polarity not in unmeant
              and said_by_user(o.text, own)]
    if not tagged:
        return None
    read = _polar(kind)
    if found:
        if max(o.p for o in tagged) < RETAG_MIN_P or not all(
            names_nothing(reading, c.keywords) for c in found
        ):
            return None
        read_by_rules = {c.polarity for c in found}
        tagged = [o for o in tagged if o.polarity in read_by_rules]
        if not tagged:
            return None  # it replaces the rules' object, never their polarity
    elif read is not None:  # the head and the tagger must agree on the polarity
        bar = WEAK_READ_TAG_MIN_P if kind.p < NEW_MIN_P else 0.0
        tagged = [o for o in tagged if o.polarity == read[0] and o.p >= bar]
    elif kind.kind not in STRUCTURAL_KINDS:
        if (read := leaning(kind)) is None:
            return None  # no polarity read, and no two sides of a structure to tag
        tagged = [o for o in tagged if o.polarity == read[0] and o.p >= AGREED_TAG_MIN_P]
    if not tagged:
        return None
    stances: list[Stance] = []
    for one in tagged:
        name = read[1] if read is not None and read[0] == one.polarity else one.polarity
        if (stance := tagged_stance(one, name, sentence)) is not None:
            stances.append(stance)
    return stances or None


__all__ = [
    "RETAG_MIN_P", "TAGGED_MAX_LIMIT", "TAGGED_MAX_NONE", "WEAK_READ_TAG_MIN_P", "retagged",
]

"""A head that only leans to a polarity, and a tagger that marks an object of it (issue 17).

Below :data:`~penchant.memory.core.capture.kinds.NEW_MIN_P` the statement head alone stores
nothing; where it leans to a polarity (:func:`~penchant.memory.core.capture.kind_stances.leaning`)
and the object tagger marks an object of that polarity at
:data:`~penchant.memory.core.capture.kind_stances.AGREED_TAG_MIN_P`, the two agree and the object
is stored. The head's readings are made up here, so the tests are of the rule, not of the
head's weights; the sentences are new (in no training or evaluation set).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from penchant.memory.core.capture import extract_preferences, retagging
from penchant.memory.core.capture.kind_stances import AGREED_TAG_MIN_P, leaning
from penchant.memory.core.capture.object_tagger import TaggedObject
from penchant.memory.core.capture.retagging import WEAK_READ_TAG_MIN_P
from penchant.memory.core.capture.statements import KINDS, Kind


def _reading(**probs: float) -> Kind:
    """A head's reading with the given probabilities; the rest spread over the other kinds."""
    rest = (1 - sum(probs.values())) / (len(KINDS) - len(probs))
    values = tuple(probs.get(k, rest) for k in KINDS)
    best = max(range(len(KINDS)), key=values.__getitem__)
    return Kind(KINDS[best], values[best], values)


def _reader(kind: Kind):  # type: ignore[no-untyped-def]
    return lambda clauses: [kind] * len(clauses)


@pytest.mark.parametrize(("probs", "want"), [
    ({"like": 0.45, "none": 0.3}, ("like", "like")),
    ({"flip_dislike": 0.25, "dislike": 0.2, "none": 0.3}, ("dislike", "flip_dislike")),
    ({"like": 0.3, "flip_like": 0.15, "none": 0.4}, ("like", "like")),  # summed, as a polarity
    ({"like": 0.35, "none": 0.5}, None),  # too weak
    ({"like": 0.45, "dislike": 0.3}, None),  # the other polarity too close
    ({"none": 0.9}, None),
])
def test_a_reading_leans_to_a_polarity_its_kinds_hold_together(
    probs: dict[str, float], want: tuple[str, str] | None
) -> None:
    assert leaning(_reading(**probs)) == want


@pytest.mark.parametrize("none", [0.3, 0.5])  # the head may find no statement more likely
def test_a_leaning_and_the_tagger_agreeing_store_the_tagged_object(none: float) -> None:
    text = "手冲咖啡，快乐源泉"
    assert extract_preferences(text) == []  # no stance rule reads it
    found = extract_preferences(text, reader=_reader(_reading(like=0.45, none=none)))
    assert [(c.polarity, c.content) for c in found] == [("like", "喜欢手冲咖啡")]


@pytest.mark.parametrize("probs", [
    {"like": 0.35, "none": 0.3},  # no leaning
    {"dislike": 0.45, "none": 0.3},  # the tagger marks a like
    {"like": 0.4, "none": 0.6},  # no statement, to the head (TAGGED_MAX_NONE)
])
def test_without_a_leaning_of_the_tagged_polarity_nothing_is_stored(
    probs: dict[str, float],
) -> None:
    text = "手冲咖啡，快乐源泉"
    assert extract_preferences(text, reader=_reader(_reading(**probs))) == []


@pytest.mark.parametrize(("p", "stored"), [(AGREED_TAG_MIN_P + 0.05, True),
                                           (AGREED_TAG_MIN_P - 0.05, False)])
def test_a_leaning_keeps_only_objects_the_tagger_is_sure_of(
    monkeypatch: pytest.MonkeyPatch, p: float, stored: bool
) -> None:
    """The tagger replaced by one that marks the object at ``p``: a leaning is weaker evidence
    than a polarity read, so the tagger must be surer."""
    reading = SimpleNamespace(objects=[TaggedObject("dislike", "open-plan offices", p)],
                              outside=lambda keywords: 0.95)
    monkeypatch.setattr(retagging, "default_tagger",
                        lambda: SimpleNamespace(read=lambda sentence: reading))
    text = "Open-plan offices, a nightmare for focus"
    found = extract_preferences(text, reader=_reader(_reading(dislike=0.45, none=0.3)))
    assert [(c.polarity, "open-plan offices" in c.content) for c in found] == (
        [("dislike", True)] if stored else [])


@pytest.mark.parametrize(("p", "stored"), [(WEAK_READ_TAG_MIN_P + 0.05, True),
                                           (WEAK_READ_TAG_MIN_P - 0.05, False)])
def test_a_weak_reading_keeps_only_objects_the_tagger_is_fairly_sure_of(
    monkeypatch: pytest.MonkeyPatch, p: float, stored: bool
) -> None:
    """The head's kinds of dislike reach NEW_MIN_P together, none alone: two unsure readers
    are not one sure one ("Count me out when it comes to horror films" had stored a like of
    horror)."""
    reading = SimpleNamespace(objects=[TaggedObject("dislike", "open-plan offices", p)],
                              outside=lambda keywords: 0.95)
    monkeypatch.setattr(retagging, "default_tagger",
                        lambda: SimpleNamespace(read=lambda sentence: reading))
    text = "Count me out when it comes to open-plan offices"
    weak = _reading(dislike=0.45, flip_dislike=0.2, none=0.25)
    found = extract_preferences(text, reader=_reader(weak))
    assert [(c.polarity, "open-plan offices" in c.content) for c in found] == (
        [("dislike", True)] if stored else [])


def test_another_persons_sentence_is_not_read_for_a_leaning() -> None:
    text = "我妹说手冲咖啡是她的快乐源泉"
    assert extract_preferences(text, reader=_reader(_reading(like=0.45, none=0.3))) == []


def test_a_reply_to_a_topic_put_up_as_a_question_needs_only_a_leaning() -> None:
    """``X? absolutely not``: the question names the object, and the reply, which names none,
    is read as a stance on it where the head only leans (no rule reads either)."""
    leans = _reader(_reading(dislike=0.45, none=0.35))
    found = extract_preferences("Corduroy trousers? absolutely not", reader=leans)
    assert [(c.polarity, "corduroy trousers" in c.content.lower()) for c in found] == [
        ("dislike", True)]
    assert extract_preferences("absolutely not", reader=leans) == []  # no topic put up


def test_a_reply_that_names_its_own_object_needs_more_than_a_leaning() -> None:
    leans = _reader(_reading(like=0.45, none=0.35))
    assert extract_preferences("Corduroy trousers? I'd pick linen") == []  # no rule reads it
    assert extract_preferences("Corduroy trousers? I'd pick linen", reader=leans) == []


@pytest.mark.parametrize("text", [
    "Honestly, corduroy trousers? Not for me anymore.",
    "Btw, corduroy trousers? Not for me anymore.",
])
def test_a_word_of_chat_before_the_topic_leaves_it_the_topic(text: str) -> None:
    found = extract_preferences(text, reader=_reader(_reading(flip_dislike=0.9)))
    assert [(c.polarity, "corduroy trousers" in c.content.lower()) for c in found] == [
        ("dislike", True)]


@pytest.mark.parametrize(("text", "want"), [
    ("排骨年糕？受不了", ("dislike", "排骨年糕")),  # the segmenter cuts 年糕 off as no noun
    ("狗？我超爱", ("like", "狗")),  # one character
    ("讲真，羽毛球？永远的神", ("like", "羽毛球")),
])
def test_a_chinese_thing_put_up_as_a_question_is_the_replys_topic(
    text: str, want: tuple[str, str]
) -> None:
    found = extract_preferences(text, reader=_reader(_reading(**{want[0]: 0.9})))
    assert [(c.polarity, want[1] in c.content) for c in found] == [(want[0], True)]


@pytest.mark.parametrize("text", [
    "今晚吃烤鸭？好啊",  # a time: one occasion
    "羽毛球？我哥超爱",  # someone else's
    "Him? never liked him",  # a person
    "The red one? yes that's it",  # one of the things shown
    "me and coffee? besties",  # the user in the topic
])
def test_a_question_that_puts_up_no_thing_gives_the_reply_no_topic(text: str) -> None:
    found = extract_preferences(text, reader=_reader(_reading(like=0.9)))
    assert not any(
        word in c.content.lower() for c in found for word in ("烤鸭", "羽毛球", "him", "red", "me")
    ), found

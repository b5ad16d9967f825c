"""The object tagger: its pinned weights, its tokens, and what capture gains from it.

The sentences below are new instances of the kinds (written for this test, in no training or
evaluation set): phrasings no stance rule reads, whose object capture missed before the
tagger (:func:`~penchant.memory.core.capture.retagging.retagged`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from retrained import RETRAINED

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import changes, extract, extract_preferences
from penchant.memory.core.capture.clauses import clause_speaker
from penchant.memory.core.capture.object_tagger import (
    BUCKETS,
    LABELS,
    TAGGER_PATH,
    TAGGER_SHA256,
    ObjectTagger,
    default_tagger,
    tokenize,
)
from penchant.memory.core.capture.segment import tag, words
from penchant.memory.core.capture.statements import KINDS, Kind
from penchant.memory.embeddings import sha256_file
from penchant.memory.model import ModelIntegrityError


@pytest.fixture(scope="module")
def reader() -> ClauseReader:
    return ClauseReader()


def test_shipped_tagger_matches_its_pinned_digest() -> None:
    assert sha256_file(TAGGER_PATH) == TAGGER_SHA256
    assert default_tagger().weights.shape == (BUCKETS, len(LABELS))


def test_a_tampered_tagger_is_refused_with_both_digests(tmp_path: Path) -> None:
    copy = tmp_path / "object_tagger.npz"
    shutil.copy(TAGGER_PATH, copy)
    copy.write_bytes(copy.read_bytes() + b"\0")
    with pytest.raises(ModelIntegrityError, match=TAGGER_SHA256) as raised:
        ObjectTagger.load(copy)
    assert "train_objects.py" in str(raised.value)
    with pytest.raises(ModelIntegrityError, match="missing"):
        ObjectTagger.load(tmp_path / "absent.npz")


def test_wrong_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="shape"):
        ObjectTagger(np.zeros((10, 3), np.float32))


def test_probabilities_are_deterministic_and_rows_sum_to_one() -> None:
    tagger = default_tagger()
    tokens = tokenize("Edge is gone from my laptop, Vivaldi is what I browse with now")
    first, again = tagger.probabilities(tokens), tagger.probabilities(tokens)
    assert first.shape == (len(tokens), len(LABELS))
    assert np.array_equal(first, again)
    assert np.allclose(first.sum(axis=1), 1.0, atol=1e-5)
    assert tagger.probabilities([]).shape == (0, len(LABELS))


def test_chinese_tokens_are_the_segmenters_words_with_offsets_in_the_normal_form() -> None:
    tokens = tokenize("密室逃脱以前周周去，现在一想就头疼")
    assert [t.text for t in tokens[:4]] == list(words("密室逃脱以前周周去"))[:4]
    assert [t.tag for t in tokens[:2]] == [flag for _, flag in tag("密室逃脱")]
    comma = next(t for t in tokens if t.text == ",")  # the full-width comma, folded
    assert (comma.start, comma.end) == (9, 10)
    english = tokenize("Duolingo's out, Babbel is the app I use now")
    assert [t.text for t in english][:3] == ["Duolingo's", "out", ","]
    assert english[0].tag == "C" and english[1].tag == "L" and english[2].tag == "P"


@pytest.mark.parametrize(
    ("text", "polarity", "word"),
    [
        ("never been one for hiking but I'm hooked on it these days", "like", "hiking"),
        ("I'm a reformed sushi sceptic, eat it every week now", "like", "sushi"),
        ("密室逃脱以前周周去，现在一想就头疼", "dislike", "密室逃脱"),
    ],
)
def test_a_statement_no_rule_reads_yields_the_tagged_object(
    reader: ClauseReader, text: str, polarity: str, word: str
) -> None:
    assert extract_preferences(text) == []  # no stance rule reads it
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, word in c.content.lower()) for c in found] == [(polarity, True)]


@pytest.mark.parametrize(
    ("text", "misread", "polarity", "word"),
    [
        ("gone right off gin lately, gives me a headache", "right", "dislike", "gin"),
        ("烧烤以前天天吃，现在一想到就腻", "一想到", "dislike", "烧烤"),
    ],
)
def test_objects_the_tagger_reads_as_no_object_are_replaced_by_its_own(
    reader: ClauseReader, text: str, misread: str, polarity: str, word: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = extract_preferences(text, reader=reader)
    assert [c.polarity for c in found if word in c.content.lower()] == [polarity]
    assert not any(misread in c.content for c in found)
    monkeypatch.setattr(extract, "retagged", lambda sentence, kind, found: None)
    monkeypatch.setattr(extract, "structure_sides", lambda sentence, kind, found, made: None)
    monkeypatch.setattr(extract, "exception_sides", lambda sentence, kind, found, made: None)
    monkeypatch.setattr(changes, "_tagged", lambda parts, then, polarity: None)  # then and now
    before = extract_preferences(text, reader=reader)  # what the rules and the head read
    assert any(misread in c.content for c in before)


def _reading(name: str, p: float) -> Kind:
    rest = (1 - p) / (len(KINDS) - 1)
    return Kind(name, p, tuple(p if k == name else rest for k in KINDS))


def test_the_tagger_is_not_asked_when_the_head_reads_no_statement_or_a_limit() -> None:
    text = "never been one for hiking but I'm hooked on it these days"
    for name in ("none", "limit"):
        found = extract_preferences(text, reader=lambda cs, n=name: [_reading(n, 0.9)] * len(cs))
        assert found == []
    found = extract_preferences(text, reader=lambda cs: [_reading("flip_like", 0.9)] * len(cs))
    assert [(c.polarity, "hiking" in c.content) for c in found] == [("like", True)]


def test_the_head_and_the_tagger_must_agree_on_the_polarity() -> None:
    """A breaker's finding: alone, the tagger stored "kimchi is dead to me" as a like. Where
    the head reads the other polarity, or no polarity and no structure, nothing is stored."""
    text = "never been one for hiking but I'm hooked on it these days"
    for name in ("flip_dislike", "quit"):
        found = extract_preferences(text, reader=lambda cs, n=name: [_reading(n, 0.9)] * len(cs))
        assert found == []


@pytest.mark.parametrize(
    "text",
    [
        "Mum used to live on energy drinks but it's green tea all day now",
        "Bluey is the kids' favourite now",
        "密室逃脱曾经让我妈很上头，现在她一想就累",
    ],
)
def test_a_sentence_with_someone_else_in_it_is_not_tagged(reader: ClauseReader, text: str) -> None:
    """Another breaker's finding: the tagger reads words, not whose stance they are."""
    assert extract_preferences(text, reader=reader) == []


def test_a_sentence_about_someone_close_is_theirs_and_yields_nothing(
    reader: ClauseReader,
) -> None:
    assert clause_speaker("我表哥现在完全不碰奶茶了") == "other"
    assert clause_speaker("我婆婆以前超爱钓鱼") == "other"  # a doubled noun
    assert clause_speaker("我闺女最爱吃草莓") == "other"  # 闺女: a daughter, as 女儿
    assert clause_speaker("闺女牛奶过敏好了") == "other"
    owns = ("我花生过敏", "我牛奶喝不了", "我天天喝咖啡", "我大学时候很爱打篮球", "我没事就刷抖音")
    for own in owns:
        assert clause_speaker(own) != "other", own  # the user's own: a noun, an adverb
    assert extract_preferences("我表哥以前超爱打篮球，现在改踢足球了", reader=reader) == []


def test_someone_else_after_a_word_of_time_is_the_subject(reader: ClauseReader) -> None:
    """``现在她…``: the time word before the pronoun left the clause the user's, and the
    head's going-off was stored as the user's (a breaker's finding, after a retraining)."""
    assert clause_speaker("现在她一喝就胃疼") == "other"
    assert clause_speaker("后来我爸也不爱去了") == "other"
    assert clause_speaker("现在它是我的最爱") != "other"  # *it*, the thing, not a person
    assert clause_speaker("现在我一喝就胃疼") != "other"
    assert clause_speaker("以前朋友圈天天发") != "other"  # 朋友圈, the feed, no friend
    assert clause_speaker("最近我朋友圈全是广告") != "other"
    assert clause_speaker("最近他们家的烤鸭我吃腻了") != "other"  # whose the thing is
    assert clause_speaker("以前别人送的围巾我都留着") != "other"
    assert extract_preferences("剧本杀以前让我姐特别上头，现在她一想就累", reader=reader) == []


@pytest.mark.parametrize(("text", "obj"), [
    pytest.param("Tried every new bubble tea place, still a classic milk tea girl", "milk tea",
                 marks=pytest.mark.xfail(strict=True, reason=RETRAINED.format(
                     "it as a coming-round of the new places"))),
    ("试了一圈新出的咖啡，还是觉得美式最好喝", "美式"),
])
def test_a_preference_kept_is_read_by_the_structure_head_where_the_statement_head_reads_none(
    reader: ClauseReader, text: str, obj: str
) -> None:
    """"still X" after trying others: the statement head reads no statement, the structure
    head (which learned the kinds sets) a like, and the tagger marks the object."""
    found = extract_preferences(text, reader=reader)
    assert [c.polarity for c in found] == ["like"] and obj in found[0].content


def _stand_in_tagger(monkeypatch: pytest.MonkeyPatch, marked: list[tuple[str, str]]) -> None:
    """The tagger replaced by one that marks ``marked`` at 0.95 and reads every other word as
    no object (0.95 outside): the tests below are of what capture does with a reading."""
    from types import SimpleNamespace

    from penchant.memory.core.capture import retagging
    from penchant.memory.core.capture.object_tagger import TaggedObject

    objects = [TaggedObject(p, text, 0.95) for p, text in marked]  # type: ignore[arg-type]
    reading = SimpleNamespace(objects=objects, outside=lambda keywords: 0.95,
                              mean=lambda keywords, label: 0.0)
    monkeypatch.setattr(retagging, "default_tagger",
                        lambda: SimpleNamespace(read=lambda sentence: reading))


def test_a_replacement_keeps_to_the_polarities_the_rules_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tagger retrained on more data read "I have a deep-seated fear of the ocean, so I
    avoid …" as a like of *deep-seated fear*, and that like replaced the rules' dislikes: a
    replacement may correct the rules' objects, never add a polarity they did not read."""
    from penchant.memory.core.capture import retagging

    text = "I have a deep dread of open water, so I avoid kayak trips"
    found = extract_preferences(text)  # the rules alone
    assert {c.polarity for c in found} == {"dislike"}
    _stand_in_tagger(monkeypatch, [("like", "deep dread"), ("dislike", "kayak trips")])
    stances = retagging.retagged(text, _reading("dislike", 0.9), found)
    assert stances is not None
    made = [c for s in stances for c in extract.candidates(s)]
    assert [(c.polarity, "kayak" in c.content) for c in made] == [("dislike", True)]


def test_words_of_no_object_are_no_replacement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same tagger marked "of the" as disliked: function words alone name nothing, and
    the rules' objects stay."""
    from penchant.memory.core.capture import retagging

    text = "I have a deep dread of open water, so I avoid kayak trips"
    found = extract_preferences(text)
    _stand_in_tagger(monkeypatch, [("dislike", "of the")])
    assert retagging.retagged(text, _reading("dislike", 0.9), found) is None


def test_a_current_choice_the_structure_head_reads_stores_the_object_liked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A current choice ("X is my daily driver these days") is a slot to the structure head
    and often no statement to the statement head, which reads the request after it. The
    object chosen is the one liked; the tagger's other objects are not taken."""
    text = "Brompton has been my everyday ride for a while, the Dahon sits in the shed"
    statement = _reading("none", 0.9)
    slot = _reading("slot", 0.9)
    kind = Kind(statement.kind, statement.p, statement.probs, structure=slot.probs)
    _stand_in_tagger(monkeypatch, [("like", "Brompton"), ("dislike", "Dahon")])
    monkeypatch.setattr(extract, "structure_sides", lambda sentence, kind, found, made: None)
    monkeypatch.setattr(extract, "exception_sides", lambda sentence, kind, found, made: None)
    found = extract_preferences(text, reader=lambda clauses: [kind] * len(clauses))
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["brompton"])]
    weak = Kind(statement.kind, statement.p, statement.probs, structure=_reading("slot", 0.5).probs)
    assert extract_preferences(text, reader=lambda clauses: [weak] * len(clauses)) == []


def test_the_users_own_think_names_no_one_else(reader: ClauseReader) -> None:
    """"think" was a word of another person, so a sentence where the user thinks was never
    tagged; "thinks" still is ("My sister thinks I love horror films")."""
    text = "Tried every new flavour this summer, still think classic vanilla is the best one"
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, "vanilla" in c.content) for c in found] == [("like", True)]
    assert extract_preferences("My sister thinks I love horror films", reader=reader) == []


@pytest.mark.parametrize(("text", "marked", "want"), [
    # the user's own clause, beside another person's: its object is the user's
    ("Everyone's raving about Arc, but I'm still a Firefox guy",
     [("like", "Arc"), ("like", "Firefox")], ["firefox"]),
    # a clause that names no one after another person's is theirs (a breaker's finding)
    ("Mum used to live on Coke but it's sparkling water all the way now",
     [("like", "sparkling water")], []),
    # the same words in the other person's clause: not known to be the user's
    ("My coworkers all love sushi, so I'm booking a sushi place for the team",
     [("like", "sushi")], []),
])
def test_with_another_person_in_the_sentence_only_the_users_own_clause_is_tagged(
    monkeypatch: pytest.MonkeyPatch, text: str, marked: list[tuple[str, str]],
    want: list[str],
) -> None:
    """Any other person in a sentence kept the tagger out of it: "Yes I know everyone's into
    padel now, I'm still a tennis person" stored nothing. A clause that names the user and
    no one else is the user's own; the tagger's objects there are taken."""
    _stand_in_tagger(monkeypatch, marked)
    monkeypatch.setattr(extract, "structure_sides", lambda sentence, kind, found, made: None)
    monkeypatch.setattr(extract, "exception_sides", lambda sentence, kind, found, made: None)
    like = _reading("like", 0.9)
    found = extract_preferences(text, reader=lambda clauses: [like] * len(clauses))
    assert sorted(k for c in found if c.source == "rule" for k in c.keywords
                  if any(k in w.lower() for _, w in marked)) == want

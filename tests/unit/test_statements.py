"""The statement head (digest, determinism, shapes) and what each kind maps to in capture."""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import numpy as np
import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core import ngrams
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.kinds import (
    is_limit,
    overturns,
    polarity_of,
    pull_object_en,
)
from penchant.memory.core.capture.statements import (
    HEAD_PATH,
    HEAD_SHA256,
    KINDS,
    STRUCTURE_HEAD_PATH,
    STRUCTURE_HEAD_SHA256,
    Kind,
    StatementHead,
    default_structure_head,
)
from penchant.memory.core.capture.zh_objects import pull_object_zh
from penchant.memory.embeddings import sha256_file
from penchant.memory.model import ModelIntegrityError


def _kind(name: str, p: float) -> Kind:
    rest = (1 - p) / (len(KINDS) - 1)
    probs = tuple(p if k == name else rest for k in KINDS)
    return Kind(name, p, probs)


def test_shipped_head_matches_its_pinned_digest() -> None:
    assert sha256_file(HEAD_PATH) == HEAD_SHA256
    head = StatementHead.load()
    assert head.dim == 512 and head.weights.shape == (512, len(KINDS))
    assert head.hidden is not None and head.hidden[2].shape[1] == len(KINDS)
    assert 0.0 < head.mix < 1.0


def test_shipped_structure_head_matches_its_pinned_digest_and_rides_on_each_kind() -> None:
    """The structure head reads the same vectors as the statement head; a reader carries its
    probabilities on each kind, and :meth:`Kind.for_structure` reads them as a kind."""
    assert sha256_file(STRUCTURE_HEAD_PATH) == STRUCTURE_HEAD_SHA256
    assert default_structure_head().weights.shape == (512, len(KINDS))
    [kind] = ClauseReader()(["I switched from Chrome to Firefox for good"])
    assert kind.structure is not None and abs(sum(kind.structure) - 1.0) < 1e-6
    structural = kind.for_structure()
    assert structural.probs == kind.structure and structural.kind == KINDS[
        int(np.argmax(kind.structure))
    ]
    plain = Kind("like", 0.9, kind.probs)
    assert plain.for_structure() is plain  # a reader without the structure head


def test_a_tampered_head_is_refused_with_both_digests(tmp_path: Path) -> None:
    copy = tmp_path / "statements.npz"
    shutil.copy(HEAD_PATH, copy)
    data = bytearray(copy.read_bytes())
    data[-10] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(ModelIntegrityError, match=r"refusing to load") as info:
        StatementHead.load(copy)
    assert HEAD_SHA256 in str(info.value) and sha256_file(copy) in str(info.value)


def test_a_missing_head_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelIntegrityError, match="missing"):
        StatementHead.load(tmp_path / "none.npz")


def test_wrong_shapes_and_kinds_are_refused() -> None:
    with pytest.raises(ModelIntegrityError, match="kinds"):
        StatementHead(np.zeros((4, len(KINDS))), np.zeros(len(KINDS)), ["like"])
    with pytest.raises(ModelIntegrityError, match="shapes"):
        StatementHead(np.zeros((4, 3)), np.zeros(3), KINDS)
    k = len(KINDS)
    w, b = np.zeros((4, k)), np.zeros(k)
    with pytest.raises(ModelIntegrityError, match="hidden layer"):
        StatementHead(w, b, KINDS, (np.zeros((4, 8)), np.zeros(8), np.zeros((7, k)), b), 0.5)
    with pytest.raises(ModelIntegrityError, match="share"):
        StatementHead(w, b, KINDS, (np.zeros((4, 8)), np.zeros(8), np.zeros((8, k)), b), 1.5)
    head = StatementHead.load()
    with pytest.raises(ValueError, match=r"expected \(n, 512\)"):
        head.probabilities(np.zeros((2, 10)))


def test_prediction_is_deterministic_and_rows_sum_to_one() -> None:
    head = StatementHead.load()
    x = np.random.default_rng(0).normal(size=(5, 512)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    texts = ["I love tea", "我戒了奶茶", "hello", "", "Pad thai is off the menu now"]
    first = head.probabilities(x, texts=texts)
    second = StatementHead.load().probabilities(x, texts=texts)
    assert np.array_equal(first, second)
    assert np.allclose(first.sum(axis=1), 1.0)
    assert [k.kind for k in head.read(x, texts)] == [KINDS[i] for i in first.argmax(axis=1)]
    with pytest.raises(ValueError, match="lexical part needs the 5 texts"):
        head.probabilities(x)


@pytest.mark.model
def test_the_head_reads_kinds_of_unseen_sentences() -> None:
    from penchant.memory.client.reading import ClauseReader

    reader = ClauseReader()
    kinds = reader(
        ["I'm not allergic to shellfish anymore.", "我戒了奶茶。", "My brother hates jazz."]
    )
    assert [k.kind for k in kinds][:2] == ["allergy_retraction", "quit"]
    assert reader.last is not None and reader.last.shape == (3, 512)


@pytest.mark.model
def test_a_reader_embeds_a_text_once_and_keeps_every_vector() -> None:
    from penchant.memory.client.reading import ClauseReader, shared_use_embedder

    inner = shared_use_embedder()
    seen: list[str] = []

    class Counting:
        name, dim = inner.name, inner.dim

        def embed(self, texts: list[str]) -> np.ndarray:
            seen.extend(texts)
            return inner.embed(texts)

    reader = ClauseReader(Counting())  # type: ignore[arg-type]
    first = reader(["I love tea", "Raw veggies gross me out"])
    again = reader(["Raw veggies gross me out"])  # an exception's class clause, read again
    assert seen == ["I love tea", "Raw veggies gross me out"]
    assert again[0].kind == first[1].kind
    assert set(reader.vectors()) == {"I love tea", "Raw veggies gross me out"}


def test_polar_kinds_sum_by_polarity() -> None:
    assert polarity_of(_kind("quit", 0.9)) == ("dislike", "quit")
    assert polarity_of(_kind("flip_like", 0.9)) == ("like", "flip_like")
    assert polarity_of(_kind("none", 0.9)) is None
    assert polarity_of(_kind("switch", 0.9)) is None  # structure only from the rules
    split = Kind(
        "dislike",
        0.4,
        tuple({"dislike": 0.4, "flip_dislike": 0.2, "quit": 0.2}.get(k, 0.2 / 9) for k in KINDS),
    )
    assert polarity_of(split) == ("dislike", "dislike")


def test_only_a_confident_change_of_mind_overturns_the_rules() -> None:
    assert overturns(_kind("flip_dislike", 0.9), "like") == "dislike"
    assert overturns(_kind("quit", 0.9), "like") == "dislike"
    assert overturns(_kind("flip_like", 0.9), "dislike") == "like"
    assert overturns(_kind("flip_dislike", 0.5), "like") is None
    assert overturns(_kind("like", 0.99), "dislike") is None
    assert is_limit(_kind("limit", 0.6)) and not is_limit(_kind("limit", 0.3))


@pytest.mark.parametrize(
    ("clause", "obj"),
    [
        ("Pad thai is off the menu for me now.", "Pad thai"),
        ("I've gone off olives lately.", "olives"),
        ("Wow", None),
        ("I'm stuck in traffic again.", None),
        ("I'm a big foodie.", None),
        ("Loud music gives me a headache.", "Loud music"),
        ("Cilantro makes my tongue tingle", "Cilantro"),
        ("that bores me silly", None),  # the lone verb after a pronoun: no object of its own
        ("Count me out", None),
        ("Sign me up for karaoke nights", "karaoke nights"),  # the verb goes, the object stays
        ("I love the W hotel", "W hotel"),  # "w" is chat only in lower case
        ("I've heard great things about yoga", "yoga"),  # after I've: the verb, not the object
        ("Loud parties and I just don't get along", "Loud parties"),
        ("ngl sardines r nasty", "sardines"),
        # The subject a clause opens with ends before its verb (issue 17, blind statements).
        ("Blue cheese smells like old socks.", "Blue cheese"),
        ("Terracotta pots look gorgeous on any windowsill.", "Terracotta pots"),
        ("Fishing is mind-numbingly dull.", "Fishing"),  # a gerund subject, not a state
        ("Gardening grounds me in a way nothing else does.", "Gardening"),
        ("Working from cafes is my favourite way to work.", "Working from cafes"),
        ("The smell of old books is my favourite thing.", "old books"),
        ("Huge fan of Studio Ghibli films.", "Studio Ghibli films"),
        ("Struggling today.", None),  # a lone -ing word with nothing after it: a state
        # The whole subject before its copula, where stop words had cut it ("Yard").
        ("Yard work is a chore I dread every weekend.", "Yard work"),
        ("Binge drinking is behind me.", "Binge drinking"),
        ("Nights out used to be the best.", "Nights out"),
        ("Wet dog smell makes me retch.", "Wet dog smell"),  # smell: a noun before a verb
        ("Honestly, pickles is great, cilantro is awful.", "pickles"),  # not across a comma
        ("Beer always puts me in a good mood.", "Beer"),  # not a degree or time word
        ("Fell out of love with Game of Thrones.", "Game of Thrones"),  # a title's "of"
    ],
)
def test_english_object_pulled_from_a_clause(clause: str, obj: str | None) -> None:
    assert pull_object_en(clause) == obj


@pytest.mark.parametrize(
    ("clause", "obj"),
    [
        ("武侠小说我已经不看了。", "武侠小说"), ("我对奶茶已经没兴趣了", "奶茶"), ("太棒了", None),
        ("羊肉串百吃不腻", "羊肉串"), ("臭豆腐那股味儿我一闻就头疼", "臭豆腐"), ("离谱", None),
        ("真人秀以前追得勤", "真人秀"),  # a noun that starts like a stance word (真)
        ("太棒了 正是我要的", None),  # a stance word and one character is no noun
        ("以前天天喝可乐", "可乐"), ("喝得少", None),  # what a verb of use takes (可乐 is tagged a)
        # The topic a clause opens with, where the segmenter's first noun is in the comment.
        ("翻拍剧毁经典", "翻拍剧"), ("预制菜吃着没灵魂", "预制菜"),
        # A compound's bound head the segmenter cut off, not a character it mis-tags.
        ("跑步机上跑步太无聊了", "跑步机"), ("广场舞跳起来可开心了", "广场舞"),
        ("鸡汤文一看就尴尬", "鸡汤文"), ("高跟鞋穿一天脚就废了", "高跟鞋"),
        ("宵夜戒了半年", "宵夜"),
        ("春天踏青是我每年的固定仪式", "踏青"), ("露营是我的精神充电站", "露营"),
        ("and 预制菜吃着没灵魂", "预制菜"),  # an English connective before Chinese (make chat)
        # The bound head of a compound the segmenter glued to the next word (issue 17:
        # ``剧本杀退坑`` stored 戒了剧本, ``螺蛳粉真香了`` 现在喜欢螺蛳).
        ("密室杀现在不玩了", "密室杀"), ("螺蛳粉真香了", "螺蛳粉"),
        ("鸭血粉丝汤本来不爱", "鸭血粉丝汤"), ("咖啡我不喝了", "咖啡"),
    ],
)
def test_chinese_object_pulled_from_a_clause(clause: str, obj: str | None) -> None:
    assert pull_object_zh(clause) == obj


def _scripted(kind: str, p: float = 0.95):  # type: ignore[no-untyped-def]
    return lambda clauses: [_kind(kind, p) for _ in clauses]


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("I've gone off olives lately.", "flip_dislike", [("dislike", "no longer likes olives")]),
        ("I've gone off olives lately.", "quit", [("dislike", "has given up olives")]),
        ("Turns out mushrooms are great.", "flip_like", [("like", "now likes mushrooms")]),
        ("武侠小说我早就腻了", "flip_dislike", [("dislike", "不再喜欢武侠小说")]),
        ("Wow, great!", "like", []),
        ("My sister adores olives.", "like", []),
    ],
)
def test_a_kind_with_no_rule_match_maps_to_its_polarity(
    text: str, kind: str, expected: list[tuple[str, str]]
) -> None:
    found = extract_preferences(text, reader=_scripted(kind))
    assert [(c.polarity, c.content) for c in found] == expected
    assert extract_preferences(text) == [] or kind == "flip_like"


def _by_clause(*kinds: str):  # type: ignore[no-untyped-def]
    return lambda clauses: [_kind(k, 0.95) for k in kinds[: len(clauses)]]


@pytest.mark.parametrize(
    ("text", "kinds", "expected"),
    [
        ("榴莲闻着臭，我超爱", ("none", "like"), [("like", ["榴莲"])]),
        ("摇滚乐太吵了，真心欣赏不来", ("none", "dislike"), [("dislike", ["摇滚乐"])]),
        ("Jazz records, I just cannot get enough.", ("none", "like"), [("like", ["jazz record"])]),
    ],
)
def test_a_stance_with_no_object_of_its_own_takes_the_topic_of_the_clause_before(
    text: str, kinds: tuple[str, ...], expected: list[tuple[str, list[str]]]
) -> None:
    found = extract_preferences(text, reader=_by_clause(*kinds))
    assert [(c.polarity, c.keywords) for c in found] == expected


@pytest.mark.parametrize(
    ("text", "kinds", "expected"),
    [
        # the flip's clause names no noun (懒得, 一闻): the topic before is what changed
        ("奶茶以前天天点，现在懒得喝了", ("none", "flip_dislike"), [("dislike", ["奶茶"])]),
        ("榴莲以前碰都不碰，现在一闻就馋", ("none", "flip_like"), [("like", ["榴莲"])]),
    ],
)
def test_a_change_of_mind_with_no_noun_of_its_own_takes_the_topic_before(
    text: str, kinds: tuple[str, ...], expected: list[tuple[str, list[str]]]
) -> None:
    found = extract_preferences(text, reader=_by_clause(*kinds))
    assert [(c.polarity, c.keywords) for c in found] == expected


def test_a_plain_dislike_keeps_its_own_object_beside_a_liked_topic() -> None:
    # "修身的" is the clause's own object; the liked topic before must not be turned
    text = "短袖我更喜欢宽松的，修身的穿着难受"
    found = extract_preferences(text, reader=_by_clause("like", "dislike"))
    assert not any(c.polarity == "dislike" and "宽松" in c.content for c in found)


def test_a_topic_does_not_reach_into_the_next_sentence_or_past_another_person() -> None:
    assert extract_preferences("榴莲很臭。我超爱。", reader=_by_clause("none", "like")) == []
    text = "My brother bought durian, loves it."
    found = extract_preferences(text, reader=_by_clause("none", "like"))
    assert [c.keywords for c in found if c.polarity == "like"] != [["durian"]]


def test_a_confident_flip_overturns_a_rule_like_and_reads_as_a_dislike() -> None:
    found = extract_preferences("I love sushi, not.", reader=_scripted("flip_dislike"))
    assert {(c.polarity, c.content) for c in found} == {("dislike", "no longer likes sushi")}


def test_a_limit_clause_yields_no_dislike() -> None:
    text = "I like doughnuts, just no more than one a week."
    reader = lambda cs: [_kind("like" if "like" in c else "limit", 0.9) for c in cs]  # noqa: E731
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, c.keywords) for c in found] == [("like", ["doughnut"])]


@pytest.mark.parametrize(
    ("text", "dislike"),
    [
        ("I prefer tea over coffee.", "less keen on coffee than tea"),
        ("I like every fruit except papaya.", "dislikes papaya (the exception to every fruit)"),
        ("我比起咸粽子更喜欢甜粽子。", "咸粽子不如甜粽子"),
        ("除了西兰花，什么蔬菜我都吃。", "不喜欢西兰花（别的都行）"),
    ],
)
def test_the_side_turned_away_from_reads_as_a_dislike(text: str, dislike: str) -> None:
    found = extract_preferences(text)
    assert [c.content for c in found if c.polarity == "dislike"] == [dislike]
    disliked = {k for c in found if c.polarity == "dislike" for k in c.keywords}
    assert not any(set(c.keywords) & disliked for c in found if c.polarity == "like")


def test_a_switch_maps_to_a_like_of_the_new_and_a_dislike_of_the_old() -> None:
    found = extract_preferences("我把QQ音乐换成网易云音乐了。")
    assert sorted((c.polarity, c.keywords[0]) for c in found) == [
        ("dislike", "qq音乐"),
        ("like", "网易云音乐"),
    ]


def test_a_slot_with_now_fills_the_same_slot() -> None:
    before = extract_preferences("My favourite cuisine is Thai.")
    after = extract_preferences("Ethiopian is my favourite cuisine now.")
    assert before[0].slot == after[0].slot == "favorite cuisine"


def test_lexical_features_are_deterministic_hashed_ngrams() -> None:
    found = ngrams.features("Olives? mid at best 踩雷")
    assert found == sorted(set(found)) and all(0 <= f < ngrams.BUCKETS for f in found)
    assert found == ngrams.features("olives? MID at best 踩雷")  # case folded
    assert zlib.crc32(b"w:mid") % ngrams.BUCKETS in found
    assert zlib.crc32("z2:踩雷".encode()) % ngrams.BUCKETS in found
    assert ngrams.features("") == [] and ngrams.features("   ") == []
    flat, starts, counts = ngrams.batch(["", "mid"])
    assert counts[0] == 0 and starts[1] == 0 and len(flat) == counts[1]


def test_the_lexical_part_is_mixed_in_by_its_share() -> None:
    k = len(KINDS)
    rng = np.random.default_rng(2)
    w, b = rng.normal(size=(4, k)), rng.normal(size=k)
    words = (rng.normal(size=(ngrams.BUCKETS, k)).astype(np.float32), rng.normal(size=k))
    x = rng.normal(size=(2, 4)).astype(np.float32)
    texts = ["mid at best", "yyds"]
    embedded = StatementHead(w, b, KINDS).probabilities(x)
    read = np.exp(ngrams.logits(*words, texts))
    read /= read.sum(axis=1, keepdims=True)
    mixed = StatementHead(w, b, KINDS, None, 1.0, words, 0.4).probabilities(x, texts=texts)
    assert np.allclose(mixed, 0.6 * embedded + 0.4 * read, atol=1e-6)
    with pytest.raises(ModelIntegrityError, match="lexical part has shapes"):
        StatementHead(w, b, KINDS, None, 1.0, (np.zeros((8, k)), np.zeros(k)), 0.5)
    with pytest.raises(ModelIntegrityError, match="lexical share"):
        StatementHead(w, b, KINDS, None, 1.0, words, 1.5)


def test_the_hidden_layer_is_mixed_in_by_its_share() -> None:
    k = len(KINDS)
    rng = np.random.default_rng(1)
    w, b = rng.normal(size=(4, k)), rng.normal(size=k)
    hidden = (
        rng.normal(size=(4, 3)), rng.normal(size=3), rng.normal(size=(3, k)), rng.normal(size=k)
    )
    x = rng.normal(size=(2, 4)).astype(np.float32)
    linear = StatementHead(w, b, KINDS).probabilities(x)
    net = StatementHead(np.zeros((4, k)), np.zeros(k), KINDS, hidden, 0.0).probabilities(x)
    mixed = StatementHead(w, b, KINDS, hidden, 0.25).probabilities(x)
    assert np.allclose(mixed, 0.25 * linear + 0.75 * net, atol=1e-6)
    assert not np.allclose(linear, net)


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        # A rule matched after words that name no one: the clause's kind reads it.
        ("Sushi is basically my love language.", "like", [("like", "likes sushi")]),
        ("Free jazz sounds like noise to me.", "dislike", [("dislike", "dislikes free jazz")]),
        ("TikTok dances make me cringe into another dimension", "dislike",
         [("dislike", "dislikes TikTok dances")]),
        ("叠衣服是最讨厌的家务", "dislike", [("dislike", "不喜欢叠衣服")]),
        ("I finally quit online poker.", "quit", [("dislike", "quit online poker")]),
        # A person named before the match keeps the stance theirs, whatever the kind says.
        ("I think my wife loves jazz", "like", []),
        ("Molly really loves jazz", "like", []),
        ("My sister is really into jazz", "like", []),
        ("他是我最讨厌的人", "dislike", []),
        ("这个是我最喜欢的", "like", []),
    ],
)
def test_a_stance_misread_as_another_persons_is_read_by_its_kind(
    text: str, kind: str, expected: list[tuple[str, str]]
) -> None:
    found = extract_preferences(text, reader=_scripted(kind))
    assert [(c.polarity, c.content) for c in found] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("宫崎骏的动画看多少遍都感动", [("like", "喜欢宫崎骏的动画")]),  # 多少…都: no question
        ("紧身裤勒得难受，不爱穿", [("dislike", "不爱穿紧身裤")]),  # 紧… is an object here
        ("走亲戚太累了", [("dislike", "不喜欢走亲戚")]),
        ("这个多少钱", []),
    ],
)
def test_chinese_idioms_that_look_like_questions_or_bad_objects(
    text: str, expected: list[tuple[str, str]]
) -> None:
    reader = _scripted("like" if expected and expected[0][0] == "like" else "dislike")
    found = extract_preferences(text, reader=reader)
    assert [(c.polarity, c.content) for c in found] == expected


@pytest.mark.parametrize(("mixed", "expected"), [
    ("none", ("dislike", "no longer likes chess")),  # was a KeyError: 'none'
    ("like", ("dislike", "no longer likes chess")),  # was stored as "likes chess", a dislike
    ("quit", ("dislike", "has given up chess")),
])
def test_a_rule_overturned_by_the_linear_part_reads_as_the_overturning_kind(
    mixed: str, expected: tuple[str, str]
) -> None:
    """The linear part's best kind overturns a rule (:func:`overturns`); the mixture's own
    best kind may be another, so the stored text is named by the overturning direction,
    never by a kind that reads the other way or has no label (found on a blind message,
    ``外卖现在只用饿了么了，美团卸了``, that raised ``KeyError: 'none'``)."""
    linear = tuple(0.9 if k == "flip_dislike" else 0.1 / (len(KINDS) - 1) for k in KINDS)
    reading = Kind(mixed, 0.6, tuple(0.6 if k == mixed else 0.4 / 11 for k in KINDS), linear)
    found = extract_preferences("I like chess", reader=lambda clauses: [reading for _ in clauses])
    assert [(c.polarity, c.content) for c in found] == [expected]

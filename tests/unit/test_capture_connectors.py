"""Rules for clause connectors, ellipsis, negation scope and Chinese words that the statement
head relies on: each yields the right (polarity, keyword) on phrasings of its kind."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences
from penchant.memory.core.capture.clauses import clauses
from penchant.memory.core.capture.questions import is_question_or_hypothetical
from penchant.memory.core.capture.stance import elliptic, negated_tail
from penchant.memory.core.capture.statements import KINDS, Kind


def _pairs(text: str, reader: object = None) -> set[tuple[str, str]]:
    found = extract_preferences(text, reader=reader)  # type: ignore[arg-type]
    return {(c.polarity, k) for c in found for k in c.keywords}


@pytest.mark.parametrize(
    ("clause", "polarity"),
    [
        ("I do now.", "like"),
        ("but now I do", "like"),
        ("I really do these days lol", "like"),
        ("not anymore.", "dislike"),
        ("but I don't these days", "dislike"),
        ("no longer.", "dislike"),
        ("I do", None),  # no word of time: may answer anything
        ("I don't like it anymore", None),  # names its verb and object: the rules read it
    ],
)
def test_an_elliptic_clause_reads_as_its_polarity(clause: str, polarity: str | None) -> None:
    assert elliptic(clause) == polarity


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I didn't care for kale before, but I do now.", {("like", "kale")}),
        ("I used to adore opera, not anymore.", {("dislike", "opera")}),
        ("I loved sitcoms as a teen, but I don't these days.", {("dislike", "sitcom")}),
    ],
)
def test_an_elliptic_clause_turns_the_previous_object(text: str, expected: set) -> None:
    assert _pairs(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I like tofu, not golf.", {("like", "tofu"), ("dislike", "golf")}),
        ("I'm into opera, not into musicals.", {("like", "opera"), ("dislike", "musical")}),
        ("I enjoy chess, poker not so much lol.", {("like", "chess"), ("dislike", "poker")}),
        ("I love rain, snow not really.", {("like", "rain"), ("dislike", "snow")}),
    ],
)
def test_a_contrast_after_a_comma_yields_both(text: str, expected: set) -> None:
    assert _pairs(text) == expected


def test_a_negated_tail_names_its_object() -> None:
    match = negated_tail("poker not so much these days.")
    assert match is not None and match["obj"] == "poker"
    assert negated_tail("not really sure why") is None


def test_a_comma_before_a_manner_or_idiom_is_no_contrast() -> None:
    assert clauses("I like coffee, not too strong.") == ["I like coffee, not too strong."]
    assert clauses("I like it, not really sure why.") == ["I like it, not really sure why."]


def test_chinese_coordination_is_cut_at_segmenter_words_only() -> None:
    assert _pairs("我不爱高跟鞋。") == {("dislike", "高跟鞋")}  # 跟 inside a word is no "and"
    assert _pairs("我喜欢苹果和香蕉。") == {("like", "苹果"), ("like", "香蕉")}


def test_a_chinese_degree_negation_is_no_question() -> None:
    assert not is_question_or_hypothetical("我最近不怎么喜欢生蚝了。")
    assert is_question_or_hypothetical("你怎么看")
    assert _pairs("我最近不怎么喜欢生蚝了。") == {("dislike", "生蚝")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我戒咖啡三个月了。", {("dislike", "咖啡")}),  # how long since is no part of the object
        ("我终于戒掉了奶茶。", {("dislike", "奶茶")}),
        ("我放弃芹菜了。", {("dislike", "芹菜")}),
        ("我对生蚝无感。", {("dislike", "生蚝")}),
        ("我最怕蟑螂了。", {("dislike", "蟑螂")}),
    ],
)
def test_chinese_quitting_and_aversion_words(text: str, expected: set) -> None:
    assert _pairs(text) == expected


def test_a_negated_give_up_is_no_dislike() -> None:
    assert _pairs("我不会放弃咖啡。") == set()


@pytest.mark.parametrize(
    "text",
    ["我喜欢所有水果，榴莲除外。", "水果我都可以，就榴莲不要。", "我吃各种水果，但榴莲不吃。"],
)
def test_a_chinese_exception_joins_the_clause_of_its_class(text: str) -> None:
    assert len(clauses(text)) == 1


def _scripted(kind: str, p: float) -> object:
    rest = (1 - p) / (len(KINDS) - 1)
    probs = tuple(p if k == kind else rest for k in KINDS)
    return lambda cs: [Kind(kind, p, probs) for _ in cs]


def test_an_arrow_is_a_switch_whatever_the_head_reads() -> None:
    found = _pairs("咖啡→奶茶，这是我今年的变化。", _scripted("none", 0.9))
    assert found == {("like", "奶茶"), ("dislike", "咖啡")}


def test_the_structural_mass_decides_and_the_connector_picks_the_relation() -> None:
    rest = 0.3 / (len(KINDS) - 2)
    probs = tuple(
        0.35 if k == "comparative" else 0.35 if k == "switch" else rest for k in KINDS
    )
    reader = lambda cs: [Kind("comparative", 0.35, probs) for _ in cs]  # noqa: E731
    found = _pairs("I'm all tea now, no more coffee.", reader)
    assert found == {("like", "tea"), ("dislike", "coffee")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a disliked class fronted, the member marked 除外 / 例外 after any verb
        ("辣条我基本不碰，卫龙除外", {("dislike", "辣条"), ("like", "卫龙")}),
        ("韩剧我从来不追，请回答1988算例外", {("dislike", "韩剧"), ("like", "请回答1988")}),
        ("生蚝我吃不惯，烤生蚝除外", {("dislike", "生蚝"), ("like", "烤生蚝")}),
    ],
)
def test_a_fronted_class_with_its_member_marked_as_the_exception(
    text: str, expected: set[tuple[str, str]]
) -> None:
    assert _pairs(text, _scripted("exception", 0.9)) == expected


def _by_text(kinds: dict[str, str], default: str) -> object:
    def read(clauses: list[str]) -> list[Kind]:
        out = []
        for clause in clauses:
            kind = kinds.get(clause, default)
            probs = tuple(0.9 if k == kind else 0.1 / (len(KINDS) - 1) for k in KINDS)
            out.append(Kind(kind, 0.9, probs))
        return out

    return read


def test_the_head_reads_a_class_clause_that_turns_away_with_no_negation_word() -> None:
    # "make me queasy" has no negation word: the head's reading of the class clause decides
    text = "Sugary cereals make me queasy, except Cheerios"
    reader = _by_text({"Sugary cereals make me queasy": "dislike"}, "exception")
    assert _pairs(text, reader) == {("dislike", "sugary"), ("dislike", "cereal"),
                                    ("like", "cheerio")}
    liked = _by_text({"Sugary cereals make me happy": "like"}, "exception")
    assert _pairs("Sugary cereals make me happy, except Cheerios", liked) == {
        ("like", "sugary"), ("like", "cereal"), ("dislike", "cheerio")}


@pytest.mark.parametrize(
    ("text", "value", "slot"),
    [
        # a current choice named by its time alone, the slot without its verb (迷上的)
        ("最近迷上的桌游是卡坦岛", "卡坦岛", "最喜欢的桌游"),
        ("目前的通勤标配：降噪耳机", "降噪耳机", "最喜欢的通勤标配"),
        # a habit said of now is a current choice even when the head reads no slot
        ("现在写代码默认用Neovim", "neovim", "最喜欢的写代码"),
    ],
)
def test_a_choice_said_of_now_fills_its_slot(text: str, value: str, slot: str) -> None:
    found = extract_preferences(text, reader=_scripted("like", 0.9))  # type: ignore[arg-type]
    assert [(c.polarity, c.keywords, c.slot) for c in found] == [("like", [value], slot)]


def test_a_state_of_now_with_no_statement_fills_no_slot() -> None:
    assert _pairs("最近的天气是阴天", _scripted("none", 0.9)) == set()


@pytest.mark.parametrize(("text", "quit_", "chosen"), [
    ("奶茶彻底戒了，现在只喝柠檬水", "奶茶", "柠檬水"),
    ("辣条戒了，现在只吃海苔", "辣条", "海苔"),
])
def test_a_quit_beside_a_choice_of_now_stands(
    text: str, quit_: str, chosen: str, reader: ClauseReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the structure head reads a slot, the slot replaced every object the rules read:
    the quit was lost, and the slot was named 现在, so any later choice said of now would
    have replaced it. The head's reading is a stand-in here (a slot, not strict)."""
    from penchant.memory.core.capture import structuring

    monkeypatch.setattr(structuring, "_structural_reading",
                        lambda sentence, kinds: [("slot", False)])
    found = extract_preferences(text, reader=reader)
    pairs = {(c.polarity, k) for c in found for k in c.keywords}
    assert ("dislike", quit_) in pairs and ("like", chosen) in pairs
    assert not any(c.slot and "现在" in c.slot for c in found)


def test_a_slot_of_choice_is_the_users_own() -> None:
    reader = _scripted("slot", 0.9)
    found = extract_preferences("FYI, my city of choice now is Kyoto.", reader=reader)  # type: ignore[arg-type]
    assert [(c.polarity, c.keywords, c.slot) for c in found] == [
        ("like", ["kyoto"], "favorite city")
    ]
    other = "My wife's city of choice now is Rome."
    assert extract_preferences(other, reader=reader) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # ``宁愿A`` alone likes A: the head read the next clause's complaint onto it
        ("我宁愿坐地铁，打车太贵", ("like", "宁愿坐地铁"), ("dislike", "宁愿坐地铁")),
        # "A wins over B" / "A beat B": the verb is no part of A
        ("Audiobooks win over podcasts for my commute", ("like", "Audiobooks"),
         ("like", "Audiobooks win")),
    ],
)
def test_comparison_connectors_read_the_side_preferred(
    reader: object, text: str, expected: tuple[str, str], absent: tuple[str, str]
) -> None:
    found = [(c.polarity, c.content) for c in extract_preferences(text, reader=reader)]  # type: ignore[arg-type]
    assert any(p == expected[0] and expected[1] in content for p, content in found)
    assert not any(p == absent[0] and content.endswith(absent[1]) for p, content in found)


def test_words_of_the_stance_itself_are_no_side_of_a_comparison(reader: object) -> None:
    """"I have a strong preference for X, even if it costs more than Y" had stored "prefers
    strong preference" in place of X."""
    text = ("I have a strong preference for sustainable and ethically-made fashion, even if it "
            "costs more than fast fashion brands.")
    found = extract_preferences(text, reader=reader)  # type: ignore[arg-type]
    assert not any("strong preference" in c.content for c in found)
    assert any(c.polarity == "like" and "fashion" in " ".join(c.keywords) for c in found)


def test_a_fronted_object_is_not_the_last_sentences(reader: ClauseReader) -> None:
    """``戒了`` with nothing after it took the object of the sentence before (茶), read as
    someone else's, and the rest of the sentence was lost with it; alone the sentence was
    read right. With no object of its own, the one before is still meant."""
    found = extract_preferences("我喜欢茶。奶茶早就戒了，现在只喝柠檬水。", reader=reader)
    pairs = {(c.polarity, k) for c in found for k in c.keywords}
    assert {("like", "茶"), ("dislike", "奶茶"), ("like", "柠檬水")} <= pairs
    found = extract_preferences("我以前很爱喝可乐。后来戒了。", reader=reader)
    assert [(c.polarity, c.keywords) for c in found] == [("dislike", ["可乐"])]


@pytest.mark.parametrize(("text", "want"), [
    ("Given the choice I'll take a bike over a car", {("like", "bike"), ("dislike", "car")}),
    ("Given the choice, tea over coffee every time", {("like", "tea"), ("dislike", "coffee")}),
    # look-alikes: someone else's choice, a wish, one occasion
    ("Given the choice, my son picks Lego over anything else", set()),
    ("Given the chance I'd travel more", set()),
    ("Given the option of a refund or a voucher, I took the refund", set()),
])
def test_a_choice_framing_a_comparison_is_no_object(
    text: str, want: set[tuple[str, str]], stored: Callable[[str], set[tuple[str, str]]]
) -> None:
    """"Given the choice I'll take a bike over a car" was *prefers choice* and "less keen on
    car than choice": the frame was read as the liked side."""
    assert stored(text) == want

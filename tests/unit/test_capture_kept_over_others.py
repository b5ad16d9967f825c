"""The one kept after trying others, said as a verdict or as who one is ("…, Cholula remains my
ride or die", "Discord still feels best to me", "Nikon shooter for life", "a Maggi
loyalist"): a like of it (``rules_en_evaluations.py``, ``rules_en.py``; issue 17). The
verdict after a comma had been judged by the phrase before it ("after sampling every hot
sauce at the expo"), read as another subject, and nothing was stored. The sentences are new
instances, not rows of the bench files."""

from __future__ import annotations

import pytest

from penchant.memory.client.reading import ClauseReader
from penchant.memory.core.capture import extract_preferences


@pytest.mark.parametrize(("text", "keyword"), [
    ("after a dozen taco trucks this summer, El Gallo remains my #1", "el gallo"),
    ("Tried Bing, tried DuckDuckGo, Google just works for me.", "google"),
    ("we went through Zoom, Teams, Meet... Jitsi still feels best to me", "jitsi"),
    ("sampled every oat milk out there, Oatly is still the GOAT", "oatly"),
    ("Canon shooter for life, whatever the reviews say", "canon"),
    ("honestly still a Heinz loyalist", "heinz"),
    ("Linux user since 2005. Windows never won me over.", "linux"),
])
def test_the_one_kept_over_the_others_is_a_like(text: str, keyword: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    likes = [c for c in found if c.polarity == "like"]
    assert likes, found
    assert any(keyword in k.lower() for k in likes[0].keywords)


@pytest.mark.parametrize("text", [
    "the away team wins",
    "My sister is a Nike loyalist",
    "my brother tried every phone, he says Samsung just works for him",
    "I'm done for life",
])
def test_a_win_a_fact_or_someone_else_is_no_like(text: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert not [c for c in found if c.polarity == "like"], found


@pytest.mark.parametrize(("text", "keyword"), [
    ("播放器试了好几个，最后还是回到了foobar", "foobar"),
    ("婆婆一直劝我用洗衣粉，我还是坚持用洗衣液", "洗衣液"),
    ("猫砂我认准豆腐砂，别的都太呛", "豆腐砂"),
    ("面条还得是手擀面", "手擀面"),
])
def test_a_chinese_choice_come_back_to_is_a_like(text: str, keyword: str) -> None:
    """``最后还是回到了X``, ``还是坚持用X``, ``认准X``, ``还得是X``; the statement head read
    ``回到了`` as a quit, and its reading is vetoed."""
    found = extract_preferences(text, reader=ClauseReader())
    likes = [c for c in found if c.polarity == "like"]
    assert likes, found
    assert any(keyword in k for k in likes[0].keywords)
    assert not [c for c in found if c.polarity == "dislike" and keyword in c.keywords]


@pytest.mark.parametrize("text", ["还是开那辆旧面包车。", "爷爷腿脚不好，出门还是得坐轮椅"])
def test_a_plain_going_on_or_a_necessity_is_no_like(text: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert not [c for c in found if c.polarity == "like"], found


def test_a_dislike_with_no_object_after_a_like_is_of_the_thing_named_between() -> None:
    """``邮箱我只用Fastmail，outlook广告太多，受不了``: 受不了 is of outlook, which opens the
    clause before it, not of the Fastmail liked first."""
    text = "邮箱我只用Fastmail，outlook广告太多，受不了"
    found = extract_preferences(text, reader=ClauseReader())
    read = {(c.polarity, k.lower()) for c in found for k in c.keywords}
    assert any(p == "dislike" and "outlook" in k for p, k in read), found
    assert not any(p == "dislike" and "fastmail" in k for p, k in read)


@pytest.mark.parametrize(("text", "keyword"), [
    ("Oatly is the only oat milk I buy these days", "oatly"),
    ("after a year of trying, Proton is the only one I trust", "proton"),
    ("Dropped Pepsi for good, it's Dr Pepper for me from now on", "dr pepper"),
])
def test_the_only_one_or_the_choice_from_now_on_is_a_like(text: str, keyword: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    likes = [c for c in found if c.polarity == "like"]
    assert likes, found
    assert any(keyword in k.lower() for c in likes for k in c.keywords)


@pytest.mark.parametrize("text", [
    "My husband says Lidl is the only store we go to",
    "it's way too salty for me now",
    "He is the only one I trust",
])
def test_the_only_one_of_someone_else_or_a_judgement_is_no_like(text: str) -> None:
    found = extract_preferences(text, reader=ClauseReader())
    assert not [c for c in found if c.polarity == "like"], found


@pytest.mark.parametrize(("text", "polarity", "keyword"), [
    ("I've made the jump to e-readers and there's no going back", "like", "e-reader"),
    ("Jumped ship to Firefox last spring", "like", "firefox"),
    ("I'm through with Twitter", "dislike", "twitter"),
    ("I'm so over pumpkin spice", "dislike", "pumpkin spice"),
])
def test_a_switch_or_a_leaving_said_another_way(text: str, polarity: str, keyword: str) -> None:
    """"made the jump to X", "jumped ship to X", "moved over to X"; "I'm through with X",
    "I'm so over X". "…and there's no going back" ends the object."""
    found = extract_preferences(text, reader=ClauseReader())
    assert [c.polarity for c in found] == [polarity], found
    assert any(keyword in k.lower() for k in found[0].keywords)


@pytest.mark.parametrize(
    "text", ["I'm so over the moon about the news", "I'm done with my homework"]
)
def test_a_joy_or_a_task_is_no_leaving(text: str) -> None:
    assert extract_preferences(text, reader=ClauseReader()) == []


@pytest.mark.parametrize(("text", "keyword"), [
    ("tried Keds, Vans and Converse... my Birkenstocks are still my go-to", "birkenstock"),
    ("Flirted with Android for a bit, back on my Pixel for good now and loving it", "pixel"),
    ("Tested four note apps, went back to Apple Notes and staying put", "apple note"),
])
def test_a_possessed_thing_kept_or_a_lasting_return_is_a_like(text: str, keyword: str) -> None:
    """The user's ``my`` before what is kept (the verdict rule had refused any possessive), and a
    return said to last ("back on X for good", "back to X and staying put"); issue 17."""
    found = extract_preferences(text)
    assert [c.polarity for c in found] == ["like"], found
    assert keyword in " ".join(found[0].keywords).lower()


@pytest.mark.parametrize("text", [
    "my husband is still my number one",
    "my mum is still my go-to for advice",
    "back to work for good",
    "My sister is back on Facebook for good",
])
def test_a_person_kept_or_a_return_to_no_taste_is_no_preference(text: str) -> None:
    assert extract_preferences(text) == []

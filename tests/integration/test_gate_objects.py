"""The gate's objects: derived from content, hyphen variants, slots and protected preferences.

Each test checks what is active in Redis after the writes (issue 9: objects on every write
path, single-valued slots, allergies never superseded by a broader like).
"""

from __future__ import annotations

import json

from penchant.memory import Memory, PreferenceCandidate
from penchant.memory.core.objects import derive_objects
from penchant.memory.services.transfer import import_document, parse_document

from conftest import CliRunner


def like(content: str, *keywords: str, **fields: object) -> PreferenceCandidate:
    return PreferenceCandidate(content=content, polarity="like", keywords=list(keywords), **fields)


def dislike(content: str, *keywords: str, **fields: object) -> PreferenceCandidate:
    return PreferenceCandidate(
        content=content, polarity="dislike", keywords=list(keywords), **fields
    )


def active(memory: Memory, user: str = "u") -> list[tuple[str, str]]:
    return sorted((p.polarity, p.content) for p in memory.preferences(user))


# -- objects derived from content ---------------------------------------------------------------


def test_label_sentences_get_the_objects_capture_would_find() -> None:
    assert derive_objects("likes velvet curtains", "like").keywords == ["velvet", "curtain"]
    assert derive_objects("does not want velvet curtains", "dislike").keywords == [
        "velvet",
        "curtain",
    ]
    assert derive_objects("is allergic to shrimp", "dislike").keywords == ["shrimp"]
    assert derive_objects("no plastic please", "dislike").keywords == ["plastic"]
    zh_like, zh_dislike = derive_objects("喜欢皮鞋", "like"), derive_objects("不要皮鞋", "dislike")
    assert zh_like.keywords and zh_like.keywords == zh_dislike.keywords


def test_a_sentence_with_nothing_specific_derives_no_object() -> None:
    assert derive_objects("likes it", "like").keywords == []
    assert derive_objects("不喜欢这个", "dislike").keywords == []


def test_remember_without_keywords_resolves_a_flip_in_english(memory: Memory) -> None:
    memory.remember("u", like("likes velvet curtains"))
    result = memory.remember("u", dislike("does not want velvet curtains"))
    assert active(memory) == [("dislike", "does not want velvet curtains")]
    assert [s.preference.content for s in result.superseded] == ["likes velvet curtains"]


def test_remember_without_keywords_resolves_a_flip_in_chinese(memory: Memory) -> None:
    memory.remember("u", like("爱喝咖啡"))
    memory.remember("u", dislike("不喝咖啡了"))
    assert active(memory) == [("dislike", "不喝咖啡了")]


def test_derived_keywords_are_stored_and_forget_finds_them(memory: Memory) -> None:
    memory.remember("u", like("loves wool scarves"))
    (pref,) = memory.preferences("u")
    assert pref.keywords == ["wool", "scarf"]
    assert [p.content for p in memory.forget("u", "scarf").removed] == ["loves wool scarves"]
    assert memory.preferences("u") == []


def test_a_derived_flip_leaves_unrelated_preferences_alone(memory: Memory) -> None:
    memory.remember("u", like("likes plastic boxes"))
    memory.remember("u", like("likes linen shirts"))
    memory.remember("u", dislike("no plastic please"))
    assert active(memory) == [("dislike", "no plastic please"), ("like", "likes linen shirts")]


def test_import_without_keywords_resolves_a_flip(memory: Memory) -> None:
    memory.remember("u", like("enjoys reality TV"))
    document = {
        "format_version": 1,
        "user_id": "u",
        "preferences": [{"content": "dislikes reality TV", "polarity": "dislike"}],
        "history": [],
    }
    import_document(memory, parse_document(json.dumps(document)))
    assert active(memory) == [("dislike", "dislikes reality TV")]


def test_readme_cli_example_flips_without_keywords(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    first = cli(
        ["remember", "--user", "ana", "--polarity", "like", "--content", "likes plastic boxes",
         "--json"], cli_env,
    )
    assert first.returncode == 0, first.stderr
    second = cli(
        ["remember", "--user", "ana", "--polarity", "dislike", "--content", "no plastic please",
         "--json"], cli_env,
    )
    assert second.returncode == 0, second.stderr
    document = json.loads(second.stdout)
    assert [s["content"] for s in document["superseded"]] == ["likes plastic boxes"]
    assert active(memory, "ana") == [("dislike", "no plastic please")]


# -- hyphen and space ---------------------------------------------------------------------------


def test_hyphen_and_space_spellings_merge(memory: Memory) -> None:
    memory.remember("u", like("likes ice cream", "ice cream"))
    memory.remember("u", like("likes ice-cream", "ice-cream"))
    (pref,) = memory.preferences("u")
    assert pref.mention_count == 2


def test_hyphenated_t_shirt_flip_supersedes_the_spaced_one(memory: Memory) -> None:
    memory.remember("u", like("likes t shirts", "t shirt"))
    memory.remember("u", dislike("dislikes t-shirts", "t-shirt"))
    assert active(memory) == [("dislike", "dislikes t-shirts")]


def test_a_hyphenated_compound_is_not_its_first_word(memory: Memory) -> None:
    memory.remember("u", like("likes plastic-free packaging", "plastic-free"))
    memory.remember("u", dislike("no plastic", "plastic"))
    assert len(memory.preferences("u")) == 2


# -- single-valued slots ------------------------------------------------------------------------


def test_newer_value_of_a_slot_supersedes_the_older_one(memory: Memory) -> None:
    old = memory.remember("u", like("favourite author is Ursula Le Guin", "ursula le guin",
                                    slot="favourite author")).created[0]
    result = memory.remember("u", like("favourite author is Ted Chiang", "ted chiang",
                                       slot="favorite author"))
    assert [s.preference.id for s in result.superseded] == [old.id]
    (pref,) = memory.preferences("u")
    assert (pref.content, pref.slot) == ("favourite author is Ted Chiang", "favorite author")
    event = next(e for e in memory.changes("u") if e.op == "superseded")
    assert "slot" in event.reason


def test_slot_is_derived_from_content_without_keywords(memory: Memory) -> None:
    memory.remember("u", like("My favourite band is Radiohead"))
    memory.remember("u", like("My favourite band is Blur"))
    (pref,) = memory.preferences("u")
    assert pref.content == "My favourite band is Blur"
    assert pref.slot == "favorite band"


def test_different_slots_do_not_touch_each_other(memory: Memory) -> None:
    memory.remember("u", like("favourite author is Le Guin", "le guin", slot="favourite author"))
    memory.remember("u", like("favourite band is Blur", "blur", slot="favourite band"))
    assert len(memory.preferences("u")) == 2


def test_a_value_without_a_slot_is_not_superseded_by_a_slot(memory: Memory) -> None:
    memory.remember("u", like("likes Le Guin's novels", "le guin"))
    memory.remember("u", like("favourite author is Ted Chiang", "ted chiang",
                              slot="favourite author"))
    assert len(memory.preferences("u")) == 2


# -- protected preferences ----------------------------------------------------------------------


def test_allergy_is_marked_protected(memory: Memory) -> None:
    memory.remember("u", dislike("allergic to tree nuts", "tree nut"))
    memory.remember("u", dislike("对虾过敏"))
    assert all(p.protected for p in memory.preferences("u"))


def test_broader_like_never_supersedes_an_allergy(memory: Memory) -> None:
    memory.remember("u", dislike("allergic to tree nuts", "tree nut", category="food"))
    result = memory.remember("u", like("loves nuts in salad", "nut", category="food"))
    assert result.superseded == []
    assert active(memory) == [("dislike", "allergic to tree nuts"), ("like", "loves nuts in salad")]


def test_like_of_an_overlapping_object_never_supersedes_an_intolerance(memory: Memory) -> None:
    memory.remember("u", dislike("lactose intolerant: no milk", "milk"))
    memory.remember("u", like("loves milk", "milk"))
    assert ("dislike", "lactose intolerant: no milk") in active(memory)


def test_chinese_allergy_survives_a_like(memory: Memory) -> None:
    memory.remember("u", dislike("对花生过敏"))
    memory.remember("u", like("喜欢花生"))
    assert ("dislike", "对花生过敏") in active(memory)


def test_explicit_retraction_supersedes_the_allergy(memory: Memory) -> None:
    memory.remember("u", dislike("allergic to peanuts"))
    result = memory.remember("u", like("no longer allergic to peanuts"))
    assert [s.preference.content for s in result.superseded] == ["allergic to peanuts"]
    # issue 17: a retraction lifts the allergy and stores no like of the object
    assert active(memory) == [] and result.created == []
    event = next(e for e in memory.changes("u") if e.op == "superseded")
    assert event.reason.startswith("retracted by")


def test_a_slot_never_supersedes_an_allergy(memory: Memory) -> None:
    memory.remember("u", dislike("allergic to shellfish", "shellfish", slot="favourite food"))
    memory.remember("u", like("favourite food is lobster", "lobster", slot="favourite food"))
    assert len(memory.preferences("u")) == 2


def test_protected_flag_is_listed_by_prefs(
    cli: CliRunner, cli_env: dict[str, str], memory: Memory
) -> None:
    memory.remember("u", dislike("allergic to sesame"))
    proc = cli(["prefs", "--user", "u", "--json"], cli_env)
    assert proc.returncode == 0, proc.stderr
    (listed,) = json.loads(proc.stdout)
    assert listed["protected"] is True and listed["slot"] is None


def test_a_record_stored_before_protection_existed_is_still_protected() -> None:
    from penchant.memory.model.records import Preference

    stored = json.loads(
        Preference(user_id="u", content="allergic to shrimp", polarity="dislike").to_json()
    )
    del stored["protected"]
    assert Preference.from_json(json.dumps(stored)).protected is True


def test_a_slot_given_by_a_tool_is_the_slot_capture_reads(memory: Memory) -> None:
    memory.capture("u", "My favourite band is Radiohead.")
    result = memory.remember(
        "u", like("all-time favourite band is Blur", "blur", slot="All-time Favourite Bands")
    )
    assert [s.preference.content for s in result.superseded] == ["favourite band is Radiohead"]
    (pref,) = memory.preferences("u")
    assert (pref.keywords, pref.slot) == (["blur"], "favorite band")


def test_chinese_slot_names_written_two_ways_are_one_slot(memory: Memory) -> None:
    memory.remember("u", like("目前的手机是华为", "华为", slot="目前的手机"))
    memory.remember("u", like("现在的手机是小米", "小米", slot="现在的手机"))
    (pref,) = memory.preferences("u")
    assert pref.keywords == ["小米"]

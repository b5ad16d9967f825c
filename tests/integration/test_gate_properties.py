"""Property-based tests: no input crashes the gate or crosses users."""

from __future__ import annotations

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penchant.memory import InvalidInputError, Memory, PreferenceCandidate
from penchant.memory.model.keys import UserKeys, decode_user_id, encode_user_id

FAST = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
user_ids = st.text(min_size=0, max_size=140)
contents = st.text(min_size=0, max_size=600)
keyword_lists = st.lists(st.text(max_size=90), max_size=14)


def _snapshot(client: redis.Redis) -> dict[bytes, object]:
    out: dict[bytes, object] = {}
    for key in client.scan_iter("penchant:{*"):
        if b":idem:" in key:  # a write's idempotency record: its receipt, not memory
            continue
        if b":changes" in key:  # the change log, which records the rejection by design
            continue
        kind = client.type(key)
        if kind == b"hash":
            out[key] = client.hgetall(key)
        elif kind == b"string":
            out[key] = client.get(key)
    return out


@FAST
@given(user=user_ids)
def test_user_id_encoding_is_injective_and_tag_safe(user: str) -> None:
    try:
        encoded = encode_user_id(user)
    except InvalidInputError:
        return
    assert decode_user_id(encoded) == user
    assert not set(encoded) & set("{}:* \n")
    assert encoded.isascii()
    assert UserKeys.for_user(user).prefs.count("{") == 1


@FAST
@given(content=contents, keywords=keyword_lists, polarity=st.sampled_from(["like", "dislike"]))
def test_no_content_crashes_the_gate_and_rejections_change_nothing(
    memory: Memory, redis_client: redis.Redis, content: str, keywords: list[str], polarity: str
) -> None:
    before = _snapshot(redis_client)
    result = memory.remember(
        "prop", PreferenceCandidate(content=content, polarity=polarity, keywords=keywords)  # type: ignore[arg-type]
    )
    after = _snapshot(redis_client)
    if result.rejected:
        assert result.rejected[0].reason
        assert {k: v for k, v in after.items() if not k.endswith(b":rev")} == {
            k: v for k, v in before.items() if not k.endswith(b":rev")
        }
    else:
        stored = {p.id for p in memory.preferences("prop")}
        assert {p.id for p in result.created + result.merged} <= stored


@FAST
@given(user=user_ids)
def test_no_user_id_reaches_another_users_keys(
    memory: Memory, redis_client: redis.Redis, user: str
) -> None:
    victim = "victim"
    if user == victim:
        return
    memory.remember(victim, PreferenceCandidate(content="likes tea", polarity="like",
                                                keywords=["tea"]))
    victim_keys = set(UserKeys.for_user(victim).all_fixed())
    before = {k: redis_client.dump(k) for k in victim_keys}
    try:
        memory.remember(user, PreferenceCandidate(content="dislikes tea", polarity="dislike",
                                                  keywords=["tea"]))
        memory.forget(user, "tea")
    except InvalidInputError:
        pass
    assert {k: redis_client.dump(k) for k in victim_keys} == before


@pytest.mark.parametrize("user", ["a", "a%3A", "a:"])
def test_percent_lookalike_ids_stay_distinct(memory: Memory, user: str) -> None:
    memory.remember(user, PreferenceCandidate(content=f"likes {user}", polarity="like"))
    assert [p.content for p in memory.preferences(user)] == [f"likes {user}"]

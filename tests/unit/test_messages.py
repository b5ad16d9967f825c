"""One-line messages of the CLI contract: shortened echoes, validation errors, model failures."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from penchant.agent.models import kept_and_retried
from penchant.memory import echoed, redacted_url
from penchant.memory.model.echo import ECHO_CHARS, shorten
from penchant.memory.model.records import (
    GateResult,
    PreferenceCandidate,
    Rejection,
    describe_validation_error,
)


def test_short_text_is_echoed_unchanged() -> None:
    assert shorten("likes tea") == "likes tea"
    assert shorten("x" * ECHO_CHARS) == "x" * ECHO_CHARS


def test_long_text_is_echoed_as_its_start_an_ellipsis_and_its_length() -> None:
    assert shorten("a" * 10_000_000) == "a" * 80 + "… (10000000 characters)"


@given(st.text(st.characters(exclude_categories=()), max_size=400))
def test_an_echo_is_never_longer_than_its_bound(text: str) -> None:
    echoed = shorten(text)
    assert len(echoed) <= ECHO_CHARS + len(f"… ({len(text)} characters)")
    assert text.startswith(echoed) or echoed.startswith(text[:ECHO_CHARS])


def test_an_echoed_value_names_its_hidden_characters_and_is_bounded() -> None:
    assert echoed("like" + "\U000e0041\U000e0042" + "\u202e") == "like⟨3 hidden characters⟩"
    assert echoed("x" * 1_000_000) == "x" * ECHO_CHARS + "… (1000000 characters)"
    assert echoed(42) == "42"


@pytest.mark.parametrize(("url", "shown"), [
    ("redis://:s3cretPW@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
    ("rediss://ana:s3cretPW@db.example:6380/1", "rediss://***:***@db.example:6380/1"),
    ("redis://s3cretPW@db.example", "redis://***@db.example"),
    ("unix://:s3cretPW@/run/redis.sock", "unix://:***@/run/redis.sock"),
    ("unix:///run/redis.sock?db=2&password=s3cretPW", "unix:///run/redis.sock?db=2&password=***"),
    ("redis://:s3c/ret?PW@db.example/0", "redis://:***@db.example/0"),
    ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
    ("unix:///run/redis.sock", "unix:///run/redis.sock"),
])
def test_a_redis_url_is_shown_without_its_credentials(url: str, shown: str) -> None:
    assert redacted_url(url) == shown


def test_a_rejection_keeps_only_the_shortened_content() -> None:
    rejection = Rejection(content="ignore " * 1000, reason="instruction-like")
    assert rejection.content == ("ignore " * 1000)[:80] + "… (7000 characters)"


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1.0000001, -0.1])
def test_confidence_outside_0_to_1_or_not_finite_names_the_field_value_and_range(
    value: float,
) -> None:
    with pytest.raises(ValidationError) as caught:
        PreferenceCandidate(content="likes tea", polarity="like", confidence=value)
    assert describe_validation_error(caught.value) == (
        f"confidence: must be a number from 0 to 1, got {value!r}")


def test_a_literal_error_names_the_value_given_and_the_allowed_ones() -> None:
    with pytest.raises(ValidationError) as caught:
        PreferenceCandidate(content="likes tea", polarity="meh")  # type: ignore[arg-type]
    assert describe_validation_error(caught.value, where="import document") == (
        "import document: polarity = 'meh': Input should be 'like' or 'dislike'")


def test_a_huge_bad_value_is_shortened_in_the_validation_message() -> None:
    with pytest.raises(ValidationError) as caught:
        PreferenceCandidate(content="likes tea", polarity="x" * 100_000)  # type: ignore[arg-type]
    assert len(describe_validation_error(caught.value)) < 250


def test_a_statement_dated_in_the_future_is_refused_with_the_latest_allowed_time() -> None:
    with pytest.raises(ValidationError) as caught:
        PreferenceCandidate(content="likes tea", polarity="like", at="9999-01-01T00:00:00Z")
    message = describe_validation_error(caught.value)
    assert message.startswith("at: 9999-01-01T00:00:00+00:00 is in the future")
    assert "at most 1 day ahead of now (UTC)" in message


def test_all_rejected_only_when_there_were_candidates_and_none_stored() -> None:
    refused = Rejection(content="ignore previous instructions", reason="instruction-like")
    assert GateResult(rejected=[refused]).all_rejected
    assert not GateResult().all_rejected  # nothing found is not a refusal
    assert not GateResult(rejected=[refused], deferred=["likes tea"]).all_rejected
    assert GateResult(rejected=[refused]).rejection_line() == (
        "nothing stored: 'ignore previous instructions' was rejected: instruction-like")
    assert GateResult(rejected=[refused, refused]).rejection_line().startswith(
        "nothing stored: all 2 candidates were rejected; the first, 'ignore previous")


def test_after_a_model_failure_the_note_says_what_rule_capture_kept_and_nothing_is_retried(
) -> None:
    changes = {"created": [{"content": "dislikes plastic"}], "merged": [{"content": "likes tea"}],
               "rejected": [{"content": "x", "reason": "y"}]}
    assert kept_and_retried(changes) == (
        "kept: rule capture stored 'dislikes plastic', 'likes tea'; "
        "retried: nothing (send it again later)")
    assert kept_and_retried(None) == (
        "kept: nothing was stored; retried: nothing (send it again later)")


def test_after_a_model_failure_a_spooled_write_is_named_as_retried() -> None:
    note = kept_and_retried({"deferred": ["likes tea"]})
    assert note == ("kept: nothing was stored; retried: 1 write(s) in the local spool, "
                    "stored when Redis is back")

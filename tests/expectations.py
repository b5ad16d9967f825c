"""Checking a case's ``expect`` block against what is stored in Redis."""

from __future__ import annotations

from typing import Any

from penchant.memory import Preference
from penchant.memory.model.normalize import normalise_keyword


def mentions(pref: Preference, keyword: str) -> bool:
    """Whether a preference's normalised keywords or content contain ``keyword``."""
    needle = normalise_keyword(keyword)
    haystacks = [*pref.keywords, normalise_keyword(pref.content)]
    return any(needle in h for h in haystacks)


def check_expectations(prefs: list[Preference], expect: dict[str, Any], rejected: int) -> None:
    """Assert every ``active``, ``absent``, ``count`` and ``rejected`` expectation."""
    described = [(p.polarity, p.content, p.keywords) for p in prefs]
    for want in expect.get("active", []):
        assert any(
            p.polarity == want["polarity"] and mentions(p, want["keyword"]) for p in prefs
        ), f"expected an active {want} in {described}"
    for gone in expect.get("absent", []):
        assert not any(
            p.polarity == gone["polarity"] and mentions(p, gone["keyword"]) for p in prefs
        ), f"expected no {gone} in {described}"
    if "count" in expect:
        assert len(prefs) == expect["count"], described
    if "rejected" in expect:
        assert rejected == expect["rejected"]

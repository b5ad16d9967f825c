"""Never leaving a thing out is a like (issue 17).

"I never skip my morning run", "I can't say no to churros", "I never turn down a slice of
cheesecake": the statement head reads the negation and the verb of leaving out and stores a
dislike of the thing (or the rules kept the verb as the object, *turn*). A skip the user must
make, or someone else's, is no stance of the user's. The sentences are new, written for this
test."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Stored = Callable[[str], set[tuple[str, str]]]
"""The ``stored`` fixture (``tests/conftest.py``)."""


@pytest.mark.parametrize(("text", "want"), [
    ("I never skip my morning run", {("like", "morning run")}),
    ("I can't say no to churros", {("like", "churro")}),
    ("I never turn down a slice of cheesecake", {("like", "cheesecake")}),
    ("Sea shanties are a delight, I never skip them", {("like", "sea shanty")}),
])
def test_never_leaving_it_out_is_a_like(
    text: str, want: set[tuple[str, str]], stored: Stored
) -> None:
    assert stored(text) == want


@pytest.mark.parametrize("text", ["I can't skip class tomorrow", "My sister never skips leg day"])
def test_a_skip_that_is_no_taste_stores_nothing(text: str, stored: Stored) -> None:
    assert stored(text) == set()

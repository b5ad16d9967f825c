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

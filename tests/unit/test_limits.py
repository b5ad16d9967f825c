"""Import limits (issue 11): a document over a limit is refused before anything is written,
with the limit and its setting named."""

from __future__ import annotations

import json

import pytest

from penchant.memory import InvalidInputError, Settings
from penchant.memory.services.transfer import parse_document


def _document(n: int, **extra: object) -> str:
    prefs = [{"content": f"I like thing{i}", "polarity": "like"} for i in range(n)]
    return json.dumps({"user_id": "u", "preferences": prefs, **extra})


def test_a_document_at_the_byte_limit_is_parsed() -> None:
    text = _document(3)
    settings = Settings(max_import_bytes=max(1024, len(text.encode())))
    assert len(parse_document(text, settings=settings).preferences) == 3


def test_a_document_over_the_byte_limit_is_refused_before_it_is_parsed() -> None:
    text = _document(3) + " " * 2000
    with pytest.raises(InvalidInputError, match=r"limit is 1024 \(PENCHANT_MAX_IMPORT_BYTES\)"):
        parse_document(text, settings=Settings(max_import_bytes=1024))


def test_a_document_with_too_many_preferences_is_refused() -> None:
    settings = Settings(max_import_preferences=2)
    assert len(parse_document(_document(2), settings=settings).preferences) == 2
    with pytest.raises(InvalidInputError, match="PENCHANT_MAX_IMPORT_PREFERENCES"):
        parse_document(_document(3), settings=settings)


def test_a_history_date_before_2000_is_refused() -> None:
    history = [{"kind": "search", "summary": "tea", "at": "1999-01-01T00:00:00Z"}]
    with pytest.raises(InvalidInputError, match=r"history\.0\.at: .*before 2000"):
        parse_document(_document(1, history=history))

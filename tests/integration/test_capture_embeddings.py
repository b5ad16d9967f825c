"""Issue 17, the cost of understanding: what a capture embeds, counted.

A capture of an N-clause message embeds each clause once for the statement head, and each
sentence of more than one clause once more whole (one batch), and each candidate's stored
text (content plus category) for the gate (one batch). No text
is embedded twice in one capture: the gate reuses the head's vector of a text it embedded
already, so a queued tool call in the user's own words costs no second embedding.
Counted on the real default embedder (USE multilingual v3) and real Redis."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import USEEmbedder

USER = "embedcount"


class CountingEmbedder:
    """The USE embedder, with every batch it is asked to embed recorded."""

    def __init__(self, inner: USEEmbedder) -> None:
        self.inner = inner
        self.batches: list[list[str]] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def __getattr__(self, attribute: str) -> Any:  # thresholds and flags of the real one
        return getattr(self.inner, attribute)

    def embed(self, texts: list[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return self.inner.embed(texts)

    def texts(self) -> list[str]:
        return [t for batch in self.batches for t in batch]


@pytest.fixture
def counted(
    redis_client: Any, settings: Settings, use_embedder: USEEmbedder
) -> Iterator[tuple[Memory, CountingEmbedder]]:
    embedder = CountingEmbedder(use_embedder)
    memory = Memory(redis_client, settings=settings, embedder=embedder)  # type: ignore[arg-type]
    memory.backend.ensure_schema()
    memory.remember("warm-up", PreferenceCandidate(content="I like warm-ups", polarity="like"))
    embedder.batches.clear()  # the process's intent bank is embedded once, before this
    yield memory, embedder
    memory.close()


def test_an_n_clause_capture_embeds_each_clause_once_and_each_stored_text_once(
    counted: tuple[Memory, CountingEmbedder],
) -> None:
    memory, embedder = counted
    result = memory.capture(USER, "I love sushi, I hate plastic and I'm allergic to peanuts")
    clauses, stored = embedder.batches
    assert clauses == ["I love sushi", "I hate plastic", "I'm allergic to peanuts",
                       "I love sushi, I hate plastic and I'm allergic to peanuts"]
    assert stored == ["likes sushi (food)", "dislikes plastic (material)",
                      "allergic to peanuts (food)"]
    assert len(result.created) == 3 and len(memory.preferences(USER)) == 3
    assert max(Counter(embedder.texts()).values()) == 1  # nothing embedded twice


def test_a_clause_with_no_preference_costs_its_clause_embedding_only(
    counted: tuple[Memory, CountingEmbedder],
) -> None:
    memory, embedder = counted
    memory.capture(USER, "I like green tea. My brother loves cake.")
    assert [len(batch) for batch in embedder.batches] == [2, 1]
    assert [p.content for p in memory.preferences(USER)] == ["likes green tea"]


def test_the_gate_reuses_the_clause_vector_of_a_queued_call_in_the_users_words(
    counted: tuple[Memory, CountingEmbedder],
) -> None:
    memory, embedder = counted
    text = "I like brutalist architecture"
    queued = PreferenceCandidate(content=text, polarity="like", source="tool")
    result = memory.capture(USER, text, queued=[queued])
    assert embedder.texts() == [text]  # the head's vector is the stored one: one embedding
    [pref] = result.created
    assert (pref.content, pref.category, pref.source) == (text, "other", "tool")
    [(vector, model)] = [(p.embedding, p.embedding_model) for p in memory.preferences(USER)]
    expected = embedder.inner.embed([text])[0]
    assert model == embedder.name and vector is not None
    assert np.allclose(np.frombuffer(vector, dtype=np.float32), expected, atol=1e-6)


def test_a_clause_read_again_after_the_batch_does_not_make_the_gate_embed_twice(
    counted: tuple[Memory, CountingEmbedder],
) -> None:
    # an exception's class clause is read on its own after the message's batch; the gate
    # still reuses every vector the reader computed (it had kept only the last batch)
    memory, embedder = counted
    memory.capture(USER, "I like tea. Raw veggies gross me out, except cucumber.")
    assert max(Counter(embedder.texts()).values()) == 1, embedder.batches

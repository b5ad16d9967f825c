"""Reflect: reason over a user's memory, answer a question, and propose observations.

``reflect(user, question, disposition)`` (DESIGN.md §9) recalls the preferences relevant to
the question (plus the rest of the user's preferences, up to a limit), the recent behaviour
history and the stored observations; then either

* **with a model** (anything satisfying :class:`ReflectModel`; Penchant's LangChain one lives
  in ``penchant.agent.reflect_model``): ONE structured-output call that returns a
  :class:`ReflectOutput` — the answer, proposed observations (each with a confidence and the
  ids of the preferences it rests on) and evidence about existing observations; or
* **offline**: a deterministic answer built from the recalled memory and deterministic
  observations (category-level summaries such as "dislikes several materials: plastic,
  polyester" when at least two preferences of a category share a polarity).

The observations then go through the persistence gate
(:meth:`~.client.Memory.write_observations`: screened, deduplicated, confidence moved
by ±α / −2α). The model's output is accepted item by item (:func:`parse_reflect_output`): a
malformed observation or evidence item (no ``sources``, a confidence of 7, an unknown kind of
evidence) is dropped with a note in :attr:`ReflectResult.dropped` and the valid ones are
kept. Only a reply without a usable ``answer`` (not JSON, not an object, no answer) is
refused whole: :class:`ReflectModelError`, nothing written. A failing model raises before
anything is written too.

The disposition is Hindsight's CARA profile — skepticism, literalism and empathy, each 1–5 —
verbalised into the prompt (Hindsight: "Hindsight: agent memory that retains, recalls, and
reflects", 2025). No LangChain here: ``memory/`` stays free of LLM frameworks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core import (
    ObservationCandidate,
    ObservationResult,
    ObservationUpdate,
)
from ..model import (
    InvalidInputError,
    PenchantError,
    ReflectModelError,
)

if TYPE_CHECKING:
    from ..client import AsyncMemory, Memory, MemoryContext

from .reflect_prompt import (
    HISTORY_SNAPSHOTS,
    MAX_CONTEXT_PREFERENCES,
    Disposition,
    DroppedItem,
    ObservationEvidence,
    ProposedObservation,
    ReflectContext,
    ReflectModel,
    ReflectOutput,
    ReflectPrompt,
    ReflectResult,
    build_prompt,
    keep_valid_items,
    offline_reflect,
)

logger = logging.getLogger(__name__)


def gather_context(
    memory: Memory, user_id: str, question: str, disposition: Disposition, *, k: int = 10
) -> ReflectContext:
    """Recall what reflect reasons over (see :class:`ReflectContext`), in one
    :meth:`~penchant.memory.Memory.context` read.

    Raises:
        InvalidInputError: Empty question or a bad user id.
    """
    _check_question(question)
    return _context_of(question, disposition,
                       memory.context(user_id, question, k=k, history_limit=HISTORY_SNAPSHOTS))


async def agather_context(
    memory: AsyncMemory, user_id: str, question: str, disposition: Disposition, *, k: int = 10
) -> ReflectContext:
    """:func:`gather_context` over an :class:`~penchant.memory.AsyncMemory`."""
    _check_question(question)
    return _context_of(
        question, disposition,
        await memory.context(user_id, question, k=k, history_limit=HISTORY_SNAPSHOTS),
    )  # fmt: skip


def _check_question(question: str) -> None:
    if not (question or "").strip():
        raise InvalidInputError("reflect needs a question, e.g. 'what gifts would I like?'")


def _context_of(question: str, disposition: Disposition, read: MemoryContext) -> ReflectContext:
    everything = read.preferences
    recalled = read.recall.items if read.recall is not None else []
    relevant = [item.preference for item in recalled if item.matched]
    seen = {p.id for p in relevant}
    rest = sorted((p for p in everything if p.id not in seen),
                  key=lambda p: p.last_seen_at, reverse=True)
    return ReflectContext(
        question=question.strip(),
        disposition=disposition,
        preferences=[*relevant, *rest][:MAX_CONTEXT_PREFERENCES],
        relevant_ids=seen,
        history=read.history,
        observations=read.observations,
        all_preferences=everything,
    )


def parse_reflect_output(payload: Any) -> tuple[ReflectOutput, list[DroppedItem]]:
    """Accept a model's reflect output item by item.

    Args:
        payload: A :class:`ReflectOutput`, or the decoded JSON of the reply: an object with
            ``answer`` (a string), ``observations`` and ``evidence`` (lists; missing means
            none). Unknown keys are ignored.

    Returns:
        The output with every valid observation and evidence item, and a note for each
        malformed one (:class:`DroppedItem`).

    Raises:
        ReflectModelError: ``payload`` is not an object, or has no string ``answer``.
    """
    if isinstance(payload, ReflectOutput):
        return payload, []
    if not isinstance(payload, Mapping):
        raise ReflectModelError(
            f"the reflect model's output is not a valid ReflectOutput (expected a JSON "
            f"object, got {type(payload).__name__}); nothing was stored"
        )
    answer = payload.get("answer")
    if not isinstance(answer, str):
        problem = "answer: Field required" if answer is None else (
            f"answer: expected a string, got {type(answer).__name__}"
        )
        raise ReflectModelError(
            f"the reflect model's output is not a valid ReflectOutput ({problem}); "
            "nothing was stored"
        )
    observations, dropped = keep_valid_items(
        "observation", payload.get("observations"), ProposedObservation.model_validate
    )
    evidence, dropped_evidence = keep_valid_items(
        "evidence", payload.get("evidence"), ObservationEvidence.model_validate
    )
    output = ReflectOutput(answer=answer, observations=observations, evidence=evidence)
    return output, [*dropped, *dropped_evidence]


def ask_model(model: ReflectModel, prompt: ReflectPrompt) -> tuple[ReflectOutput,
                                                                   list[DroppedItem]]:
    """Make the one model call and accept its output item by item.

    Returns:
        The output (valid items only) and the notes on dropped items
        (:func:`parse_reflect_output`).

    Raises:
        ReflectModelError: The reply is unusable as a whole, or the model failed with an
            error that is not Penchant's.
        PenchantError: Raised by the model itself (e.g. ``ModelUnavailableError``), as is.
    """
    try:
        output: Any = model.reflect(prompt)
    except PenchantError:
        raise
    except Exception as exc:  # provider SDK errors of any kind
        raise _model_failed(exc) from exc
    return _accepted(output)


async def aask_model(model: ReflectModel, prompt: ReflectPrompt) -> tuple[ReflectOutput,
                                                                          list[DroppedItem]]:
    """:func:`ask_model` for an event loop: the model's ``areflect`` coroutine when it has
    one (e.g. over a LangChain model's ``ainvoke``), else its ``reflect`` in a worker thread."""
    areflect_call = getattr(model, "areflect", None)
    try:
        if areflect_call is not None:
            output: Any = await areflect_call(prompt)
        else:
            output = await asyncio.to_thread(model.reflect, prompt)
    except PenchantError:
        raise
    except Exception as exc:  # provider SDK errors of any kind
        raise _model_failed(exc) from exc
    return _accepted(output)


def _model_failed(exc: Exception) -> ReflectModelError:
    return ReflectModelError(
        f"the reflect model failed ({type(exc).__name__}: {exc}); nothing was stored"
    )


def _accepted(output: Any) -> tuple[ReflectOutput, list[DroppedItem]]:
    parsed, dropped = parse_reflect_output(output)
    for note in dropped:
        logger.info("reflect: %s", note.describe())
    return parsed, dropped


def reflect(
    memory: Memory,
    user_id: str,
    question: str,
    disposition: Disposition | None = None,
    model: ReflectModel | None = None,
    *,
    k: int = 10,
) -> ReflectResult:
    """Answer ``question`` about ``user_id`` from memory and store the observations.

    Args:
        memory: The memory.
        user_id: Whose memory.
        question: Any question about the user ("what gift would I like?").
        disposition: CARA profile; the middle (3, 3, 3) when ``None``.
        model: A :class:`ReflectModel`; ``None`` uses the deterministic offline path.
        k: Preferences recalled for the question.

    Returns:
        The answer, the stored observations, the ids of the preferences used, and notes on
        the model's malformed items (``dropped``; the valid ones are kept).

    Raises:
        InvalidInputError: Empty question or bad user id.
        ReflectModelError: The model's reply was unusable as a whole; nothing stored.
        PenchantError: The model could not be used (e.g. ``ModelUnavailableError`` from
            ``penchant.agent.models``); nothing stored.
        StorageUnavailableError: Redis failed.
    """
    context = gather_context(memory, user_id, question, disposition or Disposition(), k=k)
    if model is None:
        reply = _Reply(*offline_reflect(context))
    else:
        reply = _Reply.of(*ask_model(model, build_prompt(context)))
    written = memory.write_observations(user_id, reply.proposals, reply.updates)
    return reply.result(context, written, offline=model is None)


async def areflect(
    memory: AsyncMemory,
    user_id: str,
    question: str,
    disposition: Disposition | None = None,
    model: ReflectModel | None = None,
    *,
    k: int = 10,
) -> ReflectResult:
    """:func:`reflect` over an :class:`~.client.AsyncMemory`: the same arguments, result and
    errors; the model call is :func:`aask_model` (the offline path runs in a worker thread)."""
    context = await agather_context(
        memory, user_id, question, disposition or Disposition(), k=k
    )
    if model is None:
        reply = _Reply(*await asyncio.to_thread(offline_reflect, context))
    else:
        reply = _Reply.of(*await aask_model(model, build_prompt(context)))
    written = await memory.write_observations(user_id, reply.proposals, reply.updates)
    return reply.result(context, written, offline=model is None)


@dataclass
class _Reply:
    """What reflect's model (or the offline path) said, as writes for the gate."""

    answer: str
    proposals: list[ObservationCandidate]
    updates: list[ObservationUpdate]
    dropped: list[DroppedItem] = field(default_factory=list)

    @classmethod
    def of(cls, output: ReflectOutput, dropped: list[DroppedItem]) -> _Reply:
        return cls(
            output.answer,
            [ObservationCandidate(**o.model_dump()) for o in output.observations],
            [ObservationUpdate(id=e.id, evidence=e.evidence) for e in output.evidence],
            dropped,
        )

    def result(
        self, context: ReflectContext, written: ObservationResult, *, offline: bool
    ) -> ReflectResult:
        for rejection in written.rejected:
            logger.info("reflect: observation %r rejected: %s", rejection.content,
                        rejection.reason)
        return ReflectResult(
            answer=self.answer, observations=written.stored,
            used=[p.id for p in context.preferences], offline=offline, write=written,
            dropped=self.dropped,
        )  # fmt: skip


__all__ = [
    "aask_model",
    "agather_context",
    "areflect",
    "ask_model",
    "gather_context",
    "parse_reflect_output",
    "reflect",
]

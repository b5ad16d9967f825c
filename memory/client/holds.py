"""The user's answers to held items (issue 19): list, confirm, dismiss; and behaviour
history kept from the prompt when it may be an instruction.

The gate holds a candidate that may be an instruction to the assistant instead of storing
it (:mod:`..core.holding`). These calls are for the *user's* surfaces (the CLI, the chat's
commands, an application's own UI), never for the model's tools: an instruction that got
the model to call ``remember`` could as well get it to confirm.

- :meth:`SyncHolds.held` lists the held items, oldest first.
- :meth:`SyncHolds.confirm` sends the held candidate through the gate as written (every
  other screen still applies; the band does not) and closes the item in the same commit.
- :meth:`SyncHolds.dismiss` closes it and erases its text (and a captured item's sentence)
  from the change log, idempotency records, transcripts and history wherever they are kept
  verbatim.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core import Erasure, Plan, PushHistory, UserSnapshot, answered_ops, held_of
from ..embeddings import primary_part
from ..model import (
    DismissResult,
    Flag,
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    PreferenceCandidate,
    UserKeys,
    describe_validation_error,
    utcnow,
    validate_user_id,
)
from .steps import Erase, Read, Steps

if TYPE_CHECKING:
    from .base import BaseMemory


def screen_summary(memory: BaseMemory, summary: str) -> str | None:
    """Screen a behaviour-history summary by meaning, as a preference's content is: history
    is injected as the user's recent behaviour (a breaker put instructions the gate refuses
    or holds into the prompt through ``record_history``). One embedding.

    Returns:
        Why a summary in the band below the refusal threshold is kept but never injected
        (history has no confirmation of its own, and refusing there would lose ordinary
        records: the band took 2 of 20 ordinary summaries tried, "cancelled the gym
        membership"); ``None`` for a summary that passes.

    Raises:
        InvalidInputError: The summary reads as an instruction: refused, with the reason.
    """
    bank = memory._intent_bank()
    embedder = primary_part(memory.embedder)
    if bank is None or embedder is None or not summary.strip():
        return None
    why, doubt = bank.verdict(embedder.embed([summary])[0], summary)
    if why:
        raise InvalidInputError(f"history snapshot refused: its summary {why}")
    return f"its summary {doubt}; kept, never injected" if doubt else None


def history_steps(memory: BaseMemory, user_id: str, snapshot: HistorySnapshot) -> Steps[
    HistorySnapshot
]:
    """Store a behaviour-history snapshot: the gate's screens first (cheap), then the
    meaning's (:func:`screen_summary`); returns it as stored.

    Raises:
        InvalidInputError: A screen refuses it, or its payload or time is bad.
    """
    memory.gate.plan_history(snapshot)
    marked = snapshot.model_copy(update={"unverified": screen_summary(memory, snapshot.summary)})
    planned = memory.gate.plan_history(marked)
    yield from memory._write_steps(UserKeys.for_user(user_id), lambda _s: planned,
                                   what="write history")  # fmt: skip
    return next(op.snapshot for op in planned.ops if isinstance(op, PushHistory))


def confirm_steps(memory: BaseMemory, user_id: str, held_id: str) -> Steps[GateResult]:
    """Read the held flag ``held_id`` and write its candidate through the gate, closing the
    flag in the same commit (left open when the gate refuses the candidate).

    Raises:
        InvalidInputError: No held item ``held_id`` (:func:`~..core.held_of`), or its stored
            candidate no longer validates.
    """
    validate_user_id(user_id)
    keys = UserKeys.for_user(user_id)
    snapshot: UserSnapshot = memory._keep(keys, (yield Read(keys)))
    flag = held_of(snapshot, held_id)
    try:
        candidate = PreferenceCandidate.model_validate(flag.candidate)
    except ValueError as exc:
        raise InvalidInputError(
            f"held item {held_id!r} cannot be confirmed: {describe_validation_error(exc)}"
        ) from exc
    result: GateResult = yield from memory._remember_steps(
        user_id, [candidate], idempotency_key=None, confirming=flag
    )
    return result


def restore_steps(
    memory: BaseMemory, user_id: str, candidate: PreferenceCandidate, reason: str
) -> Steps[GateResult]:
    """Hold ``candidate`` for the user again, as an import restores an exported held item:
    it goes through every screen of the gate and is then held, never stored, with the
    screen's own doubt or ``reason``. Holding the same item again keeps one flag."""
    validate_user_id(user_id)
    result: GateResult = yield from memory._remember_steps(
        user_id, [candidate.model_copy(update={"source": "import"})], idempotency_key=None,
        holding=reason,
    )  # fmt: skip
    return result


def with_held(result: GateResult, restored: GateResult) -> GateResult:
    """``result`` with what a restore of held items reported added: the items held and those
    refused (a restore stores nothing else)."""
    result.held += restored.held
    result.rejected += restored.rejected
    return result


def restored_reason(reason: str) -> str:
    """Why an imported held item is held: it was held where it was exported from."""
    return "restored from an export, where it awaited the user's confirmation" + (
        f": {reason}" if reason.strip() else "")


def dismiss_steps(memory: BaseMemory, user_id: str, held_id: str) -> Steps[DismissResult]:
    """Close the held flag ``held_id``, then erase its text and a captured item's sentence
    wherever they are kept verbatim: the ``held`` event, the write's idempotency record,
    transcript messages and history records that contain them (the rest of a conversation
    stays; a forget erases by objects).

    Raises:
        InvalidInputError: No held item ``held_id``.
    """
    validate_user_id(user_id)
    keys = UserKeys.for_user(user_id)
    now = utcnow()

    def plan(snapshot: UserSnapshot) -> Plan[Flag]:
        flag = held_of(snapshot, held_id)
        return Plan(answered_ops(flag, "dismissed", now), flag)

    flag: Flag = yield from memory._write_steps(keys, plan, what=f"dismiss for {user_id!r}")
    said = (flag.candidate or {}).get("said")
    texts = (flag.contents[0], *([said] if isinstance(said, str) and said else []))
    erasure = Erasure(text="", ids=frozenset({flag.id}), contents=texts,
                      keep_history=memory.settings.keep_full_history)  # fmt: skip
    scrubbed = yield Erase(keys, erasure, [])
    return DismissResult(dismissed=flag, scrub_pending=scrubbed is None,
                         history_kept=memory.settings.keep_full_history)  # fmt: skip


class SyncHolds:
    """:class:`~.sync.Memory`'s calls on held items."""

    _run: Any
    snapshot: Any

    def held(self, user_id: str) -> list[Flag]:
        """The user's held items (flags of ``kind="held"``), oldest first."""
        return [f for f in self.snapshot(user_id).open_flags() if f.kind == "held"]

    def confirm(self, user_id: str, held_id: str) -> GateResult:
        """Store a held item as the user confirmed it (see :func:`confirm_steps`).

        Returns:
            What the gate did with it; ``rejected`` when a screen other than the band
            refuses it (the item stays held).

        Raises:
            InvalidInputError: No such held item.
            StorageUnavailableError: Redis failed; nothing changed.
        """
        result: GateResult = self._run(confirm_steps(self, user_id, held_id))  # type: ignore[arg-type]
        return result

    def import_held(self, user_id: str, items: Sequence[tuple[PreferenceCandidate, str]]) -> (
        GateResult
    ):
        """Restore held items of an export (each a candidate and the reason it was held):
        each goes through the gate's screens and is held again, awaiting the user's
        confirmation; none is stored (see :func:`restore_steps`). Importing the same items
        again keeps one flag each.

        Returns:
            The items held (``held``) and those a screen refused or the bound of
            :data:`~..core.holding.MAX_HELD` turned away (``rejected``).

        Raises:
            InvalidInputError: A bad user id.
            StorageUnavailableError: Redis failed; the items before it are held.
        """
        out = GateResult()
        for candidate, reason in items:
            with_held(out, self._run(restore_steps(
                self, user_id, candidate, restored_reason(reason))))  # type: ignore[arg-type]
        return out

    def dismiss(self, user_id: str, held_id: str) -> DismissResult:
        """Drop a held item and erase its text (see :func:`dismiss_steps`).

        Returns:
            The dismissed item, and whether its erasure is still pending.

        Raises:
            InvalidInputError: No such held item.
            StorageUnavailableError: Redis failed before the item was closed.
        """
        done: DismissResult = self._run(dismiss_steps(self, user_id, held_id))  # type: ignore[arg-type]
        return done


class AsyncHolds:
    """:class:`~.asyncio.AsyncMemory`'s calls on held items (see :class:`SyncHolds`)."""

    _run: Any
    _steps_embedded: Any
    snapshot: Any

    async def held(self, user_id: str) -> list[Flag]:
        """See :meth:`SyncHolds.held`."""
        return [f for f in (await self.snapshot(user_id)).open_flags() if f.kind == "held"]

    async def confirm(self, user_id: str, held_id: str) -> GateResult:
        """See :meth:`SyncHolds.confirm`."""
        result: GateResult = await self._run(confirm_steps(self, user_id, held_id))  # type: ignore[arg-type]
        return result

    async def import_held(
        self, user_id: str, items: Sequence[tuple[PreferenceCandidate, str]]
    ) -> GateResult:
        """See :meth:`SyncHolds.import_held`."""
        out = GateResult()
        for candidate, reason in items:
            with_held(out, await self._steps_embedded(  # embedding: off the loop
                lambda c=candidate, r=reason: restore_steps(  # type: ignore[misc]
                    self, user_id, c, restored_reason(r))))  # type: ignore[arg-type]
        return out

    async def dismiss(self, user_id: str, held_id: str) -> DismissResult:
        """See :meth:`SyncHolds.dismiss`."""
        done: DismissResult = await self._run(dismiss_steps(self, user_id, held_id))  # type: ignore[arg-type]
        return done


__all__ = [
    "AsyncHolds", "SyncHolds", "confirm_steps", "dismiss_steps", "history_steps", "restore_steps",
    "restored_reason", "screen_summary", "with_held",
]

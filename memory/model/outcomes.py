"""What a forget did, what the gate held for confirmation, and what became of a spooled
write replayed later (issue 19)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .echo import EchoedText
from .flags import Flag
from .records import GateResult, Polarity, Preference


class ForgetResult(BaseModel):
    """Exactly what a forget removed (empty when nothing matched).

    Attributes:
        removed: The removed preferences.
        deferred: Redis was unreachable: the forget was saved to the local spool, in order
            with the writes before it, and runs (at the time it was asked) on reconnect.
        replayed: Earlier spooled writes this call replayed first (see
            :attr:`GateResult.replayed`).
        already_removed: A retry (same idempotency key) of a forget that was applied: the
            ids the first attempt removed (their text is erased, so not repeated here).
        scrub_pending: Removed, but Redis failed while its text was being scrubbed from
            the records that copy it; the scrub is retried on the process's next call.
        dropped_held: Ids of held items (awaiting the user's confirmation) whose text named
            what was forgotten: dropped with it.
    """

    removed: list[Preference] = Field(default_factory=list)
    deferred: bool = False
    replayed: list[ReplayedWrite] = Field(default_factory=list)
    already_removed: list[str] = Field(default_factory=list)
    scrub_pending: bool = False
    dropped_held: list[str] = Field(default_factory=list)

    def public_dict(self) -> dict[str, Any]:
        """The CLI's JSON contract: ``{"removed": [...]}`` (``deferred``, ``replayed``,
        ``already_removed``, ``scrub_pending``, ``dropped_held`` only when set)."""
        document: dict[str, Any] = {"removed": [p.public_dict() for p in self.removed]}
        if self.dropped_held:
            document["dropped_held"] = list(self.dropped_held)
        if self.already_removed:
            document["already_removed"] = list(self.already_removed)
        if self.scrub_pending:
            document["scrub_pending"] = True
        if self.deferred:
            document["deferred"] = True
        if self.replayed:
            document["replayed"] = [r.public_dict() for r in self.replayed]
        return document

    def describe(self) -> str:
        """A human-readable account of what was removed."""
        lines = [r.describe() for r in self.replayed]
        if self.deferred:
            lines.insert(0, "NOT done yet (memory degraded, Redis unreachable): the forget was "
                            "saved locally and runs when Redis is back")  # fmt: skip
        elif self.already_removed:
            ids = ", ".join(self.already_removed)
            lines.insert(0, "this forget was already done by an earlier attempt: it removed "
                            f"{len(self.already_removed)} preference(s) (ids {ids}); their "
                            "text is erased")  # fmt: skip
        elif not self.removed:
            lines.insert(0, "nothing matched; no preference was removed")
        else:
            lines[:0] = [f"forgot {p.polarity}: {p.content!r} (id {p.id})" for p in self.removed]
        if self.dropped_held:
            lines.append(f"also dropped {len(self.dropped_held)} held item(s) awaiting the "
                         "user's confirmation that named it (ids "
                         f"{', '.join(i[:8] for i in self.dropped_held)})")  # fmt: skip
        if self.scrub_pending:
            lines.append("removed; Redis failed while erasing its text from the change log and "
                         "transcripts: that erasure is retried on the next call")  # fmt: skip
        return "\n".join(lines)


class Held(BaseModel):
    """A candidate held for the user's confirmation instead of stored (a ``held`` flag).

    Attributes:
        id: The held flag's id (what ``penchant confirm`` / ``dismiss`` take).
        content: The candidate's text, echoed like a rejection's.
        polarity: The candidate's polarity.
        reason: Why it was held.
    """

    id: str
    content: EchoedText
    polarity: Polarity
    reason: str


class DismissResult(BaseModel):
    """What dismissing a held item did.

    Attributes:
        dismissed: The held item's flag, now closed.
        scrub_pending: Closed, but Redis failed while its text was being erased from the
            records that copy it; the erasure is retried on the process's next call.
        history_kept: ``Settings.keep_full_history``: the change log, transcripts and
            history keep its text (idempotency records are erased still).
    """

    dismissed: Flag
    scrub_pending: bool = False
    history_kept: bool = False

    def public_dict(self) -> dict[str, Any]:
        """``{"dismissed": flag}`` (``scrub_pending``, ``history_kept`` only when set)."""
        document: dict[str, Any] = {"dismissed": self.dismissed.public_dict()}
        if self.scrub_pending:
            document["scrub_pending"] = True
        if self.history_kept:
            document["history_kept"] = True
        return document

    def describe(self) -> str:
        """One line: what was dismissed and whether its text is erased."""
        head = f"dismissed held item {self.dismissed.id[:8]}"
        if self.scrub_pending:
            return (f"{head}; Redis failed while erasing its text: that erasure is retried on "
                    "the next call")  # fmt: skip
        if self.history_kept:
            return (f"{head}; the change log, transcripts and history keep its text "
                    "(PENCHANT_KEEP_FULL_HISTORY)")  # fmt: skip
        return f"{head}; its text is erased"


class ReplayedWrite(BaseModel):
    """One spooled write, replayed through the gate once Redis answered again.

    Attributes:
        op: ``remember`` or ``forget``.
        user_id: Its user.
        gate: A replayed remember's result (a refusal comes back in ``rejected``).
        forgot: A replayed forget's result.
    """

    op: str
    user_id: str
    gate: GateResult | None = None
    forgot: ForgetResult | None = None

    def public_dict(self) -> dict[str, Any]:
        """JSON form: ``{"op", "user_id", "result"}``."""
        inner = self.gate or self.forgot
        return {"op": self.op, "user_id": self.user_id,
                "result": inner.public_dict() if inner is not None else None}  # fmt: skip

    def describe(self) -> str:
        """One line per outcome, for a tool message."""
        inner = self.gate or self.forgot
        said = inner.describe() if inner is not None else "nothing"
        return f"a {self.op} saved while Redis was unreachable was replayed: " + "; ".join(
            said.splitlines())


GateResult.model_rebuild(_types_namespace={"ReplayedWrite": ReplayedWrite, "Held": Held})
ForgetResult.model_rebuild()

__all__ = ["DismissResult", "ForgetResult", "Held", "ReplayedWrite"]

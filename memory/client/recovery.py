"""What makes :class:`~.base.BaseMemory`'s writes final and truly reported across failures
(issue 19): the spool an erasure reaches, the outcomes of replayed spooled writes handed to
the next call, a spooled forget, the scrub a failed forget left pending, and the text-free
idempotency record of a forget. No I/O but the local spool's files."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from ..core import Erasure
from ..model import (
    ForgetResult,
    GateResult,
    Polarity,
    ReplayedWrite,
    Settings,
    StorageFullError,
    utcnow,
)
from .spool import WriteSpool

if TYPE_CHECKING:
    from .steps import Erase, Steps

logger = logging.getLogger(__name__)


class RecoveryMixin:
    """Part of :class:`~.base.BaseMemory` (its attributes: ``settings``, ``spool``,
    ``_replayed``, ``_pending_erasures``)."""

    settings: Settings
    spool: WriteSpool | None
    _replayed: list[ReplayedWrite]
    _pending_erasures: list[Erase]

    @property
    def erasure_spool(self) -> WriteSpool:
        """The spool an erasure reaches: this memory's, else the one under
        ``Settings.home`` (another process on the same home may have spooled writes there:
        ``delete-user`` and ``forget`` drop them too)."""
        return self.spool or WriteSpool(self.settings.home / "spool" / "writes.jsonl")

    def _take_replayed(self) -> list[ReplayedWrite]:
        """The outcomes of spooled writes replayed since the last call, handed to the
        caller's result once (issue 19: a refusal at replay reached only the change log)."""
        taken, self._replayed = self._replayed, []
        return taken

    def _note_replayed(self, entry: dict[str, Any], outcome: Any) -> None:
        op = str(entry.get("op", "remember"))
        user = str(entry.get("user_id", ""))
        if isinstance(outcome, ForgetResult):
            self._replayed.append(ReplayedWrite(op=op, user_id=user, forgot=outcome))
        elif isinstance(outcome, GateResult):
            self._replayed.append(ReplayedWrite(op=op, user_id=user, gate=outcome))
        if outcome is not None and getattr(outcome, "rejected", None):
            logger.warning("a spooled %s for %s was refused at replay: %s", op, user,
                           outcome.rejected[0].reason)  # fmt: skip

    def _spool_forget(self, user_id: str, text: str, polarity: Polarity | None) -> ForgetResult:
        """Save a forget that cannot reach Redis, in order after the writes spooled before
        it, stamped with its time: on replay it removes what they stored, and its tombstone
        outdates any older statement replayed later (issue 19)."""
        assert self.spool is not None
        payload = {"text": text, "polarity": polarity, "at": utcnow().isoformat()}
        try:
            self.spool.append("forget", user_id, payload)
        except OSError as exc:
            raise StorageFullError(
                f"Redis is unreachable and the local spool {self.spool.path} cannot be written "
                f"({exc.strerror or exc}); the forget was NOT done. Free space on that disk or "
                "set PENCHANT_HOME to a writable directory."
            ) from exc
        return ForgetResult(deferred=True)

    def _erase_failed(self, request: Erase, exc: Exception) -> None:
        """A forget's scrub failed after its commit: the forget stands and is reported so;
        the scrub is kept and run again at this process's next call."""
        logger.warning("forget committed, but erasing its text failed (%s); retried on the "
                       "next call", exc)  # fmt: skip
        self._pending_erasures.append(request)

    def _take_erasures(self) -> list[Erase]:
        taken, self._pending_erasures = self._pending_erasures, []
        return taken



def one_erase(request: Erase) -> Steps[None]:
    """Steps of one pending scrub (it fails again quietly: kept for the next call)."""
    yield request


def _encode_forget(result: tuple[ForgetResult, Erasure]) -> str:
    """A forget's idempotency record: the removed ids only (no text survives a forget)."""
    return json.dumps({"removed_ids": [p.id for p in result[0].removed]})


def _decode_forget(
    raw: str, text: str, polarity: Polarity | None, settings: Settings
) -> tuple[ForgetResult, Erasure]:
    ids = list(json.loads(raw).get("removed_ids") or [])
    erasure = Erasure(text=text, polarity=polarity, ids=frozenset(ids),
                      keep_history=settings.keep_full_history)  # fmt: skip
    return ForgetResult(already_removed=ids), erasure



__all__ = ["RecoveryMixin", "one_erase"]

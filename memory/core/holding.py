"""The quarantine band (issue 19): candidates that may be instructions, held for the user.

The screen by meaning refuses a candidate whose directive-head logit reaches the head's
threshold, set high so that no benign calibration text is refused
(:mod:`.directive_head`). Below it, down to :data:`~.directive_head.HOLD_LOGIT` (the
classifier's own decision boundary), a candidate is neither refused nor stored: the gate
keeps it as a *held* flag (:class:`~penchant.memory.model.Flag`, ``kind="held"``), which
names no preference, is never recalled nor injected, and waits for the user (not the
model) to confirm it, when it goes through the gate as written, or to dismiss it, when its
text is erased. Only the refusal screen's survivors are judged here, on the very vectors
the gate embedded (the content, its pieces, and the sentence a capture read it from), from
the very logits the refusal screen computed (:func:`meaning_verdicts`).

On the held-out poisoning sets (``bench/intent_calibration.py``) the band turns 26 of the
35 attacks of blind-3 that the refusal screen let through, and all 8 of blind-2's, into
held flags, at the cost of holding 12 of blind-3's 150 and 6 of blind-2's 240 benign rows
(hard look-alikes written to sit near attacks); no PrefEval-dev statement and no benign
test case is held.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime

from ..model import (
    ChangeEvent,
    Flag,
    Held,
    InvalidInputError,
    Rejection,
    embedding_text,
    flag_id,
)
from .intent_screen import IntentBank, Verdict, verdicts_by_meaning
from .ops import AppendEvent, DeleteFlag, Op, PutFlag
from .plan_steps import printable, rejected_event
from .resolution import PreparedCandidate
from .snapshot import UserSnapshot

MAX_HELD = 50
"""Most items one user may have awaiting confirmation; past it a doubtful candidate is
refused (the flags hash of a user whose input is flooded with instructions stays bounded)."""
MIN_ID_PREFIX = 6
"""Shortest id prefix :func:`held_of` accepts."""


def meaning_verdicts(
    prepared: Sequence[PreparedCandidate], bank: IntentBank | None
) -> list[Verdict]:
    """Each prepared, embedded candidate's ``(refusal, doubt)`` by its meaning, read whole,
    in its pieces and in the sentence it was captured from, one head logit per vector
    (:func:`~.intent_screen.verdicts_by_meaning`); each reason names what it read:
    ``"content …"`` or ``"the sentence it was captured from …"``."""
    verdicts = verdicts_by_meaning(
        bank, [p.embedding for p in prepared], [p.piece_embeddings for p in prepared],
        [embedding_text(p.candidate.content, p.candidate.category) for p in prepared],
        [p.piece_texts for p in prepared],
    )  # fmt: skip
    said = verdicts_by_meaning(bank, [p.said_embedding for p in prepared],
                               texts=[p.candidate.said or "" for p in prepared])  # fmt: skip

    def named(own: str | None, from_said: str | None) -> str | None:
        return f"content {own}" if own else from_said and (
            f"the sentence it was captured from {from_said}")

    out: list[Verdict] = []
    for (refusal, doubt), (said_refusal, said_doubt) in zip(verdicts, said, strict=True):
        refused = named(refusal, said_refusal)
        out.append((refused, None if refused else named(doubt, said_doubt)))
    return out


def hold_doubtful(
    prepared: list[PreparedCandidate],
) -> tuple[list[PreparedCandidate], list[tuple[PreparedCandidate, str]]]:
    """Split the candidates the refusal screen kept into those to store and those to hold,
    by the doubt the screen found (:meth:`~.planning.PersistenceGate.screen_meaning` sets
    :attr:`~.resolution.PreparedCandidate.doubt`).

    Returns:
        The candidates to store, and each held one with the reason.
    """
    kept = [p for p in prepared if not p.doubt]
    held = [(p, p.doubt) for p in prepared if p.doubt]
    return kept, held


def held_flag(user_id: str, prepared: PreparedCandidate, reason: str, now: datetime) -> Flag:
    """The held flag of one candidate; its id is stable for the same candidate (polarity
    and content), so holding it again keeps one flag. The flag keeps the candidate with the
    time it was said, and a captured candidate's sentence (``said``: shown to the user
    beside the rewrite, screened again on confirmation, erased verbatim on dismissal)."""
    candidate = prepared.candidate
    key = f"{user_id}|{candidate.polarity}|{candidate.content}"  # one user's: ids never match
    digest = hashlib.sha256(key.encode()).hexdigest()  # across users
    document = candidate.model_dump(mode="json", exclude_none=True)
    document.setdefault("at", now.isoformat())  # confirmed later, it was said now
    return Flag(
        id=flag_id("held", [digest]), user_id=user_id, kind="held", preference_ids=[],
        contents=[printable(candidate.content)], signals=["model"], reason=reason,
        created_at=now, candidate=document,
    )  # fmt: skip


def hold_ops(
    snapshot: UserSnapshot, held: Sequence[tuple[PreparedCandidate, str]], now: datetime
) -> tuple[list[Op], list[Held], list[Rejection]]:
    """The flags and ``held`` events of the held candidates (a candidate held already
    keeps its first flag), what the write reports of them, and a rejection for each one
    past :data:`MAX_HELD` items awaiting the user (their list stays bounded)."""
    ops: list[Op] = []
    report: list[Held] = []
    refused: list[Rejection] = []
    waiting = {f.id for f in snapshot.flags.values() if f.kind == "held"}
    for prepared, reason in held:
        flag = held_flag(snapshot.user_id, prepared, reason, now)
        if flag.id not in waiting and len(waiting) >= MAX_HELD:
            refused.append(Rejection(content=flag.contents[0], reason=(
                f"{reason}; it was not held, because {MAX_HELD} items already await the "
                "user's confirmation: confirm or dismiss some first (/held in the chat, "
                f"`penchant held --user {snapshot.user_id}`)")))
            continue
        report.append(Held(id=flag.id, content=flag.contents[0],
                           polarity=prepared.candidate.polarity, reason=reason))  # fmt: skip
        if flag.id in waiting:
            # written again, unchanged: the commit then checks the revision, so a client whose
            # cached snapshot still shows an item dismissed elsewhere reads again, holds anew
            if flag.id in snapshot.flags:
                ops.append(PutFlag(snapshot.flags[flag.id]))
            continue
        waiting.add(flag.id)
        ops.append(PutFlag(flag))
        ops.append(AppendEvent(ChangeEvent(
            op="held", after=flag.public_dict(), content=printable(flag.contents[0][:200]),
            reason=reason, source=prepared.candidate.source, at=now,
        )))  # fmt: skip
    ops += [AppendEvent(rejected_event(r, now, source=None)) for r in refused]
    return ops, report, refused


def held_of(snapshot: UserSnapshot, held_id: str) -> Flag:
    """The user's held flag ``held_id``, or the one held flag whose id starts with it (at
    least :data:`MIN_ID_PREFIX` characters, as the chat shows them).

    Raises:
        InvalidInputError: No such flag, a prefix of several, or a check-up flag (those
            close on their own when a preference of their pair goes).
    """
    flag = snapshot.flags.get(held_id)
    listed = (f"`penchant held --user {snapshot.user_id}` or /held in the chat lists the "
              "user's held items")  # fmt: skip
    if flag is None and len(held_id) < MIN_ID_PREFIX:
        raise InvalidInputError(
            f"no held item {held_id!r}: give the whole id or at least {MIN_ID_PREFIX} of its "
            f"first characters ({listed})"
        )
    if flag is None:
        found = [f for f in snapshot.flags.values()
                 if f.kind == "held" and f.id.startswith(held_id)]  # fmt: skip
        if len(found) > 1:
            raise InvalidInputError(f"{held_id!r} starts {len(found)} held ids; give more of it")
        flag = found[0] if found else None
    if flag is None:
        raise InvalidInputError(
            f"no held item {held_id!r} for user {snapshot.user_id!r} (confirmed or dismissed "
            f"already?); {listed}"
        )
    if flag.kind != "held":
        raise InvalidInputError(
            f"{held_id!r} is a check-up flag ({flag.kind}), not a held item: it closes when "
            "you forget one preference of its pair"
        )
    return flag


def answered_ops(flag: Flag, op: str, now: datetime) -> list[Op]:
    """Close a held flag: ``confirmed`` (its candidate was stored) or ``dismissed`` (the
    event names the flag, not its text, which the dismissal erases)."""
    event = ChangeEvent(op=op, reason=f"held item {flag.id} {op} by the user",  # type: ignore[arg-type]
                        source="user", at=now)  # fmt: skip
    return [DeleteFlag(flag.id), AppendEvent(event)]


__all__ = ["answered_ops", "held_flag", "held_of", "hold_doubtful", "hold_ops", "meaning_verdicts"]

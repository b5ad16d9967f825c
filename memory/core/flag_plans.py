"""The check-up flags a write plans: a flag for each pair across languages that may be one
object, and the deletion of every flag that copies a forgotten text."""

from __future__ import annotations

from datetime import datetime

from ..model import ChangeEvent, Flag, flag_id
from .ops import AppendEvent, DeleteFlag, Op, PutFlag
from .resolution import WritePlan
from .snapshot import UserSnapshot
from .tombstones import Erasure


def cross_language_flag_ops(snapshot: UserSnapshot, write: WritePlan, now: datetime) -> list[Op]:
    """A check-up flag for each pair the write planned (issue 17): across languages, one that
    may be one object; a like of what an allergy names. Both preferences stay active until the
    user confirms."""
    ops: list[Op] = []
    written = {p.id for p in write.after.prefs.values()} if write.after is not None else set()
    for old, new, cosine, reason in write.flags:
        ids = [old.id, new.id]
        fid = flag_id("contradiction", ids)
        if fid in snapshot.flags or not set(ids) <= written:
            continue
        flag = Flag(
            id=fid, user_id=snapshot.user_id, kind="contradiction", preference_ids=ids,
            contents=[old.content, new.content], score=cosine,
            signals=["embedding"] if cosine else ["lexicon"], reason=reason, created_at=now,
        )  # fmt: skip
        ops.append(PutFlag(flag))
        ops.append(AppendEvent(ChangeEvent(
            op="flagged", after=flag.public_dict(), content=flag.describe(),
            reason=flag.reason, source=new.source, at=now,
        )))  # fmt: skip
    return ops


def scrubbed_flags(
    snapshot: UserSnapshot, erasure: Erasure, deleted: set[str]
) -> list[DeleteFlag]:
    """Deletions of the check-up flags that copy a forgotten text: a flag about a removed
    preference, one no longer open (a preference of it is gone), or one whose contents name
    what is forgotten (issue 19: flags kept the text of forgotten preferences)."""
    active = {p.id for p in snapshot.preferences()} - deleted
    return [
        DeleteFlag(flag.id) for flag in snapshot.flags.values()
        if not set(flag.preference_ids) <= active
        or any(erasure.names_text(c) for c in flag.contents)
    ]  # fmt: skip

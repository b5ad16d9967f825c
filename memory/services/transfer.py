"""Export and import of one user's memory as a JSON document.

Document shape (what ``penchant export --user ID --json`` prints)::

    {"user_id": "alice",
     "preferences": [{"content", "polarity", "keywords", "category", …}],
     "history": [{"kind", "summary", "payload", "at"}],
     "held": [{"id", "reason", "candidate": {"content", "polarity", "said", …}, …}]}

Import accepts that document, or a minimal one whose preferences carry only
``polarity``, ``content``, ``keywords`` and ``category``. The whole document
is validated before anything is written; its preferences then go through the
persistence gate (``source = import``), so import screens, merges and resolves
contradictions like every other write path. Held items (candidates that may be
instructions, awaiting the user's confirmation) go through the gate's screens too and
are held again, never stored: a backup keeps them as they were, awaiting the user.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..client import AsyncMemory, Memory, screen_summary, with_held
from ..core import MAX_HELD, PersistenceGate, screen_content, screen_label
from ..model import (
    MAX_SUMMARY_CHARS,
    Flag,
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    Preference,
    PreferenceCandidate,
    Settings,
    check_payload,
    clean_lines,
    describe_validation_error,
    encode_user_id,
)

FORMAT_VERSION = 1


class ImportedPreference(PreferenceCandidate):
    """One preference of an import document; its count and times are kept, ids are ignored.

    ``updated_at`` of an exported record becomes the statement's time (``at``), so a restored
    record never beats a newer statement made since the backup.
    """

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _statement_time(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("at") is None and data.get("updated_at"):
            data = {**data, "at": data["updated_at"]}
        return data


class ImportedHeld(BaseModel):
    """One held item of an import document (an exported held flag): the candidate that
    awaited the user's confirmation and why it was held. Its id is ignored (it is derived
    again for the importing user)."""

    model_config = ConfigDict(extra="ignore")

    candidate: PreferenceCandidate
    reason: str = Field(default="", max_length=2_000)


class ImportDocument(BaseModel):
    """A whole import document."""

    model_config = ConfigDict(extra="ignore")

    user_id: str
    preferences: list[ImportedPreference] = Field(default_factory=list)
    history: list[HistorySnapshot] = Field(default_factory=list)
    held: list[ImportedHeld] = Field(default_factory=list)


def export_document(
    user_id: str, preferences: list[Preference], history: list[HistorySnapshot],
    held: list[Flag],
) -> dict[str, Any]:  # fmt: skip
    """The export document of one user, JSON-ready (the shape above).

    Args:
        user_id: The user.
        preferences: Their active preferences.
        history: Their history snapshots, newest first (as ``history`` reads them); the
            document lists them oldest first.
        held: Their held items, oldest first.
    """
    return {
        "format_version": FORMAT_VERSION,
        "user_id": user_id,
        "preferences": [p.public_dict() for p in preferences],
        "history": [h.model_dump(mode="json") for h in reversed(history)],
        "held": [f.public_dict() for f in held],
    }


def export_user(memory: Memory, user_id: str) -> dict[str, Any]:
    """The user's active preferences, history and held items as a JSON-ready document."""
    return export_document(user_id, memory.preferences(user_id),
                           memory.history(user_id, 10_000), memory.held(user_id))  # fmt: skip


async def aexport_user(memory: AsyncMemory, user_id: str) -> dict[str, Any]:
    """:func:`export_user` on an :class:`AsyncMemory`."""
    return export_document(user_id, await memory.preferences(user_id),
                           await memory.history(user_id, 10_000),
                           await memory.held(user_id))  # fmt: skip


def parse_document(
    text: str, *, user_override: str | None = None, settings: Settings | None = None
) -> ImportDocument:
    """Parse and fully validate an import document before anything is written.

    Args:
        text: The JSON text.
        user_override: Import into this user instead of the document's ``user_id``.
        settings: The limits (``max_import_bytes``, ``max_import_preferences``,
            ``clock_skew_seconds``); ``Settings()`` by default.

    Raises:
        InvalidInputError: Not JSON, over a limit, or a field is missing or invalid; the
            message names the first bad field (``preferences.2.polarity: …``) or the limit
            and its setting. Nothing is stored.
    """
    settings = settings or Settings()
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > settings.max_import_bytes:
        raise InvalidInputError(
            f"import file is {size} bytes; the limit is {settings.max_import_bytes} "
            "(PENCHANT_MAX_IMPORT_BYTES). Nothing was imported"
        )
    try:
        raw = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"import file is not JSON: {exc}") from exc
    except RecursionError as exc:
        raise InvalidInputError("import file is nested too deeply to be an export") from exc
    if not isinstance(raw, dict):
        raise InvalidInputError("import file must hold a JSON object with 'preferences'")
    if user_override is not None:
        raw["user_id"] = user_override
    if "user_id" not in raw:
        raise InvalidInputError("import document has no 'user_id'; pass --user ID")
    if not isinstance(raw.get("preferences"), list):
        raise InvalidInputError(
            "import document has no 'preferences' list; expected the shape that "
            "'penchant export' prints"
        )
    try:
        document = ImportDocument.model_validate(raw)
    except ValidationError as exc:
        raise InvalidInputError(describe_validation_error(exc, where="import document")) from exc
    encode_user_id(document.user_id)
    if len(document.preferences) > settings.max_import_preferences:
        raise InvalidInputError(
            f"import document carries {len(document.preferences)} preferences; the limit is "
            f"{settings.max_import_preferences} (PENCHANT_MAX_IMPORT_PREFERENCES). Nothing was "
            "imported"
        )
    gate = PersistenceGate(settings)
    for i, snapshot in enumerate(document.history):
        when = gate.time_problem(("at", snapshot.at))
        if when:
            raise InvalidInputError(f"import document: history.{i}.at: {when}")
        reason = screen_content(clean_lines(snapshot.summary), max_chars=MAX_SUMMARY_CHARS)
        reason = reason or screen_label("kind", snapshot.kind, max_chars=32)
        if reason:
            raise InvalidInputError(f"import document: history.{i}.summary: {reason}")
        check_payload(snapshot.payload, where=f"import document: history.{i}.payload")
    if len(document.held) > MAX_HELD:
        raise InvalidInputError(
            f"import document carries {len(document.held)} held items; at most {MAX_HELD} "
            "may await a user's confirmation. Nothing was imported"
        )
    return document


def check_history_meaning(memory: Memory | AsyncMemory, document: ImportDocument) -> None:
    """Screen every history summary of a parsed document by meaning before anything is
    written (:func:`~..client.screen_summary`), so an import never stops half-way.

    Raises:
        InvalidInputError: A summary reads as an instruction, named by its index.
    """
    for i, snapshot in enumerate(document.history):
        try:
            screen_summary(memory, snapshot.summary)
        except InvalidInputError as exc:
            raise InvalidInputError(f"import document: history.{i}.summary: {exc}. Nothing "
                                    "was imported") from exc  # fmt: skip


def import_document(memory: Memory, document: ImportDocument) -> GateResult:
    """Write a validated document through the gate; history snapshots are appended, and
    held items held again (:meth:`Memory.import_held`).

    :func:`parse_document` has already screened the history, so nothing here
    fails half-way on bad input. Import is idempotent by content against the
    current state (:meth:`Memory.import_preferences`): importing the same
    document again creates nothing, a restore after a forget restores, and
    history snapshots and held items already present are skipped.

    Returns:
        The gate's result for the preferences and held items (rejected ones included).
    """
    check_history_meaning(memory, document)
    user = document.user_id
    result = (
        memory.import_preferences(user, document.preferences)
        if document.preferences
        else GateResult()
    )
    seen = {(h.kind, h.summary, h.at) for h in memory.history(user, 10_000)}
    for snapshot in document.history:
        if (snapshot.kind, snapshot.summary, snapshot.at) not in seen:
            memory.record_history(user, snapshot)
    return with_held(result, memory.import_held(user, _held_items(document)))


async def aimport_document(memory: AsyncMemory, document: ImportDocument) -> GateResult:
    """:func:`import_document` on an :class:`AsyncMemory`."""
    check_history_meaning(memory, document)
    user = document.user_id
    result = (
        await memory.import_preferences(user, document.preferences)
        if document.preferences
        else GateResult()
    )
    seen = {(h.kind, h.summary, h.at) for h in await memory.history(user, 10_000)}
    for snapshot in document.history:
        if (snapshot.kind, snapshot.summary, snapshot.at) not in seen:
            await memory.record_history(user, snapshot)
    return with_held(result, await memory.import_held(user, _held_items(document)))


def _held_items(document: ImportDocument) -> list[tuple[PreferenceCandidate, str]]:
    return [(h.candidate, h.reason) for h in document.held]


__all__ = ["ImportDocument", "ImportedHeld", "ImportedPreference", "aexport_user",
           "aimport_document", "check_history_meaning", "export_document", "export_user",
           "import_document", "parse_document"]

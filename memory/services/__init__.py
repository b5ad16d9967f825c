"""Services over the client: reflect, the check-up, re-embed, transfer (export/import) and
doctor. They import :mod:`..client` and are never imported by it."""
from .checkup import ContradictionJudge, PairVerdict, checkup_job
from .doctor import diagnose
from .reembed import reembed
from .reflect import areflect, reflect
from .reflect_prompt import (
    Disposition,
    DroppedItem,
    ReflectModel,
    ReflectOutput,
    ReflectPrompt,
    ReflectResult,
    keep_valid_items,
)
from .transfer import (
    aexport_user,
    aimport_document,
    check_history_meaning,
    export_user,
    import_document,
    parse_document,
)

__all__ = [
    "ContradictionJudge",
    "Disposition",
    "DroppedItem",
    "PairVerdict",
    "ReflectModel",
    "ReflectOutput",
    "ReflectPrompt",
    "ReflectResult",
    "aexport_user",
    "aimport_document",
    "areflect",
    "check_history_meaning",
    "checkup_job",
    "diagnose",
    "export_user",
    "import_document",
    "keep_valid_items",
    "parse_document",
    "reembed",
    "reflect",
]

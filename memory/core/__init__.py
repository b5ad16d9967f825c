"""The pure core: screening, capture, matching, objects, resolution, observations,
tombstones, the ops vocabulary, the per-user snapshot and gate planning. No I/O."""
from .active_set import ActiveSet
from .blocks import strip_injected_blocks, wrap_block
from .capture import extract_preferences
from .capture.keywords import object_keywords
from .capture.statements import (
    KINDS,
    Kind,
    StatementHead,
    default_head,
    default_structure_head,
    read_kinds,
)
from .capture.verdicts import VerdictHead, default_verdict_head
from .directive_head import HOLD_LOGIT, DirectiveHead, default_directive_head
from .erasure_index import event_terms
from .holding import (
    MAX_HELD,
    answered_ops,
    held_flag,
    held_of,
    hold_doubtful,
    hold_ops,
    meaning_verdicts,
)
from .identity import CrossLanguage, is_chinese, object_phrase, simple_form
from .intent_screen import (
    MAX_PIECES,
    IntentBank,
    bank_texts,
    build_bank,
    screen_by_meaning,
    screening_pieces,
)
from .lexical import BM25Index, tokenize
from .matching import forget_matches, forget_query_words, keyword_covers
from .objects import ObjectForm
from .observations import (
    Evidence,
    Observation,
    ObservationCandidate,
    ObservationResult,
    ObservationUpdate,
)
from .ops import (
    AppendEvent,
    AppendTranscript,
    CommitResult,
    DeleteFlag,
    DeleteObservation,
    DeletePreference,
    DeleteTombstone,
    Idempotency,
    Op,
    PushHistory,
    PutFlag,
    PutObservation,
    PutPreference,
    PutTombstone,
    PutVector,
    idempotency_key,
    payload_digest,
    touches_snapshot,
)
from .planning import PersistenceGate, Plan
from .resolution import PreparedCandidate
from .screen import screen_content, screen_label
from .snapshot import SnapshotDelta, UserSnapshot, apply_delta, apply_ops
from .tombstones import Erasure
from .turn import turn_batch

__all__ = [
    "KINDS",
    "MAX_HELD",
    "Kind",
    "StatementHead",
    "VerdictHead",
    "default_head",
    "default_structure_head",
    "default_verdict_head",
    "read_kinds",
    "event_terms",
    "ActiveSet",
    "CrossLanguage",
    "ObjectForm",
    "is_chinese",
    "object_keywords",
    "object_phrase",
    "simple_form",
    "AppendEvent",
    "AppendTranscript",
    "BM25Index",
    "CommitResult",
    "DeleteFlag",
    "DeleteObservation",
    "DeletePreference",
    "DeleteTombstone",
    "Erasure",
    "Evidence",
    "Idempotency",
    "DirectiveHead",
    "HOLD_LOGIT",
    "IntentBank",
    "MAX_PIECES",
    "Observation",
    "ObservationCandidate",
    "ObservationResult",
    "ObservationUpdate",
    "Op",
    "PersistenceGate",
    "Plan",
    "PreparedCandidate",
    "PushHistory",
    "PutFlag",
    "PutObservation",
    "PutPreference",
    "PutTombstone",
    "PutVector",
    "SnapshotDelta",
    "UserSnapshot",
    "apply_delta",
    "apply_ops",
    "bank_texts",
    "build_bank",
    "default_directive_head",
    "answered_ops",
    "held_flag",
    "held_of",
    "hold_doubtful",
    "hold_ops",
    "meaning_verdicts",
    "extract_preferences",
    "forget_matches",
    "forget_query_words",
    "idempotency_key",
    "keyword_covers",
    "payload_digest",
    "screen_by_meaning",
    "screening_pieces",
    "screen_content",
    "screen_label",
    "strip_injected_blocks",
    "tokenize",
    "touches_snapshot",
    "turn_batch",
    "wrap_block",
]

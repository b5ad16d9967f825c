"""The memory check-up: a background job that flags semantic contradictions and near-duplicates.

The gate resolves contradictions on the hot path by keyword arithmetic, so "likes leather
jackets" and "avoids animal products" — no shared word — both stay active (DESIGN.md §6).
The check-up looks for such pairs off the hot path and **flags** them for the user to confirm;
it never deletes a preference. Signals:

* ``embedding``: cosine of the two preferences' vectors (content plus category, as the gate
  embeds them). Opposite polarities at or above the contradiction floor are a possible
  contradiction; same polarities at or above the duplicate floor a near-duplicate. Each
  floor is the embedder's own (``contradiction_cosine`` / ``duplicate_cosine``, measured per
  model by ``python bench/thresholds.py``: Youden's J on hand-written pairs; the default
  USE multilingual 0.60 / 0.75, all-MiniLM-L6-v2 0.60 / 0.80), unless
  ``Settings.contradiction_cosine`` / ``Settings.duplicate_cosine`` override it. With USE:
  "likes jazz music" / "dislikes jazz" 0.86, "prefers cheap flights" / "avoids budget
  airlines" 0.69 (contradictions), "likes apple" / "dislikes Apple products" 0.69 (not one,
  and still flagged: the pairs overlap); "likes cotton t-shirts" / "loves cotton shirts" 0.91
  (duplicate), "loves wool sweaters" / "loves cotton shirts" 0.75 (not one, at the floor).
  The planted "likes leather jackets" / "avoids animal products" shares no subject word and
  scores low with every model measured (all-MiniLM-L6-v2 0.2–0.3), so sentence embeddings
  alone cannot find it without flooding the user with false flags; hence
* ``lexicon``: a tiny curated concept lexicon (:data:`CONCEPTS`: leather, wool, silk … →
  animal products; coffee, espresso … → caffeine). A preference about a member and an
  opposite-polarity preference naming its concept are a possible contradiction.
* ``model``: with a configured model (a :class:`ContradictionJudge`), the opposite-polarity
  pairs (most similar first, at most ``max_model_pairs``) are put to it, and the pairs it
  judges contradictory are flagged too.

Cost: every pair is covered, but only the pairs that can be flagged are examined one by one
(:func:`find_issues`): cosines by one matrix product per block of rows, lexicon pairs by
shared concept: 2,000 preferences take 0.5 s, not the 38–71 s of comparing pair by pair.

Jobs: :func:`checkup_job` takes the user's lease (``SET key token NX PX``) so one worker at a
time checks a user, retries a failing check with exponential backoff, renews the lease before
each try and, from a :class:`LeaseKeeper`, every third of its TTL during a try (a long try
keeps the user; one that lost its lease stops before writing), and gives the lease back when
done. A crashed worker's lease simply expires
after ``Settings.checkup_lease_ms``; :func:`run_due_checkups` works from a schedule
(``penchant:checkup:due``) from which a user is removed only after a successful check, so
another worker picks the stranded user up on its next run.
"""

from .detection import (
    CheckupReport,
    ContradictionJudge,
    PairVerdict,
    arun_checkup,
    find_issues,
    lexicon_pairs,
    preference_vectors,
    run_checkup,
    similar_pairs,
    top_opposite_pairs,
)
from .jobs import (
    AsyncLeaseKeeper,
    JobOutcome,
    LeaseKeeper,
    LeaseLostError,
    acheckup_job,
    arun_due_checkups,
    aschedule_checkup,
    checkup_job,
    run_due_checkups,
    schedule_checkup,
)
from .lexicon import CONCEPTS, concepts_instanced, concepts_named, lexicon_contradiction

__all__ = [
    "CONCEPTS",
    "AsyncLeaseKeeper",
    "CheckupReport",
    "ContradictionJudge",
    "JobOutcome",
    "LeaseKeeper",
    "LeaseLostError",
    "PairVerdict",
    "acheckup_job",
    "arun_checkup",
    "arun_due_checkups",
    "aschedule_checkup",
    "checkup_job",
    "concepts_instanced",
    "concepts_named",
    "find_issues",
    "lexicon_contradiction",
    "lexicon_pairs",
    "preference_vectors",
    "run_checkup",
    "run_due_checkups",
    "schedule_checkup",
    "similar_pairs",
    "top_opposite_pairs",
]

"""One turn's candidates for its single end-of-turn gate write, each statement once."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Preference, PreferenceCandidate
from .objects import derive_objects


def _object_keys(item: PreferenceCandidate | Preference) -> set[str]:
    keywords = item.keywords or derive_objects(item.content, item.polarity).keywords
    return {k.strip().casefold() for k in keywords if k.strip()}


def turn_batch(
    candidates: Sequence[PreferenceCandidate], stored: Sequence[Preference] = ()
) -> list[PreferenceCandidate]:
    """One turn's candidates for its single gate write, each statement once.

    A candidate is dropped when an earlier one of the batch, or a preference already
    stored this turn (``stored``: what the model's ``remember_preference`` call wrote),
    has the same polarity and a shared object (normalised keywords, derived from content
    when a candidate has none) or the same content: merging it again would count one
    mention twice. A candidate of another polarity or another object is kept, so a tool
    call for one clause of a message never suppresses the capture of the others.

    Args:
        candidates: In order of trust (rule capture first, then the summary model's).
        stored: Preferences written this turn by another path.

    Returns:
        The candidates to write, in order.
    """
    seen: list[tuple[str, set[str], str]] = [
        (p.polarity, _object_keys(p), p.content.strip().casefold()) for p in stored
    ]
    kept: list[PreferenceCandidate] = []
    for cand in candidates:
        keys, content = _object_keys(cand), cand.content.strip().casefold()
        if any(pol == cand.polarity and (keys & other or content == text)
               for pol, other, text in seen):
            continue
        kept.append(cand)
        seen.append((cand.polarity, keys, content))
    return kept


__all__ = ["turn_batch"]

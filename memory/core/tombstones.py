"""Tombstones: what was forgotten or superseded, and when, so an older statement replayed late
(a spooled write) never beats a newer one (DESIGN.md §6.5) — kept without the text, so that
a forget leaves no copy of what it removed (DESIGN.md §7).

A spooled write carries the time it was said (``PreferenceCandidate.at``). Comparing it with
the active preferences catches a newer contradicting statement that still stands, but not
one that is gone: "I like coffee" spooled at 10:00, then "forget coffee" at 10:05 (which
found nothing to remove, the like being still in the spool), would re-create the like on
replay. So each user's snapshot keeps a small map of tombstones, written by the same commit
as the forget or the supersession:

* a **forget** tombstone per forget request (its polarity filter, its time), kept even when
  the forget removed nothing;
* a **statement** tombstone per removed preference (forgotten or superseded), at the time it
  was last stated.

A candidate with an ``at`` is *outdated* when a forget made after ``at`` would have removed
it, or a statement made after ``at`` that it contradicts (or whose single-valued slot it
fills) has since been removed. The map is bounded (:data:`TOMBSTONES_MAX`, the oldest
removals go first). Imports are exempt: a restore after a forget restores.

**No plaintext.** A tombstone holds salted SHA-256 digests (:func:`digest`, salted with the
user id), never the forgotten words, and the replay rule runs on digests:

* a forget keeps one digest per object it names (:func:`~.matching.forget_phrases`) with the
  object's length; a candidate is checked by digesting each run of that many words of its
  keywords and content (Chinese: each substring of that many characters), spelled
  canonically (:func:`canonical`: British/American variants folded);
* a removed statement keeps, per keyword, the digest of its canonical form and the digests of
  every shorter form that *covers* it (its head words, ``chocolate`` for ``dark chocolate``,
  as :func:`~.matching.keyword_covers` decides them at removal time), whether a modifier
  makes it another object (``vegan cheese``), its objects' grouping, its slot's digest, its
  polarity, category and protection.

The one coarsening: a swapped-letter typo (``recieve``/``receive``), which the live rules
accept, is not recognised against a tombstone. A digest of a short word can be confirmed by
anyone who can read Redis and guesses the word; the salt only stops matching across users
and precomputed tables.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from ..model import (
    ChangeEvent,
    Polarity,
    Preference,
    clean_text,
    has_cjk,
    normalise_keyword,
    singular,
)
from .erasure_index import content_clause, minimal_clauses, phrase_clause
from .matching import (
    categories_compatible,
    changes_head,
    forget_matches,
    forget_phrases,
    keyword_covers,
    spelling_key,
)
from .objects import object_groups

if TYPE_CHECKING:
    from .resolution import PreparedCandidate

TOMBSTONES_MAX = 100
"""Tombstones kept per user, newest removals first. A spool holds the writes of one outage
(minutes to hours of one agent's turns), far fewer forgets and supersessions than this; a
tombstone older than the oldest spooled write is never consulted again."""

_DIGEST_HEX = 32
"""Hex characters kept of each SHA-256 (128 bits: no collision among a user's few thousand)."""
_WITH = " with "


@lru_cache(maxsize=65_536)
def digest(salt: str, kind: str, text: str) -> str:
    """Salted digest of one form: ``sha256("penchant\\0<kind>\\0<salt>\\0<text>")``, 32 hex.

    Args:
        salt: The user id (digests of two users never match).
        kind: What the form is (``eq``, ``cv2``, ``cjk``, ``slot``, ``content``, ``forget``).
        text: The form.
    """
    raw = "\0".join(("penchant", kind, salt, text)).encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).hexdigest()[:_DIGEST_HEX]


def content_digest(salt: str, content: str) -> str:
    """Digest of a preference's content, for the change log's tombstone events."""
    return digest(salt, "content", clean_text(content))


def canonical(keyword: str) -> str:
    """A normalised keyword (or run of words) with spelling variants folded: two forms are
    :func:`~.matching.keywords_equal` (typos aside) exactly when their canonical forms are
    equal."""
    if has_cjk(keyword):
        return keyword
    return " ".join(spelling_key(w) for w in keyword.replace("-", " ").split(" "))


def _eq(salt: str, keyword: str) -> str:
    return digest(salt, "eq", canonical(keyword))


def _cv(salt: str, keyword: str) -> str:
    return digest(salt, f"cv{len(keyword.split(' '))}", canonical(keyword))


class KeywordDigest(BaseModel):
    """One keyword of a removed statement, as digests.

    Attributes:
        eq: Digest of its canonical form (equality).
        cv: Digests of the shorter forms that cover it (head words; Chinese suffixes).
        modifier: A modifier makes it another object (``oat milk``): a newer statement must
            name it whole to contradict it.
        q: For ``<head> with <qualifier>``: the qualifier's equality digest.
        head: For a qualified keyword: its head's digests.
    """

    eq: str
    cv: list[str] = Field(default_factory=list)
    modifier: bool = False
    q: str | None = None
    head: KeywordDigest | None = None

    @classmethod
    def of(cls, salt: str, keyword: str) -> KeywordDigest:
        """The digests of a normalised keyword."""
        if _WITH in keyword:
            head, qualifier = keyword.split(_WITH, 1)
            return cls(eq=_eq(salt, keyword), q=_eq(salt, qualifier), head=cls.of(salt, head))
        if has_cjk(keyword):
            shorter = [keyword[i:] for i in range(1, len(keyword))]
        else:
            words = keyword.split(" ")
            shorter = [" ".join(words[-k:]) for k in range(1, len(words))]
        covers = sorted({_cv(salt, s) for s in shorter if keyword_covers(s, keyword)})
        return cls(eq=_eq(salt, keyword), cv=covers, modifier=changes_head(keyword))

    def covered_by(self, salt: str, general: str) -> bool:
        """:func:`~.matching.keyword_covers` ``(general, this keyword)`` on digests."""
        if _eq(salt, general) == self.eq:
            return True
        if self.q is not None and self.head is not None and _WITH not in general:
            return self.head.covered_by(salt, general)  # a bare head covers it (issue 17)
        if self.q is not None or _WITH in general:
            if self.q is None or self.head is None or _WITH not in general:
                return False
            head, qualifier = general.split(_WITH, 1)
            return _eq(salt, qualifier) == self.q and self.head.covered_by(salt, head)
        return _cv(salt, general) in self.cv


class PhraseDigest(BaseModel):
    """One object a forget named: ``cjk`` compares characters, else words; ``n`` is its
    length in those units; ``d`` its digest."""

    cjk: bool
    n: int
    d: str


class Tombstone(BaseModel):
    """A forget request, or a preference that no longer stands, without its text.

    Attributes:
        kind: ``forget`` or ``statement``.
        ref: Field of the user's tombstone hash: ``forget:<digest of the wording>`` or
            ``pref:<preference id>``.
        at: When the forget was made, or when the removed statement was last made
            (its ``updated_at``).
        removed_at: When it was written (eviction order).
        polarity: The forget's polarity filter (``None``: both), or the statement's polarity.
        phrases: The objects the forget named (``forget`` only).
        pref_id: The removed preference's id (``statement`` only).
        category: Its category.
        protected: Whether it was a protected dislike (an allergy).
        slot: Digest of its single-valued slot, if any.
        groups: Its objects, each a list of keyword digests.
        digest: Digest of its content.
    """

    kind: Literal["forget", "statement"]
    ref: str
    at: datetime
    removed_at: datetime
    polarity: Polarity | None = None
    phrases: list[PhraseDigest] = Field(default_factory=list)
    pref_id: str | None = None
    category: str = "other"
    protected: bool = False
    slot: str | None = None
    groups: list[list[KeywordDigest]] = Field(default_factory=list)
    digest: str | None = None

    @property
    def key(self) -> str:
        """Field of the user's tombstone hash: one per forget wording, one per preference id."""
        return self.ref

    def to_json(self) -> str:
        """The stored form."""
        return self.model_dump_json()

    @classmethod
    def from_json(cls, raw: str | bytes, salt: str = "") -> Tombstone:
        """Parse a stored tombstone; one in the older plaintext layout (``text``,
        ``preference``) is converted to digests with ``salt`` (the user id)."""
        tomb = cls.model_validate_json(raw) if b'"ref"' in _bytes(raw) else None
        if tomb is not None:
            return tomb
        import json

        old: dict[str, Any] = json.loads(raw)
        at = datetime.fromisoformat(old["at"])
        removed = datetime.fromisoformat(old["removed_at"])
        if old.get("preference"):
            pref = Preference.model_validate(old["preference"])
            return cls.of_removed(pref, removed, salt).model_copy(update={"at": at})
        return cls.of_forget(old.get("text", ""), old.get("polarity"), at, salt).model_copy(
            update={"removed_at": removed}
        )

    @classmethod
    def of_forget(
        cls, text: str, polarity: Polarity | None, now: datetime, salt: str
    ) -> Tombstone:
        """The tombstone of a forget request made at ``now`` by user ``salt``."""
        phrases = []
        for phrase in forget_phrases(text):
            if has_cjk(phrase):
                phrases.append(PhraseDigest(cjk=True, n=len(phrase), d=digest(salt, "cjk", phrase)))
            else:
                n = len(phrase.split(" "))
                phrases.append(PhraseDigest(cjk=False, n=n, d=_eq(salt, phrase)))
        wording = f"{polarity or '*'}\0{clean_text(text).lower()}"
        return cls(
            kind="forget", ref="forget:" + digest(salt, "forget", wording), at=now,
            removed_at=now, polarity=polarity, phrases=phrases,
        )  # fmt: skip

    @classmethod
    def of_removed(cls, pref: Preference, now: datetime, salt: str) -> Tombstone:
        """The tombstone of a preference removed at ``now`` (forgotten or superseded)."""
        groups = object_groups(pref.content, pref.polarity, tuple(pref.keywords))
        return cls(
            kind="statement", ref=f"pref:{pref.id}", at=pref.updated_at, removed_at=now,
            polarity=pref.polarity, pref_id=pref.id, category=pref.category,
            protected=pref.protected, slot=digest(salt, "slot", pref.slot) if pref.slot else None,
            groups=[[KeywordDigest.of(salt, k) for k in group] for group in groups],
            digest=content_digest(salt, pref.content),
        )  # fmt: skip

    # -- the replay rule on digests ------------------------------------------------------------

    def forgets(self, keywords: list[str], content: str, polarity: str, salt: str) -> bool:
        """Whether this forget would have removed a preference like that
        (:func:`~.matching.forget_matches` on digests)."""
        if self.kind != "forget" or self.polarity not in (None, polarity):
            return False
        content_norm = normalise_keyword(content)
        for phrase in self.phrases:
            if phrase.cjk:
                if any(digest(salt, "cjk", k) == phrase.d for k in keywords):
                    return True
                if phrase.n < 2:
                    continue
                texts = [*keywords, content_norm.replace(" ", "")]
                if any(digest(salt, "cjk", s[i : i + phrase.n]) == phrase.d
                       for s in texts for i in range(len(s) - phrase.n + 1)):  # fmt: skip
                    return True
                continue
            for tokens in [k.split(" ") for k in keywords] + [content_norm.split(" ")]:
                starts = range(len(tokens) - phrase.n + 1)
                runs = (" ".join(tokens[i : i + phrase.n]) for i in starts)
                if any(_eq(salt, run) == phrase.d for run in runs):
                    return True
        return False

    def contradicted_by(self, prepared: PreparedCandidate, salt: str) -> bool:
        """Whether this removed statement, had it stood, would have superseded ``prepared``'s
        candidate, or it filled the slot the candidate fills (the rules of
        :func:`~.resolution.newer_conflict`, on digests)."""
        if self.kind != "statement":
            return False
        cand = prepared.candidate
        slot = prepared.slot
        if slot and not self.protected and self.slot == digest(salt, "slot", slot):
            return True
        if self.polarity == cand.polarity:
            return False
        if not categories_compatible(self.category, cand.category):
            return False
        if self.protected:
            flat = [kd for group in self.groups for kd in group]
            return bool(prepared.retracted) and all(
                any(kd.covered_by(salt, r) for r in prepared.retracted) for kd in flat
            )
        new_objects = object_groups(cand.content, cand.polarity, tuple(prepared.keywords))
        return all(
            any(_supersedes(salt, new, old) for new in new_objects) for old in self.groups
        )


def _supersedes(salt: str, new_keywords: list[str], old: list[KeywordDigest]) -> bool:
    """:func:`~.matching.supersedes` with the older keywords as digests."""
    if not new_keywords or not old:
        return False
    if any(kd.modifier and not any(_eq(salt, n) == kd.eq for n in new_keywords) for kd in old):
        return False
    return all(any(kd.covered_by(salt, n) for kd in old) for n in new_keywords)


def _run_names(phrase: list[str], tokens: list[str]) -> bool:
    """Whether ``tokens`` hold the phrase's words in a row, each as itself or a plural
    (``martinis`` for ``martini``: a word :func:`~.normalize.singular` leaves alone)."""
    n = len(phrase)
    return any(
        all(t == p or t in (p + "s", p + "es") or singular(t) == p
            for t, p in zip(tokens[i : i + n], phrase, strict=True))
        for i in range(len(tokens) - n + 1)
    )  # fmt: skip


def _bytes(raw: str | bytes) -> bytes:
    return raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")


@dataclass
class Tombstones:
    """A user's tombstones by key (part of :class:`~.ops.UserSnapshot`).

    Attributes:
        by_key: Tombstones by hash field.
        salt: The user id, salting every digest.
        legacy: Keys of tombstones read in the plaintext layout; the next write that touches
            tombstones rewrites them as digests.
    """

    by_key: dict[str, Tombstone] = field(default_factory=dict)
    salt: str = ""
    legacy: set[str] = field(default_factory=set)

    def forgotten_after(
        self, at: datetime, keywords: list[str], content: str, polarity: str
    ) -> Tombstone | None:
        """The newest forget made after ``at`` that would have removed such a statement."""
        found = [
            t for t in self.by_key.values()
            if t.at > at and t.forgets(keywords, content, polarity, self.salt)
        ]  # fmt: skip
        return max(found, key=lambda t: t.at, default=None)

    def conflict_after(self, prepared: PreparedCandidate) -> Tombstone | None:
        """A removed statement made after the candidate was said that it contradicts (or
        whose slot it fills); ``None`` for a candidate without ``at``."""
        at = prepared.candidate.at
        if at is None:
            return None
        for tomb in self.by_key.values():
            if tomb.kind == "statement" and tomb.at > at and tomb.contradicted_by(
                prepared, self.salt
            ):
                return tomb
        return None

    def evictions(self, added: Iterable[Tombstone]) -> list[str]:
        """Keys to delete so that, with ``added`` written, at most :data:`TOMBSTONES_MAX`
        remain (the oldest removals go first)."""
        merged = dict(self.by_key)
        for tomb in added:
            merged[tomb.key] = tomb
        if len(merged) <= TOMBSTONES_MAX:
            return []
        oldest = sorted(merged.values(), key=lambda t: (t.removed_at, t.key))
        return [t.key for t in oldest[: len(merged) - TOMBSTONES_MAX]]

    def clone(self) -> Tombstones:
        """A copy whose map can be changed without touching this one."""
        return Tombstones(dict(self.by_key), self.salt, set(self.legacy))

    @classmethod
    def from_records(cls, raw: dict[str, str | bytes], salt: str = "") -> Tombstones:
        """Parse the user's tombstone hash (key → JSON); ``salt`` is the user id."""
        by_key: dict[str, Tombstone] = {}
        legacy: set[str] = set()
        for key, value in raw.items():
            by_key[key] = Tombstone.from_json(value, salt)
            if b'"ref"' not in _bytes(value):
                legacy.add(key)
        return cls(by_key, salt, legacy)




def _squashed(text: str) -> str:
    """``text`` compared for erasure: NFKC (full-width forms folded), whitespace runs as one
    space, case folded."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


@dataclass(frozen=True)
class Erasure:
    """What one forget scrubs, after its commit, from the records that copy the forgotten
    text: the change log, idempotency records, transcripts and behaviour history
    (DESIGN.md §7).

    A record is scrubbed when it names a removed preference or retired observation by id, or
    when its text matches the forget request the way a stored preference would
    (:func:`~.matching.forget_matches`), or names a removed preference's keyword or contains
    its content. With a polarity filter, records of the other polarity are matched by id
    only, and free text (a transcript message, a history summary) only by the removed
    contents verbatim, so ``forget durian (dislike)`` leaves a standing like of durian and
    the talk about it alone.

    Attributes:
        text: The forget request.
        polarity: Its polarity filter.
        ids: Removed preference ids and retired observation ids.
        contents: The removed preferences' contents.
        keywords: Their keywords.
        keep_history: ``Settings.keep_full_history``: leave the change log, transcripts and
            behaviour history as they are (idempotency records are scrubbed still).
    """

    text: str
    polarity: Polarity | None = None
    ids: frozenset[str] = frozenset()
    contents: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    keep_history: bool = False

    def index_query(self) -> list[list[list[str]]] | None:
        """The change events this erasure can scrub, as terms of :func:`event_terms`: an event
        is a candidate when, for one clause, it holds one term of each group. ``None``: a
        clause needs no term (every event is a candidate)."""
        clauses: list[list[list[str]]] = [[["#" + i]] for i in sorted(self.ids)]
        clauses += [content_clause(c) for c in self.contents if c]
        for query in (self.text, *self.keywords):
            clauses += [phrase_clause(p) for p in forget_phrases(query)]
        if any(not clause for clause in clauses):
            return None
        return minimal_clauses(clauses)

    def names_text(self, text: str) -> bool:
        """Whether free text (a message, a summary, a rejected content) names the forgotten."""
        if not text:
            return False
        if any(c and c in text for c in self.contents):
            return True
        if self.contents:  # the same text with other spacing or full-width forms (a message)
            squashed = _squashed(text)
            if any(c and _squashed(c) in squashed for c in self.contents):
                return True
        if self.polarity is not None:
            return False
        if any(forget_matches(query, [], text) for query in (self.text, *self.keywords)):
            return True
        tokens = normalise_keyword(text).split(" ")  # free text: plurals the rules keep
        return any(
            _run_names(phrase.split(" "), tokens)
            for query in (self.text, *self.keywords) for phrase in forget_phrases(query)
            if not has_cjk(phrase)
        )  # fmt: skip

    def names_record(self, record: dict[str, Any]) -> bool:
        """Whether a preference, observation, flag or rejection dict names the forgotten."""
        if record.get("id") in self.ids or any(
            i in self.ids for i in record.get("preference_ids") or ()
        ):
            return True
        content = record.get("content")
        if not isinstance(content, str):
            return False
        polarity = record.get("polarity")
        if self.polarity is not None and polarity != self.polarity:
            return any(c and c in content for c in self.contents)
        keywords = [k for k in record.get("keywords") or () if isinstance(k, str)]
        return forget_matches(self.text, keywords, content) or self.names_text(content)

    def names_event(self, event: ChangeEvent) -> bool:
        """Whether a change event copies the forgotten text (tombstone events never do)."""
        if event.digest is not None:
            return False
        if event.replaced_by in self.ids:
            return True
        if any(part is not None and self.names_json(part) for part in (event.before, event.after)):
            return True
        return bool(event.content) and self.names_text(event.content or "")

    def names_json(self, value: Any) -> bool:
        """Whether any record inside a JSON value (an idempotency record's result, a
        history payload) names the forgotten."""
        if isinstance(value, dict):
            if self.names_record(value):
                return True
            return any(self.names_json(v) for v in value.values())
        if isinstance(value, list):
            return any(self.names_json(v) for v in value)
        return isinstance(value, str) and self.names_text(value)


__all__ = [
    "TOMBSTONES_MAX",
    "Erasure",
    "KeywordDigest",
    "PhraseDigest",
    "Tombstone",
    "Tombstones",
    "canonical",
    "content_digest",
    "digest",
]

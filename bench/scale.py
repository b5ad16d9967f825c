"""Costs that must not grow with a user's store (issue 12): gate, recall, check-up, cold CLI.

Figures (all medians; ``<n>`` is ``1k``, ``10k`` and, in the full run, ``50k`` active
preferences of one user, 512-d ``RandomEmbedder`` vectors, ``Settings(max_preferences=
100000)``):

* ``gate_ms_p50_<n>``: one ``Memory.remember`` of one candidate, over the write mix of
  :class:`Workload` (500 writes in ``--quick``, 1,500 in the full run, after one warm-up
  recall, as in a running agent). The store holds what users write: word keywords from a
  deterministic pseudo-word vocabulary (:func:`keyword`: ``sturdy kelomar``, one entry in
  ten Chinese, ``复古茶杯``; a distinct English head noun per entry, 54,000 in the first
  60,000, most of them 7 letters so that the typo rule applies). The writes take turns:
  new preferences (create), repeats (merge), polarity flips (supersede), keywordless
  candidates (content only, as ``remember`` without keywords: the gate derives their objects
  with ``objects.derive_objects``; a new entry and a restatement in turn) and typo'd keywords
  (one adjacent transposition in a stored head, ``kelomar`` → ``keloamr``: merges through
  the typo rule). Before, the mix was ``product line <i>`` keywords, digit heads: the typo
  scan and object derivation never ran, and a cost of those that grows with ``n`` was
  hidden. New preferences of the mix grow the store by up to 30% of the writes while it is
  measured (150 at 1k in ``--quick``). ``gate_ms_p50_<n>_<kind>``: the same per kind of the
  mix. The embedder is the random one, so embedding costs nothing.
* ``raw_txn_ms_p50_<n>``: the baseline, the *same commands* each of those gate writes
  committed (captured at ``backend.commit``, turned into commands by
  ``wire.encode_commit``), replayed as a redis-py ``WATCH rev; GET rev; MULTI; …; SET rev;
  EXEC`` on a scratch user's keys (``penchant:{bench-raw}:…``), same server, right after
  each gate write, so that both see the same load on the machine (on 2 shared cores its p50
  still varies between about 0.22 and 0.54 ms from run to run: compare medians of runs).
* ``recall_warm_ms_p50_<n>``: the same query (naming a stored entry) recalled again (the
  cached snapshot is current); ``recall_after_write_ms_p50_<n>``: a recall right after this
  process's own write; ``recall_after_other_writer_ms_p50_<n>``: a recall right after a
  second ``Memory`` with its own client wrote (only the recall is timed; each write is a new
  word preference).
* ``checkup_s_2k``: ``run_checkup`` of a user with 2,000 preferences (``product line <i>``
  in one of eight materials of the check-up's lexicon, a fifth of them dislikes), one run.
* ``cli_cold_s_10k_users``: a new ``penchant prefs --user u1`` process against a data
  directory of 10,000 users × 20 preferences while the embedded server lingers (after
  issue 12); ``cli_cold_stopped_s_10k_users``: the same with the server stopped and
  ``PENCHANT_EMBEDDED_LINGER_SECONDS=0`` (it loads the AOF, then stops without saving);
  ``rdb_save_s_10k_users``: one ``SAVE`` of that dataset, what every stop cost before
  issue 12 (so "before" ≈ stopped + save).

Filling is fast and goes through the gate: a user's store grows by batches of 500
candidates (one commit each: 10k word preferences in about 2 s here), users of the CLI
dataset get their 20 preferences in one ``remember`` each (10k users in about 40 s). The CLI
dataset can be kept between runs (``--cli-data DIR``; a ``fill.json`` in it says what it
holds and a mismatching directory is filled again).

Usage::

    python bench/scale.py [--quick] [--no-cli] [--no-store] [--cli-data DIR]
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Container, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from penchant.memory import Memory, PreferenceCandidate, Settings
from penchant.memory.backends import wire
from penchant.memory.backends.connect import open_client
from penchant.memory.backends.server import EmbeddedRedis
from penchant.memory.core.matching import TYPO_MIN_LEN
from penchant.memory.model.keys import UserKeys

MATERIALS = ["plastic", "wool", "leather", "canvas", "cotton", "silk", "bamboo", "glass"]
FILL_BATCH = 500
TARGETS = {
    "gate_10k_vs_1k": 2.0,
    "gate_10k_vs_raw": 3.0,
    "recall_after_write_vs_warm_10k": 2.0,
    "recall_after_other_vs_warm_10k": 3.0,
    "checkup_s_2k": 10.0,
    "cli_cold_s_10k_users": 2.0,
}
"""Issue 12's targets: each ratio (or figure, in seconds) must be at most this."""
PENCHANT = Path(sys.executable).with_name("penchant")


class RandomEmbedder:
    """512-d random unit vectors: the stored size of USE multilingual v3, at no model cost."""

    name, dim = "random-512", 512

    def __init__(self, seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self.rng.standard_normal((len(texts), self.dim)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def candidate(i: int, polarity: str = "like") -> PreferenceCandidate:
    """Preference number ``i`` of the check-up and CLI datasets: its own keyword
    (``product line <i>``), one of eight materials."""
    return PreferenceCandidate(
        content=f"{polarity}s product line {i} in {MATERIALS[i % len(MATERIALS)]}",
        polarity=polarity,  # type: ignore[arg-type]
        keywords=[f"product line {i}"],
        category="style",
    )


# -- what users write: a pseudo-word vocabulary and the gate's write mix ------------------------

_ONSETS, _VOWELS, _CODAS = "bdfgklmnprstvz", "aeiou", "nrlmkt"
_SYLLABLES = [c + v for c in _ONSETS for v in _VOWELS]  # 70 open syllables: ba, be … zu
EN_MODIFIERS = ["sturdy", "tiny", "bright", "smoky", "crispy", "chunky", "mellow", "fluffy",
                "glossy", "rustic", "soft", "small", "large", "green", "red"]  # fmt: skip
"""Modifiers that capture keeps in one keyword with the noun (``likes sturdy kelomar`` →
``sturdy kelomar``, measured with ``derive_objects``; ``organic``, ``vintage`` and ``spicy``
split off as a facet and are not used)."""
ZH_MODIFIERS = ["小号", "大号", "清淡", "复古", "经典", "原味", "深色", "浅色"]
_ZH_FIRST = "米皮木竹铁铜玉金银布麻丝棉纸石瓷陶草花果豆面肉鱼虾蛋奶糖茶酒油盐酱醋姜蒜葱椒"
_ZH_LAST = (
    "包鞋帽衣裤裙袜杯碗盘壶瓶灯椅桌床柜箱盒伞扇镜表笔本卡糕饼饭粥汤面粉丸卷片条块"
    "球棒板架垫毯被枕巾帘窗门车船琴鼓画书报刊票券链环戒针扣带绳网袋篮桶罐锅铲勺叉筷"
)
ZH_SHARE = 10
"""One vocabulary entry in this many is a Chinese preference (``喜欢复古茶杯``)."""
SHORT_SHARE = 5
"""One English noun in this many is short (5 letters: under the typo rule's 7)."""
_LONG_SPACE = len(_SYLLABLES) ** 3 * len(_CODAS)  # 2,058,000 seven-letter nouns
_SHORT_SPACE = len(_SYLLABLES) ** 2 * len(_CODAS)  # 29,400 five-letter nouns
_ZH_SPACE = len(ZH_MODIFIERS) * len(_ZH_FIRST) * len(_ZH_LAST)


def _scrambled(n: int, space: int) -> int:
    """A bijection of ``range(space)`` (a stride coprime to every space here), so that
    neighbouring indexes get unrelated words."""
    return (n * 1_000_003 + 12_345) % space


def _en_noun(i: int) -> str:
    if i % SHORT_SHARE == 2:
        n, syllables = _scrambled(i // SHORT_SHARE, _SHORT_SPACE), 2
    else:
        n, syllables = _scrambled(i, _LONG_SPACE), 3
    n, coda = divmod(n, len(_CODAS))
    parts = []
    for _ in range(syllables):
        n, s = divmod(n, len(_SYLLABLES))
        parts.append(_SYLLABLES[s])
    return "".join(parts) + _CODAS[coda]


def is_chinese(i: int) -> bool:
    """Whether vocabulary entry ``i`` is a Chinese preference."""
    return i % ZH_SHARE == ZH_SHARE - 1


def keyword(i: int) -> str:
    """Vocabulary entry ``i``: ``"<modifier> <noun>"`` (``"sturdy kelomar"``) or a Chinese
    modifier + two-character noun (``"复古茶杯"``); distinct for every ``i`` below 500,000,
    its head (the noun: DESIGN.md §6, the gate's head index) distinct for every English ``i``.

    Raises:
        ValueError: ``i`` is beyond the vocabulary.
    """
    if not 0 <= i < 500_000:
        raise ValueError(f"vocabulary index {i} is outside 0 … 499,999; the bench's vocabulary "
                         "is that large")  # fmt: skip
    if is_chinese(i):
        n = _scrambled(i // ZH_SHARE, _ZH_SPACE)
        n, last = divmod(n, len(_ZH_LAST))
        mod, first = divmod(n, len(_ZH_FIRST))
        return ZH_MODIFIERS[mod] + _ZH_FIRST[first] + _ZH_LAST[last]
    return f"{EN_MODIFIERS[i % len(EN_MODIFIERS)]} {_en_noun(i)}"


def content(i: int, polarity: str) -> str:
    """The preference sentence of entry ``i`` (``likes sturdy kelomar``, ``不喜欢复古茶杯``)."""
    if is_chinese(i):
        return ("喜欢" if polarity == "like" else "不喜欢") + keyword(i)
    return f"{polarity}s {keyword(i)}"


def typo(i: int, taken: Container[str] = ()) -> str:
    """Entry ``i``'s keyword with one adjacent transposition in its head (``kelomar`` →
    ``keloamr``) that the gate's typo rule admits (after the first two letters), and that is
    not in ``taken`` (the nouns stored: else it would be another preference's head).

    Raises:
        ValueError: entry ``i`` is Chinese or its head is shorter than the typo rule's 7.
    """
    mod, noun = ("", "") if is_chinese(i) else keyword(i).rsplit(" ", 1)
    if len(noun) < TYPO_MIN_LEN:
        raise ValueError(f"vocabulary entry {i} ({keyword(i)!r}) has no head of "
                         f"{TYPO_MIN_LEN}+ letters to misspell; pick a long English "
                         "one")  # fmt: skip
    for shift in range(len(noun) - 3):
        p = 2 + (i + shift) % (len(noun) - 3)  # swaps p and p + 1, 2 <= p <= len - 2
        variant = noun[:p] + noun[p + 1] + noun[p] + noun[p + 2 :]
        if variant != noun and variant not in taken:
            return f"{mod} {variant}"
    raise ValueError(f"every transposition of {noun!r} is a stored noun; pick another entry")


def word_candidate(i: int, polarity: str = "like", *, keyworded: bool = True,
                   keywords: list[str] | None = None) -> PreferenceCandidate:  # fmt: skip
    """Entry ``i`` as a candidate: with its keyword, ``keywords`` instead, or content only
    (``keyworded=False``: a ``remember`` call without keywords, objects derived by the gate)."""
    given = keywords if keywords is not None else [keyword(i)] if keyworded else []
    return PreferenceCandidate(
        content=content(i, polarity),
        polarity=polarity,  # type: ignore[arg-type]
        keywords=given,
        category=CATEGORIES[i % len(CATEGORIES)],
    )


CATEGORIES = ["food", "style", "material", "brand", "activity"]
MIX_KINDS = ("new", "repeat", "flip", "keywordless", "typo")
"""The gate's write mix, one kind per write in turn (a fifth each)."""


class MixWrite(NamedTuple):
    """One write of the mix: its kind (:data:`MIX_KINDS`), the vocabulary entry it is about,
    and the candidate given to ``Memory.remember``."""

    kind: str
    entry: int
    candidate: PreferenceCandidate


class Workload:
    """One bench user's word preferences: what was stored, and the next write of the mix.

    The store is filled with keyworded entries of the vocabulary (:func:`keyword`), all
    likes; the timed writes cycle through :data:`MIX_KINDS`:

    * ``new``: an entry never written, with its keyword (a create);
    * ``repeat``: a stored entry again, same polarity (a merge);
    * ``flip``: a stored entry with the opposite polarity (supersedes the stored one);
    * ``keywordless``: content only, as ``remember`` without keywords: a new entry and a
      restatement of a stored English one in turn (the gate derives the objects,
      ``objects.derive_objects``: a create, then a merge);
    * ``typo``: a stored English entry with a long head, its head misspelt by one adjacent
      transposition (:func:`typo`: merges into the stored head through the gate's typo rule).

    The workload tracks the polarity each stored entry has now, so a flip is always a flip
    and a repeat always a repeat, across sizes.
    """

    def __init__(self) -> None:
        self.polarity: dict[int, str] = {}
        self.stored: list[int] = []
        self.nouns: set[str] = set()
        self.next_index = 0
        self.writes = 0

    def take(self) -> int:
        """The index of an entry never written before."""
        i, self.next_index = self.next_index, self.next_index + 1
        return i

    def _stored(self, *, long_english: bool = False) -> int:
        """A stored entry, spread over the store (a stride through it)."""
        k = self.writes
        for step in range(len(self.stored)):
            i = self.stored[(k * 7_919 + step) % len(self.stored)]
            if not long_english or (not is_chinese(i) and i % SHORT_SHARE != 2):
                return i
        raise RuntimeError("the workload has no stored entry of that kind; fill it first")

    def _record(self, i: int, polarity: str) -> None:
        if i not in self.polarity:
            self.stored.append(i)
            if not is_chinese(i):
                self.nouns.add(keyword(i).rsplit(" ", 1)[1])
        self.polarity[i] = polarity

    def fill(self, memory: Memory, user: str, upto: int) -> None:
        """Grow ``user`` to ``upto`` active preferences with new entries (likes),
        ``FILL_BATCH`` candidates per commit.

        Raises:
            RuntimeError: the gate stored fewer than ``upto``.
        """
        have = len(memory.preferences(user))
        while have < upto:
            batch = [self.take() for _ in range(min(FILL_BATCH, upto - have))]
            memory.remember(user, [word_candidate(i) for i in batch])
            for i in batch:
                self._record(i, "like")
            have += len(batch)
        got = len(memory.preferences(user))
        if got < upto:
            raise RuntimeError(f"filling {user!r} stored {got} preferences, wanted {upto}")

    def next_write(self) -> MixWrite:
        """The next write of the mix; the workload records it as done."""
        kind = MIX_KINDS[self.writes % len(MIX_KINDS)]
        if kind == "new":
            i, polarity = self.take(), "like"
            cand = word_candidate(i)
        elif kind == "repeat":
            i = self._stored()
            polarity = self.polarity[i]
            cand = word_candidate(i, polarity)
        elif kind == "flip":
            i = self._stored()
            polarity = "dislike" if self.polarity[i] == "like" else "like"
            cand = word_candidate(i, polarity)
        elif kind == "keywordless":
            restate = (self.writes // len(MIX_KINDS)) % 2 == 1
            i = self._stored() if restate else self.take()
            polarity = self.polarity.get(i, "like")
            cand = word_candidate(i, polarity, keyworded=False)
        else:
            i = self._stored(long_english=True)
            polarity = self.polarity[i]
            cand = word_candidate(i, polarity, keywords=[typo(i, self.nouns)])
        self._record(i, polarity)
        self.writes += 1
        return MixWrite(kind, i, cand)


def _median_ms(samples: list[float]) -> float:
    return float(statistics.median(samples))


def _timed_ms(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def fill_user(memory: Memory, user: str, upto: int, *, polarity: Callable[[int], str]) -> None:
    """Grow ``user`` to ``upto`` active preferences, ``FILL_BATCH`` candidates per commit."""
    have = len(memory.preferences(user))
    for start in range(have, upto, FILL_BATCH):
        batch = [candidate(i, polarity(i)) for i in range(start, min(upto, start + FILL_BATCH))]
        memory.remember(user, batch)
    got = len(memory.preferences(user))
    if got < upto:
        raise RuntimeError(f"filling {user!r} stored {got} preferences, wanted {upto}")


# -- the gate against the raw transaction of the same commands ---------------------------------


@contextmanager
def captured_commits(memory: Memory) -> Iterator[list[inspect.BoundArguments]]:
    """Record the arguments of every ``memory.backend.commit`` inside the block (cheaply:
    they are encoded afterwards, so the gate's timings do not include the capture)."""
    original = memory.backend.commit
    signature = inspect.signature(original)
    calls: list[inspect.BoundArguments] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(signature.bind(*args, **kwargs))
        return original(*args, **kwargs)

    memory.backend.commit = spy  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        del memory.backend.commit  # back to the class's method


def commit_commands(memory: Memory, call: inspect.BoundArguments) -> list[list[Any]]:
    """The Redis commands (``[name, key, *args]``) one gate commit ran inside its script."""
    args = call.arguments
    idem = args.get("idempotency")
    script_keys, argv = wire.encode_commit(
        args["keys"], args["ops"], expected_revision=args["expected_revision"],
        new_revision="0" * 32, idempotency=idem, settings=memory.settings,
    )  # fmt: skip
    count = int(argv[5])  # the head: guard, expected, new revision, idem ttl, result, count …
    for start in range(6, 16):  # … and whatever the script's head grows to after it
        commands = _triples(script_keys, argv, start, count)
        if commands is not None:
            return [c for command in commands for c in _plain(script_keys, command)]
    raise RuntimeError("cannot decode encode_commit's ARGV: has its layout changed? "
                       "update bench/scale.py's commit_commands")  # fmt: skip


def _plain(keys: list[str], command: list[Any]) -> list[list[Any]]:
    """A commit command as plain Redis commands: the script's ``LOGADD`` (one change event,
    :data:`~penchant.memory.backends.wire.COMMIT_SCRIPT`) is what a hand-written transaction
    would run for it, ``XADD`` of the token and ``HSET`` of the event and its index terms."""
    if command[0] != "LOGADD":
        return [command]
    log, events, index, cap, token, event, terms = command[1:8]
    return [["XADD", log, "MAXLEN", cap, "*", "ek", token],
            ["HSET", keys[int(events) - 1], token, event],
            ["HSET", keys[int(index) - 1], token, terms]]  # fmt: skip


def _triples(keys: list[str], argv: list[Any], i: int, count: int) -> list[list[Any]] | None:
    """``count`` commands ``name, key number, n, *n args`` from ``argv[i:]`` to its end,
    or ``None`` when they do not fit exactly there."""
    out = []
    try:
        for _ in range(count):
            name, key_index, n = argv[i], int(argv[i + 1]), int(argv[i + 2])
            if not (isinstance(name, str) and name.isupper() and 1 <= key_index <= len(keys)):
                return None
            out.append([name, keys[key_index - 1], *argv[i + 3 : i + 3 + n]])
            i += 3 + n
    except (IndexError, ValueError, TypeError):
        return None
    return out if i == len(argv) else None


def raw_transaction_ms(client: Any, user_tag: str, commands: list[list[Any]]) -> float:
    """Time one ``WATCH``/``MULTI``/``EXEC`` of ``commands`` moved to the scratch user's keys."""
    scratch = UserKeys.for_user("bench-raw")
    moved = [[c[0], str(c[1]).replace(user_tag, scratch.tag, 1), *c[2:]] for c in commands]

    def run() -> None:
        with client.pipeline(transaction=True) as pipe:
            pipe.watch(scratch.rev)
            pipe.get(scratch.rev)
            pipe.multi()
            for command in moved:
                pipe.execute_command(*command)
            pipe.set(scratch.rev, os.urandom(16).hex())
            pipe.execute()

    return _timed_ms(run)


def bench_gate_at(memory: Memory, workload: Workload, user: str, size: int,
                  writes: int) -> dict[str, float]:  # fmt: skip
    """Gate and raw-transaction p50 at ``size`` active preferences of ``user``, over
    ``writes`` writes of ``workload``'s mix (:class:`Workload`)."""
    workload.fill(memory, user, size)
    memory.recall(user, "warm up", k=1)  # the snapshot is cached, as in a running agent
    latencies: list[float] = []
    raw: list[float] = []
    by_kind: dict[str, list[float]] = {kind: [] for kind in MIX_KINDS}
    tag = UserKeys.for_user(user).tag
    with captured_commits(memory) as calls:
        for _ in range(writes):
            write = workload.next_write()
            done = len(calls)
            elapsed = _timed_ms(functools.partial(memory.remember, user, write.candidate))
            latencies.append(elapsed)
            by_kind[write.kind].append(elapsed)
            for call in calls[done:]:  # replayed at once: both see the machine as it is now
                raw.append(raw_transaction_ms(memory.client, tag, commit_commands(memory, call)))
    if not calls:
        raise RuntimeError("no gate commit was captured: has Memory stopped calling "
                           "backend.commit?")  # fmt: skip
    for key in memory.client.scan_iter(match=UserKeys.for_user("bench-raw").tag + ":*"):
        memory.client.delete(key)
    label = _size_label(size)
    figures = {f"gate_ms_p50_{label}": _median_ms(latencies),
               f"gate_ms_p95_{label}": float(np.percentile(latencies, 95)),
               f"raw_txn_ms_p50_{label}": _median_ms(raw)}  # fmt: skip
    figures.update({f"gate_ms_p50_{label}_{kind}": _median_ms(samples)
                    for kind, samples in by_kind.items() if samples})  # fmt: skip
    return figures


def _size_label(size: int) -> str:
    return f"{size // 1000}k"


# -- recall: warm, after an own write, after another writer ------------------------------------


def bench_recall_at(
    memory: Memory, other: Memory, workload: Workload, user: str, size: int, samples: int
) -> dict[str, float]:
    """Recall p50 at ``size`` (``user`` already holds them): warm, after own, after other;
    the writes between recalls are new preferences of ``workload``."""
    query = f"ideas with {keyword(workload.stored[0])}"
    memory.recall(user, query)  # the snapshot is cached from here on
    warm = [_timed_ms(functools.partial(memory.recall, user, query)) for _ in range(samples)]
    own, foreign = [], []
    for _ in range(samples):
        memory.remember(user, word_candidate(workload.take()))
        own.append(_timed_ms(functools.partial(memory.recall, user, query)))
    for _ in range(samples):
        other.remember(user, word_candidate(workload.take()))
        foreign.append(_timed_ms(functools.partial(memory.recall, user, query)))
    label = _size_label(size)
    return {f"recall_warm_ms_p50_{label}": _median_ms(warm),
            f"recall_after_write_ms_p50_{label}": _median_ms(own),
            f"recall_after_other_writer_ms_p50_{label}": _median_ms(foreign)}  # fmt: skip


def bench_checkup(memory: Memory, size: int) -> dict[str, float]:
    """Seconds of one ``run_checkup`` at ``size`` preferences."""
    from penchant.memory.services.checkup import run_checkup

    user = "bench-checkup"
    fill_user(memory, user, size, polarity=lambda i: "dislike" if i % 5 == 0 else "like")
    started = time.perf_counter()
    run_checkup(memory, user)
    return {f"checkup_s_{_size_label(size)}": time.perf_counter() - started}


def bench_store(quick: bool) -> dict[str, float]:
    """Gate, raw transaction, recall and check-up figures on one embedded server."""
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 50_000]
    writes, samples = (500, 15) if quick else (1500, 40)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="penchant-scale-") as home:
        settings = Settings(home=Path(home), redis_url=None, max_preferences=100_000,
                            embedded_linger_seconds=0)  # fmt: skip
        server = EmbeddedRedis(settings.redis_dir)
        client = server.connect()
        other_client = open_client(server.url, "penchant-bench-other")
        try:
            memory = Memory(client, settings=settings, embedder=RandomEmbedder())
            other = Memory(other_client, settings=settings, embedder=RandomEmbedder(8))
            memory.backend.ensure_schema()
            workload = Workload()
            for size in sizes:
                figures.update(bench_gate_at(memory, workload, "bench-scale", size, writes))
                print(f"gate at {size}: {figures[f'gate_ms_p50_{_size_label(size)}']:.2f} ms",
                      file=sys.stderr, flush=True)  # fmt: skip
                if size >= 10_000:
                    n = samples if size == 10_000 else max(5, samples // 4)
                    figures.update(bench_recall_at(memory, other, workload, "bench-scale", size, n))
            figures.update(bench_checkup(memory, 2_000))
        finally:
            other_client.close()
            server.release(client)
    return figures


# -- a cold CLI command against 10k users ------------------------------------------------------


def fill_cli_data(home: Path, users: int, per_user: int) -> None:
    """Give ``users`` users (``u0`` …) ``per_user`` preferences each, unless ``fill.json``
    says ``home`` already holds exactly that."""
    marker = home / "fill.json"
    wanted = {"users": users, "per_user": per_user}
    if marker.exists() and json.loads(marker.read_text()) == wanted:
        return
    _stop(home)
    shutil.rmtree(home / "redis", ignore_errors=True)  # a fresh store, then the users
    settings = Settings(home=home, redis_url=None, embedded_linger_seconds=0)
    with Memory.from_settings(settings, embedder=RandomEmbedder()) as memory:
        for u in range(users):
            memory.remember(f"u{u}", [candidate(i) for i in range(per_user)])
        memory.client.execute_command("WAITAOF", 1, 0, 60_000)
    marker.write_text(json.dumps(wanted))


def _cli_env(home: Path, linger: float) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PENCHANT_", "OPENAI_"))}
    env.update(PENCHANT_HOME=str(home), PENCHANT_EMBEDDED_LINGER_SECONDS=repr(linger),
               HF_HUB_OFFLINE="1")  # fmt: skip
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def _cli_prefs_s(env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([str(PENCHANT), "prefs", "--user", "u1"], env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or "product line" not in done.stdout:
        raise RuntimeError(f"penchant prefs failed ({done.returncode}): "
                           f"{(done.stderr or done.stdout).strip()[-300:]}")  # fmt: skip
    return elapsed


def _stop(home: Path) -> None:
    server = EmbeddedRedis(home / "redis")
    if not server.stop():
        raise RuntimeError(f"the embedded server in {home} is still in use; cannot measure")


def bench_cli_cold(home: Path, *, users: int = 10_000, per_user: int = 20,
                   runs: int = 5, stopped_runs: int = 3) -> dict[str, float]:  # fmt: skip
    """Cold ``penchant prefs`` at ``users`` × ``per_user``: lingering, stopped, and a SAVE."""
    home.mkdir(parents=True, exist_ok=True)
    fill_cli_data(home, users, per_user)
    _stop(home)
    stopped = []
    for _ in range(stopped_runs):
        stopped.append(_cli_prefs_s(_cli_env(home, 0.0)))  # loads, then stops (no save)
    _cli_prefs_s(_cli_env(home, 600.0))  # starts the server, which lingers
    lingering = [_cli_prefs_s(_cli_env(home, 600.0)) for _ in range(runs)]
    import redis  # a client without Penchant's socket timeout: a SAVE takes seconds

    socket = str(EmbeddedRedis(home / "redis").socket_path)
    client = redis.Redis(unix_socket_path=socket, socket_timeout=300)
    try:
        save_s = _timed_ms(client.save) / 1000.0  # what each stop did before issue 12
        (home / "redis" / "dump.rdb").unlink(missing_ok=True)
    finally:
        client.close()
    _stop(home)
    label = f"{users // 1000}k_users"
    return {f"cli_cold_s_{label}": statistics.median(lingering),
            f"cli_cold_stopped_s_{label}": statistics.median(stopped),
            f"rdb_save_s_{label}": save_s}  # fmt: skip


# -- ratios against the targets -----------------------------------------------------------------


def ratios(figures: dict[str, float]) -> dict[str, float]:
    """Issue 12's ratio figures, for those whose inputs were measured."""
    pairs = {
        "gate_10k_vs_1k": ("gate_ms_p50_10k", "gate_ms_p50_1k"),
        "gate_10k_vs_raw": ("gate_ms_p50_10k", "raw_txn_ms_p50_10k"),
        "recall_after_write_vs_warm_10k": ("recall_after_write_ms_p50_10k",
                                           "recall_warm_ms_p50_10k"),
        "recall_after_other_vs_warm_10k": ("recall_after_other_writer_ms_p50_10k",
                                           "recall_warm_ms_p50_10k"),
    }  # fmt: skip
    out = {name: figures[a] / figures[b] for name, (a, b) in pairs.items()
           if a in figures and b in figures and figures[b] > 0}  # fmt: skip
    if "gate_ms_p50_50k" in figures:
        out["gate_50k_vs_1k"] = figures["gate_ms_p50_50k"] / figures["gate_ms_p50_1k"]
        out["gate_50k_vs_raw"] = figures["gate_ms_p50_50k"] / figures["raw_txn_ms_p50_50k"]
    return out


def target_rows(figures: dict[str, float]) -> list[tuple[str, float, float, float]]:
    """``(name, value, target, value / target)`` of every target that was measured
    (a figure over 1.0 in the last column misses its target)."""
    rows = []
    for name, target in TARGETS.items():
        if name in figures:
            rows.append((name, figures[name], target, figures[name] / target))
    return rows


def print_targets(figures: dict[str, float]) -> None:
    """A readable table of issue 12's targets, to stdout."""
    print(f"{'issue 12 target':34} {'value':>10} {'target':>8} {'/target':>8}  ")
    for name, value, target, share in target_rows(figures):
        verdict = "ok" if share <= 1.0 else "MISSED"
        print(f"{name:34} {value:10.2f} {target:8.1f} {share:8.2f}  {verdict}")


def main(argv: list[str] | None = None) -> int:
    """Run the scale benchmarks; print the targets table, then one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k only, fewer samples")
    parser.add_argument("--no-cli", action="store_true", help="skip the cold CLI at 10k users")
    parser.add_argument("--no-store", action="store_true",
                        help="skip the gate, recall and check-up figures")  # fmt: skip
    parser.add_argument("--cli-data", type=Path, default=None,
                        help="keep the 10k-user data directory here between runs")  # fmt: skip
    args = parser.parse_args(argv)
    figures: dict[str, float] = {} if args.no_store else bench_store(args.quick)
    if not args.no_cli:
        figures.update(run_cli(args.quick, args.cli_data))
    figures.update(ratios(figures))
    for key in sorted(figures):
        print(f"{key:42} {figures[key]:12.3f}")
    print_targets(figures)
    print(json.dumps({k: round(v, 4) for k, v in figures.items()}))
    return 0


def run_cli(quick: bool, data: Path | None) -> dict[str, float]:
    """The cold CLI figures, in ``data`` (kept) or a temporary directory."""
    runs = {"runs": 5, "stopped_runs": 3 if quick else 5}
    if data is not None:
        return bench_cli_cold(data, **runs)
    with tempfile.TemporaryDirectory(prefix="penchant-cli-", dir="/tmp") as home:
        return bench_cli_cold(Path(home), **runs)


if __name__ == "__main__":
    raise SystemExit(main())

"""LayeredMap behaves as an independent dict per copy, whatever the order of changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from penchant.memory.core.layered_map import MIN_FLATTEN, LayeredMap, flatten_threshold

KEYS = st.integers(0, 40)
CHANGE = st.tuples(st.sampled_from(["set", "delete", "copy"]), KEYS, st.integers())


@settings(max_examples=200, deadline=None)
@given(st.lists(CHANGE, max_size=300))
def test_every_copy_reads_like_its_own_dict(changes: list[tuple[str, int, int]]) -> None:
    maps: list[tuple[LayeredMap[int, int], dict[int, int]]] = [(LayeredMap(), {})]
    for n, (what, key, value) in enumerate(changes):
        layered, plain = maps[n % len(maps)]
        if what == "set":
            layered.set(key, value)
            plain[key] = value
        elif what == "delete":
            layered.delete(key)
            plain.pop(key, None)
        else:
            maps.append((layered.copy(), dict(plain)))
    for layered, plain in maps:
        assert dict(layered.items()) == plain
        assert len(layered) == len(plain) and sorted(layered) == sorted(plain)
        assert all(layered.get(k) == plain.get(k) and (k in layered) == (k in plain)
                   for k in range(41))


def test_copy_does_not_see_later_changes_of_the_original() -> None:
    original = LayeredMap({"a": 1, "b": 2})
    copy = original.copy()
    original.set("a", 10)
    original.delete("b")
    copy.set("c", 3)
    assert dict(original.items()) == {"a": 10}
    assert dict(copy.items()) == {"a": 1, "b": 2, "c": 3}


def test_many_changes_after_a_copy_are_folded_into_a_new_base() -> None:
    shared = LayeredMap({i: i for i in range(10_000)})
    copy = shared.copy()
    for i in range(flatten_threshold(10_000) + 1):
        copy.set(-i - 1, i)
    assert len(copy._top) < MIN_FLATTEN  # folded: later copies stay cheap
    assert copy._base is not shared._base and len(shared) == 10_000
    assert len(copy) == 10_000 + flatten_threshold(10_000) + 1


def test_flatten_threshold_grows_with_the_square_root() -> None:
    assert flatten_threshold(0) == MIN_FLATTEN
    assert flatten_threshold(10_000) == 400
    assert flatten_threshold(1_000_000) == 4_000

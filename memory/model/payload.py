"""Bounds on a history payload's shape, checked without recursion."""

from __future__ import annotations

from typing import Any

MAX_PAYLOAD_DEPTH = 32
"""Deepest nesting of lists and objects in a history payload (a real one is 2 or 3 deep)."""


def payload_depth(payload: Any, *, limit: int = MAX_PAYLOAD_DEPTH) -> int:
    """How deeply ``payload`` nests lists and dicts, counted without recursion; counting
    stops at ``limit + 1`` (so a payload nested 100,000 deep costs no more than one at the
    limit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(payload, 1)]
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, dict | list | tuple):
            continue
        deepest = max(deepest, depth)
        if depth > limit:
            return depth
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children)
    return deepest


__all__ = ["MAX_PAYLOAD_DEPTH", "payload_depth"]

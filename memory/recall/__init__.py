"""Recall and injection: which stored preferences a turn gets, within a token budget."""
from .engine import Recaller, RecallResult

__all__ = [
    "RecallResult",
    "Recaller",
]

"""Penchant tui."""

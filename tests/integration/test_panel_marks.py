"""The memory panel and ``penchant prefs`` show slots and protected preferences."""

from __future__ import annotations

from penchant.memory import Memory, PreferenceCandidate
from penchant.memory.model.records import Preference
from penchant.tui.widgets import preferences_text

from conftest import CliRunner


def test_panel_marks_an_allergy_and_names_a_slot() -> None:
    allergy = Preference(user_id="u", content="allergic to shrimp", polarity="dislike",
                         keywords=["shrimp"], protected=True)
    author = Preference(user_id="u", content="favourite author is Ted Chiang", polarity="like",
                        keywords=["ted chiang"], slot="favorite author")
    plain = preferences_text([allergy, author]).plain
    assert "[allergy] allergic to shrimp" in plain
    assert "favourite author is Ted Chiang (favorite author)" in plain


def test_prefs_text_names_slot_and_protection(
    cli: CliRunner, memory: Memory, cli_env: dict[str, str]
) -> None:
    memory.remember("u", PreferenceCandidate(content="allergic to sesame", polarity="dislike"))
    memory.remember("u", PreferenceCandidate(content="favourite band is Blur", polarity="like",
                                             keywords=["blur"], slot="favourite band"))
    proc = cli(["prefs", "--user", "u"], cli_env)
    assert proc.returncode == 0, proc.stderr
    assert "protected" in next(line for line in proc.stdout.splitlines() if "sesame" in line)
    assert "slot favorite band" in next(line for line in proc.stdout.splitlines() if "Blur" in line)


def test_status_bar_names_every_part_of_a_fused_embedder() -> None:
    from penchant.tui.app import short_name

    fused = "google/universal-sentence-encoder-multilingual-3+intfloat/multilingual-e5-small"
    assert short_name(fused) == "universal-sentence-encoder-multilingual-3+multilingual-e5-small"
    assert short_name("sentence-transformers/all-MiniLM-L6-v2") == "all-MiniLM-L6-v2"

"""The chat's slash commands and panel reads (``penchant.tui.commands``) over a real
``AsyncMemory`` on the test Redis, without a screen."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from penchant.memory import AsyncMemory, Memory, PreferenceCandidate, Settings
from penchant.memory.embeddings import HashEmbedder
from penchant.memory.model.errors import InvalidInputError
from penchant.memory.services.checkup import run_checkup
from penchant.tui.commands import (
    LISTED_CHANGES,
    PANEL_HISTORY,
    SlashCommand,
    parse_command,
    read_panel,
    read_transcript,
    run_memory_command,
    thread_id_for,
)

from conftest import async_client

USER = "ana"
WOOL = PreferenceCandidate(content="likes wool", polarity="like", keywords=["wool"],
                           category="material")
PLASTIC = PreferenceCandidate(content="no plastic", polarity="dislike", keywords=["plastic"],
                              category="material")


@pytest.fixture
async def amemory(memory: Memory, redis_url: str, settings: Settings) -> AsyncIterator[
    AsyncMemory
]:
    client = async_client(redis_url)
    yield AsyncMemory(client, settings=settings, embedder=HashEmbedder())
    await client.aclose()


async def test_forget_removes_the_match_from_redis_and_lists_it(
    memory: Memory, amemory: AsyncMemory
) -> None:
    memory.remember(USER, [WOOL, PLASTIC])
    outcome = await run_memory_command(amemory, parse_command("/forget wool"), USER)
    assert [p.content for p in memory.preferences(USER)] == ["no plastic"]
    assert outcome.note == "**Forgot 1 preference**\n\n- like: likes wool"
    assert outcome.changes is not None
    assert [p["content"] for p in outcome.changes["removed"]] == ["likes wool"]


async def test_forget_without_a_match_removes_nothing_and_says_so(
    memory: Memory, amemory: AsyncMemory
) -> None:
    memory.remember(USER, WOOL)
    outcome = await run_memory_command(amemory, parse_command("/forget velvet"), USER)
    assert outcome.note == "Nothing matched 'velvet'; no preference was removed."
    assert [p.content for p in memory.preferences(USER)] == ["likes wool"]


async def test_prefs_lists_likes_then_dislikes_with_keywords(
    memory: Memory, amemory: AsyncMemory
) -> None:
    memory.remember(USER, [PLASTIC, WOOL])
    outcome = await run_memory_command(amemory, parse_command("/prefs"), USER)
    assert outcome.note.splitlines()[2:] == [
        "- like: likes wool (wool)",
        "- dislike: no plastic (plastic)",
    ]
    assert outcome.changes is None


async def test_prefs_of_a_new_user_invites_a_statement(amemory: AsyncMemory) -> None:
    outcome = await run_memory_command(amemory, parse_command("/prefs"), "newcomer")
    assert outcome.note.startswith("No preferences stored yet.")


async def test_changes_lists_the_newest_change_first(
    memory: Memory, amemory: AsyncMemory
) -> None:
    memory.remember(USER, WOOL)
    memory.remember(USER, PLASTIC)
    memory.forget(USER, "wool")
    outcome = await run_memory_command(amemory, parse_command("/changes"), USER)
    lines = outcome.note.splitlines()[2:]
    assert "**forgotten**" in lines[0] and "text is erased" in lines[0]
    assert "**created**" in lines[1] and "no plastic" in lines[1]
    assert "wool" not in outcome.note  # the forget scrubbed wool's own events
    assert len(lines) <= LISTED_CHANGES


async def test_screen_commands_are_not_memory_commands(amemory: AsyncMemory) -> None:
    with pytest.raises(InvalidInputError, match=r"/clear is not a memory command"):
        await run_memory_command(amemory, SlashCommand("clear"), USER)


async def test_panel_reads_preferences_recent_history_and_open_flags(
    memory: Memory, amemory: AsyncMemory
) -> None:
    memory.remember(USER, [
        PreferenceCandidate(content="likes leather jackets", polarity="like",
                            keywords=["leather", "jacket"], category="style"),
        PreferenceCandidate(content="avoids animal products", polarity="dislike",
                            keywords=["animal product"], category="other"),
    ])
    assert run_checkup(memory, USER).flags
    panel = await read_panel(amemory, USER)
    assert panel.user_id == USER
    assert panel.preferences == memory.preferences(USER)
    assert panel.flags == memory.flags(USER) and panel.flags
    assert panel.history == memory.history(USER, PANEL_HISTORY)


async def test_transcript_shows_the_thread_oldest_first_under_a_heading(
    memory: Memory, amemory: AsyncMemory
) -> None:
    memory.append_transcript(USER, thread_id_for(USER), "user", "I love wool")
    memory.append_transcript(USER, thread_id_for(USER), "assistant", "Noted: wool.")
    memory.append_transcript(USER, "another-thread", "user", "not this one")
    transcript = await read_transcript(amemory, USER)
    assert transcript.chat_entries() == [
        ("note", "Previous conversation in thread `chat-ana` (2 messages):"),
        ("user", "I love wool"),
        ("assistant", "Noted: wool."),
    ]


async def test_transcript_of_a_new_thread_shows_nothing(amemory: AsyncMemory) -> None:
    assert (await read_transcript(amemory, "newcomer")).chat_entries() == []

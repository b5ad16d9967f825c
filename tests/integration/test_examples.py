"""The examples, run by the suite: their entry points on the test Redis, and as scripts."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from penchant.memory import Memory

from conftest import REPO

pytestmark = pytest.mark.model  # the examples run on the real default embedder (USE)

EXAMPLES = REPO / "examples"
FORBIDDEN_TAGS = {"plastic", "塑料", "peanut", "花生", "cilantro", "香菜", "spicy", "辣"}
"""Tags of everything the shopping demo's user dislikes."""


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` (the folder is not a package)."""
    path = EXAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"penchant_example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shopping() -> Iterator[ModuleType]:
    yield load_example("shopping_bot")


@pytest.fixture
def real_memory(
    memory: Memory, redis_client: Any, settings: Any, use_embedder: Any
) -> Iterator[Memory]:
    """A memory on the real default embedder (USE): the examples' behaviour is about relevance.

    Requests ``memory`` first so that its clean keyspace is in place."""
    with Memory(redis_client, settings=settings, embedder=use_embedder) as real:
        yield real


def quiet(_: str) -> None:
    """An ``out`` that prints nothing."""


# -- shopping bot ---------------------------------------------------------------------------------


def test_the_catalogue_is_varied_data(shopping: ModuleType) -> None:
    products = shopping.load_catalogue()
    assert len(products) >= 50
    assert len({p.id for p in products}) == len(products)
    assert len({p.category for p in products}) >= 8
    assert all(p.name and p.tags and p.price > 0 for p in products)


def test_the_scripted_session_never_shows_a_disliked_product(
    shopping: ModuleType, real_memory: Memory
) -> None:
    results = shopping.run(real_memory, "shopper", out=quiet)
    shown = [r.product for result in results for r in result.shown]
    assert shown
    for product in shown:
        assert not FORBIDDEN_TAGS & set(product.tags), product
        assert "plastic " not in f"{product.name.lower()} "
    minding = {r.query: r.minding for r in results}
    assert minding["lunch box"][0] == "allergic to peanuts"  # protected: always, first
    assert "dislikes plastic" in minding["lunch box"]
    assert "likes wool sweaters" not in minding["lunch box"]
    excluded = {p.id for result in results for p, _ in result.excluded}
    assert {"bottle-02", "food-03", "food-04", "food-08", "home-04", "kitchen-11"} <= excluded


def test_a_lunch_box_search_minds_the_plastic_dislike(
    shopping: ModuleType, real_memory: Memory
) -> None:
    bot = shopping.ShoppingBot(real_memory, "shopper")
    bot.tell("I don't like plastic.")
    bot.tell("I love jazz.")
    result = bot.search("lunch box")
    assert result.minding == ["dislikes plastic"]
    assert [r.product.id for r in result.shown] == ["kitchen-12"]
    assert [p.id for p, _ in result.excluded] == ["kitchen-11"]


def test_a_chinese_dislike_filters_products_tagged_in_chinese(
    shopping: ModuleType, real_memory: Memory
) -> None:
    bot = shopping.ShoppingBot(real_memory, "shopper")
    bot.tell("我不喜欢辣的食物。")
    result = bot.search("food", limit=50)
    assert {"food-04", "food-10", "food-14"} <= {p.id for p, _ in result.excluded}
    assert not any("辣" in r.product.tags for r in result.shown)


def test_a_plastic_dislike_keeps_plastic_free_products(
    shopping: ModuleType, real_memory: Memory
) -> None:
    bot = shopping.ShoppingBot(real_memory, "shopper")
    bot.tell("I don't like plastic.")
    shown = {r.product.id for r in bot.search("bathroom").shown}
    assert "home-06" in shown  # bamboo toothbrushes, tagged plastic-free
    assert "home-04" not in shown  # plastic shower curtain


def test_a_like_ranks_its_products_first(shopping: ModuleType, real_memory: Memory) -> None:
    bot = shopping.ShoppingBot(real_memory, "shopper")
    before = [r.product.id for r in bot.search("water bottle").shown]
    bot.tell("I love bamboo.")
    after = bot.search("water bottle").shown
    assert before[0] != "bottle-03"
    assert after[0].product.id == "bottle-03" and after[0].liked_because == ["likes bamboo"]


def test_searches_and_choices_are_history_not_preferences(
    shopping: ModuleType, real_memory: Memory
) -> None:
    shopping.run(real_memory, "shopper", statements=[], searches=["sweater"], out=quiet)
    kinds = [s.kind for s in real_memory.history("shopper")]
    assert kinds == ["choice", "search"]
    assert real_memory.history("shopper")[0].payload["product_id"] == "cloth-01"
    assert real_memory.preferences("shopper") == []


# -- assistant bot --------------------------------------------------------------------------------


def test_the_assistant_flips_forgets_and_honours_dislikes(memory: Memory) -> None:
    assistant = load_example("assistant_bot")
    log = assistant.run(memory, "helper", out=quiet)
    replies = {text: reply for text, reply, _ in log}
    assert "avoid mushrooms" in replies["Can you suggest a dinner recipe for my guests?"]
    prefs = {(p.polarity, p.content) for p in memory.preferences("helper")}
    assert ("like", "likes mushrooms") in prefs
    assert ("dislike", "dislikes mushrooms") not in prefs
    assert not any("loud" in content for _, content in prefs)  # /forget removed it


def test_the_assistants_chinese_turns_find_english_preferences_and_back(
    redis_client: Any, settings: Any, use_embedder: Any
) -> None:
    assistant = load_example("assistant_bot")
    with Memory(redis_client, settings=settings, embedder=use_embedder) as memory:
        log = assistant.run(memory, "bilingual", out=quiet)
    replies = {text: reply for text, reply, _ in log}
    # an English dislike found by a Chinese request, and a Chinese one by an English request
    assert "loud restaurants" in replies["给我推荐一家餐厅吧。"]
    assert "香菜" in replies["Can you suggest a soup recipe?"]


# -- embedding in other graphs --------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_each_embedding_recalls_and_captures(real_memory: Memory) -> None:
    memory = real_memory
    embed = load_example("embed_in_graph")
    states: dict[str, Any] = embed.run(memory, "embedder", out=quiet)
    assert "Avoiding: dislikes plastic" in states["host_graph"]["messages"][-1].content
    assert states["subgraph"]["messages"][-1].content == "Saved: you love linen."
    assert "allergic to peanuts" in states["prebuilt"]["messages"][-1].content
    contents = {p.content for p in memory.preferences("embedder")}
    assert contents == {"dislikes plastic", "I love linen", "allergic to peanuts"}


# -- as scripts -----------------------------------------------------------------------------------


PROMISED = {
    "shopping_bot": r"search: lunch box\n  minding: allergic to peanuts;[^\n]* dislikes plastic",
    "assistant_bot": r"avoid mushrooms",
    "embed_in_graph": r"Which lunch box should I buy\?\nassistant> Avoiding: dislikes plastic",
}
"""What each example's docstring promises, as its output prints it on the default install."""


@pytest.mark.parametrize("name", ["shopping_bot", "assistant_bot", "embed_in_graph"])
def test_each_example_runs_as_a_script(name: str, memory: Memory, cli_env: dict[str, str]) -> None:
    env = {k: v for k, v in cli_env.items() if k != "PENCHANT_EMBEDDINGS"}  # the default model
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / f"{name}.py"), "--user", f"script-{name}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(PROMISED[name], done.stdout), done.stdout
    assert memory.preferences(f"script-{name}")


def test_the_shopping_script_leaves_its_history_in_redis(
    memory: Memory, cli_env: dict[str, str]
) -> None:
    args = ["--user", "cli-shopper", "--tell", "I don't like leather.", "--search", "sofa"]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "shopping_bot.py"), *args],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "filtered out: Leather three-seat sofa" in done.stdout
    history = memory.history("cli-shopper")
    assert [s.kind for s in history] == ["choice", "search"]
    assert history[1].payload["excluded"] == ["furn-05"]

"""The ``reflect`` tool: the agent asks Penchant to reason over the user's memory.

Model-visible arguments: ``question`` and the CARA disposition (``skepticism``,
``literalism``, ``empathy``, each 1–5, default 3; Hindsight: "Hindsight: agent memory that
retains, recalls, and reflects", 2025). The user id comes from the run's config, never from
the model. The tool returns ``(text, artifact)``: the answer and the stored observations as
text (plus one line per malformed item dropped from the model's output), and reflect's JSON
contract (``{"answer", "observations", "used", "dropped", "rejected"}``) as the artifact.
Errors are raised and become tool messages through
:func:`~penchant.tools.preference_tools.tool_error_message`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from penchant.memory import Disposition
from penchant.memory import reflect as reflect_on_memory

from .preference_tools import user_id_from_config

if TYPE_CHECKING:
    from penchant.memory import Memory, ReflectModel

REFLECT_TOOL = "reflect"

_REFLECT_DESCRIPTION = (
    "Think over everything the memory knows about the user to answer a question about them "
    "(e.g. 'what kind of gift would they like?', 'what materials do they avoid?'). Returns an "
    "answer drawn from their stored preferences, history and earlier observations, and may "
    "record new observations (short conclusions about the user, with a confidence). Use it "
    "for questions that need several preferences together, not to look up one preference "
    "(use recall_memory for that). Disposition, each 1-5: skepticism (how much evidence a "
    "conclusion needs), literalism (how literally to read the question), empathy (how much "
    "to weigh the user's feelings)."
)


class ReflectArgs(BaseModel):
    """Arguments of ``reflect``."""

    question: str = Field(description="The question about the user, e.g. 'what gift?'.")
    skepticism: int = Field(default=3, ge=1, le=5, description="1 trusting … 5 skeptical.")
    literalism: int = Field(default=3, ge=1, le=5, description="1 loose … 5 literal.")
    empathy: int = Field(default=3, ge=1, le=5, description="1 matter-of-fact … 5 warm.")


def make_reflect_tool(memory: Memory, model: ReflectModel | None = None) -> BaseTool:
    """Build the ``reflect`` tool bound to one :class:`Memory`.

    Args:
        memory: The memory (borrowed, never closed).
        model: The reflect model; ``None`` answers with the deterministic offline reflect.
    """

    def reflect(
        question: str,
        config: RunnableConfig,
        skepticism: int = 3,
        literalism: int = 3,
        empathy: int = 3,
    ) -> tuple[str, dict[str, Any]]:
        disposition = Disposition.of(skepticism, literalism, empathy)
        result = reflect_on_memory(memory, user_id_from_config(config), question, disposition,
                                   model)  # fmt: skip
        lines = [result.answer]
        lines += [
            f"observation (confidence {o.confidence:.2f}): {o.content}"
            for o in result.observations
        ]
        lines += result.notes()  # malformed items dropped, proposals the gate refused
        return "\n".join(lines), result.public_dict()

    return StructuredTool.from_function(
        func=reflect,
        name=REFLECT_TOOL,
        description=_REFLECT_DESCRIPTION,
        args_schema=ReflectArgs,
        response_format="content_and_artifact",
        infer_schema=False,
    )


__all__ = ["REFLECT_TOOL", "ReflectArgs", "make_reflect_tool"]

"""One structured-output call whose reply is decoded, not validated, so one bad item cannot
sink the rest.

LangChain's ``with_structured_output(SomePydanticModel)`` validates the whole reply at once:
one observation without ``sources`` and every other item is lost too (with ``ChatOpenAI``'s
``json_schema`` method the openai SDK even raises inside the call, taking the reply with it).
:class:`StructuredCall` instead sends the model the pydantic model's JSON schema as a plain
dict — the request is the same (``response_format`` ``json_schema`` for ``ChatOpenAI``, a
forced tool call for models that only have tools) — and returns the decoded JSON, which the
caller validates item by item (:func:`penchant.memory.services.reflect_prompt.keep_valid_items`).

Failures come out as Penchant errors: the endpoint failing as
:class:`~penchant.agent.models.ModelUnavailableError` (one line with the endpoint, the kind
and the fix), a reply that is no JSON at all as :class:`MalformedOutputError`.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from penchant.memory import PenchantError

from .models import ModelUnavailableError, describe_model_error

logger = logging.getLogger(__name__)


class MalformedOutputError(PenchantError):
    """The model answered, but its reply holds no JSON of the requested shape at all."""


def wire_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema the model is asked to fill: ``schema``'s, titled by its class name."""
    document = schema.model_json_schema()
    document["title"] = schema.__name__
    return document


class StructuredCall:
    """A chat model bound to fill one schema; :meth:`invoke` returns the decoded reply.

    Args:
        model: The chat model (borrowed).
        schema: The pydantic model whose JSON schema the reply must follow.
        method: ``with_structured_output`` method; ``None`` keeps the model's default
            (``json_schema`` for ``ChatOpenAI``, a tool call for other models).
    """

    def __init__(
        self, model: BaseChatModel, schema: type[BaseModel], *, method: str | None = None
    ) -> None:
        self.model = model
        self.schema = schema
        kwargs: dict[str, Any] = {"include_raw": True}
        if method is not None:
            kwargs["method"] = method
        self._runnable = model.with_structured_output(wire_schema(schema), **kwargs)

    def invoke(self, messages: Sequence[BaseMessage]) -> Any:
        """Make the call; return the reply's JSON (usually a dict), unvalidated.

        Raises:
            ModelUnavailableError: The call failed (unreachable, timeout, 429, 5xx, …).
            MalformedOutputError: The reply holds no JSON.
        """
        try:
            with warnings.catch_warnings():
                # langchain-openai's streamed structured output serialises the parsed reply
                # into a field typed None and pydantic warns; the result is unaffected.
                warnings.filterwarnings("ignore", "Pydantic serializer warnings", UserWarning)
                raw: Any = self._runnable.invoke(list(messages))
        except PenchantError:
            raise
        except Exception as exc:  # provider SDK errors of any kind
            failure = describe_model_error(exc, self.model)
            logger.info("%s call failed: %s", self.schema.__name__, failure.line(),
                        exc_info=exc if failure.kind == "failed" else None)
            raise ModelUnavailableError(failure) from exc
        error = raw.get("parsing_error") if isinstance(raw, dict) else None
        parsed = raw.get("parsed") if isinstance(raw, dict) else raw
        if error is not None or parsed is None:
            detail = " ".join(str(error or "no structured output in the reply").split())
            raise MalformedOutputError(
                f"the model's reply is not JSON for {self.schema.__name__} ({detail[:300]})"
            )
        return parsed


__all__ = ["MalformedOutputError", "StructuredCall", "wire_schema"]

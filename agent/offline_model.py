"""An offline, deterministic, rule-based chat model.

Used when no LLM is configured (neither ``OPENAI_BASE_URL`` nor
``OPENAI_API_KEY``). It is not a language model and says so: it reads the
``<user_preferences>`` block that the inject step put into the system prompt and
answers a few kinds of message from it — recommendation requests (avoiding
relevant dislikes, leaning toward likes), "what do you know about me", stated
preferences (acknowledged; the end-of-turn rule capture stores them), forget
requests, and anything needing the web or real-time information (declined). It
never calls tools: ``bind_tools`` only records the tool names so it can stand in
for a real model in the same graph.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from penchant.memory import has_han, strip_injected_blocks
from penchant.tools.prompt_blocks import ParsedPreferences, PreferenceLine, parse_preferences

from .messages import content_text

OFFLINE_MODEL_NAME = "penchant-offline"
MAX_LISTED = 8
"""Most preferences one offline answer lists."""

_ABOUT_ME_RE = re.compile(
    r"what (?:do|did) you (?:know|remember)|what are my (?:preferences|likes|dislikes)"
    r"|what do i (?:like|dislike|hate)|my preferences|about me\b"
    r"|你(?:知道|记得)(?:我|关于)|我的(?:偏好|喜好)|我喜欢什么|我不喜欢什么",
    re.IGNORECASE,
)
_REALTIME_RE = re.compile(
    r"\b(?:weather|news|headlines?|stock|exchange rate|score of|search (?:the )?(?:web|internet|"
    r"online)|google|browse|look (?:it )?up online|latest|right now|current(?:ly)?|today'?s|"
    r"tonight|live)\b|天气|新闻|股价|汇率|最新|上网|搜索",
    re.IGNORECASE,
)
_RECOMMEND_RE = re.compile(
    r"\b(?:recommend|suggest|suggestion|ideas? for|what should i|which (?:one|should)|"
    r"looking for|help me (?:choose|find|pick)|gift for|shopping for|want to buy|"
    r"need (?:a|an|some)|any good)\b|推荐|建议|买什么|吃什么|选什么",
    re.IGNORECASE,
)
_FORGET_RE = re.compile(r"\bforget\b|\bdelete my\b|\bremove my\b|忘记|忘掉|删除", re.IGNORECASE)
_STATEMENT_RE = re.compile(
    r"\bi(?:'m| am)? ?(?:(?:really|absolutely|just|also|still|truly|do) )*"
    r"(?:like|love|prefer|enjoy|adore|hate|dislike|detest|can'?t stand|"
    r"don'?t (?:like|want|eat|use)|do not (?:like|want)|avoid|"
    r"allergic to)\b|我(?:很|真|非常|特别|最)?(?:喜欢|爱|讨厌|不喜欢|不要|不吃|不用|过敏|偏爱)",
    re.IGNORECASE,
)
_LEADING_VERB_RE = re.compile(
    r"^\s*(?:i\s+|i'm\s+|i am\s+)?(?:really\s+)?(?:likes?|loves?|prefers?|enjoys?|hates?|"
    r"dislikes?|avoids?|detests?|can'?t stand|don'?t (?:like|want|eat|use)|do not (?:like|want)|"
    r"(?:is |am )?allergic to)\s+"
    r"|^\s*我?(?:很|真|非常|特别|最)?(?:喜欢|爱|讨厌|不喜欢|不要|不吃|不用|对)",
    re.IGNORECASE,
)
_GREETING_RE = re.compile(r"^\s*(?:hi|hello|hey|good (?:morning|evening)|你好|嗨)\b", re.I)
_TOPIC_RE = re.compile(
    r"(?:recommend|suggest|ideas? for|looking for|shopping for|want to buy|need|gift for)"
    r"\s+(?:me\s+)?(?:a |an |some |any )?(?P<topic>[^.?!,;]+)",
    re.IGNORECASE,
)

_EN = {
    "label": "[offline model] ",
    "empty": "I didn't receive a message. What can I help you with?",
    "about_none": "I don't have any preferences of yours stored yet. Tell me what you like or "
    "dislike and I'll remember it.",
    "about": "Here is what I have stored about your preferences:",
    "likes": "You like:",
    "dislikes": "You dislike:",
    "realtime": "I'm an offline rule-based model with no web access and no real-time "
    "information, so I can't look that up.",
    "recommend_intro": "I can't browse or search a catalogue, so I can't name specific "
    "products, but for {topic} here is how I'll apply what you've told me:",
    "avoid": "I'll avoid {what} (your stored preference: \u201c{content}\u201d).",
    "lean": "I'll lean toward {what} (your stored preference: \u201c{content}\u201d).",
    "recommend_none": "I don't have any stored preferences that bear on this yet; tell me what "
    "you like or dislike and I'll take it into account.",
    "statement": "Got it: you {verb} {what}. If it's a lasting preference, Penchant's memory "
    "stores it at the end of this turn; the memory changes show exactly what was kept.",
    "like_verb": "like",
    "dislike_verb": "dislike",
    "forget": "In offline mode I can't edit your memory from the conversation. Use the forget "
    "command (/forget WORDS in the chat, or `penchant forget --user ID WORDS`).",
    "greeting": "Hello! I'm Penchant's offline rule-based assistant: no LLM is configured, so I "
    "can't reason freely or browse, but I remember your likes and dislikes and apply them.",
    "fallback": "I'm Penchant's offline rule-based assistant (no LLM is configured; set "
    "OPENAI_BASE_URL for a local server such as Ollama, or OPENAI_API_KEY for OpenAI). I can "
    "remember your likes and dislikes, tell you what I know about you, and apply your "
    "preferences to recommendation requests.",
    "constraints_note": "Keeping in mind what you dislike here: {items}.",
    "tool": "Memory update: {content}",
}
_ZH = {
    "label": "[离线模型] ",
    "empty": "我没有收到消息。需要什么帮助？",
    "about_none": "我还没有记住你的任何偏好。告诉我你喜欢或不喜欢什么，我会记住。",
    "about": "我记住的你的偏好：",
    "likes": "你喜欢：",
    "dislikes": "你不喜欢：",
    "realtime": "我是离线的规则模型，不能上网，也没有实时信息，所以查不了这个。",
    "recommend_intro": "我不能上网或搜索商品目录，所以无法给出具体商品，"
    "但关于{topic}，我会这样考虑你的偏好：",
    "avoid": "我会避开{what}（你的偏好：“{content}”）。",
    "lean": "我会优先考虑{what}（你的偏好：“{content}”）。",
    "recommend_none": "我还没有和这件事相关的偏好记录；告诉我你的喜好，我会记住并考虑。",
    "statement": "明白了：你{verb}{what}。如果这是长期偏好，Penchant 会在本轮结束时记住它；"
    "记忆变化会显示实际保存了什么。",
    "like_verb": "喜欢",
    "dislike_verb": "不喜欢",
    "forget": "离线模式下我不能在对话中修改记忆。请使用忘记命令（聊天中输入 /forget 关键词，"
    "或 `penchant forget --user ID 关键词`）。",
    "greeting": "你好！我是 Penchant 的离线规则助手：没有配置大模型，不能自由推理或上网，"
    "但我会记住并运用你的喜好。",
    "fallback": "我是 Penchant 的离线规则助手"
    "（没有配置大模型；设置 OPENAI_BASE_URL 可使用本地服务（如 Ollama），"
    "设置 OPENAI_API_KEY 可使用 OpenAI）。"
    "我可以记住你的喜好、告诉你我知道什么，并在推荐时考虑你的偏好。",
    "constraints_note": "我会记得你不喜欢：{items}。",
    "tool": "记忆更新：{content}",
}



def _what(pref: PreferenceLine) -> str:
    """The object of a preference: its content without the leading verb, else its keywords."""
    match = _LEADING_VERB_RE.match(pref.content)
    if match and pref.content[match.end() :].strip(" .!。！"):
        return pref.content[match.end() :].strip(" .!。！")
    return " / ".join(pref.keywords) if pref.keywords else pref.content


def _strings(zh: bool) -> dict[str, str]:
    return _ZH if zh else _EN


def _list_known(prefs: ParsedPreferences, s: dict[str, str]) -> str:
    every = prefs.all()
    if not every:
        return s["about_none"]
    lines = [s["about"]]
    for polarity, header in (("like", s["likes"]), ("dislike", s["dislikes"])):
        chosen = [p for p in every if p.polarity == polarity][:MAX_LISTED]
        if chosen:
            lines.append(f"\n{header}")  # a blank line: Markdown would run it into the list
            lines.extend(f"- {p.content}" for p in chosen)
    return "\n".join(lines)


def _recommend(text: str, prefs: ParsedPreferences, s: dict[str, str], zh: bool) -> str:
    if not (prefs.avoid() or prefs.leanings):
        return s["recommend_none"]
    match = _TOPIC_RE.search(text)
    topic = match.group("topic").strip() if match else ("这个" if zh else "this")
    lines = [s["recommend_intro"].format(topic=topic)]
    lines += [s["avoid"].format(what=_what(p), content=p.content) for p in prefs.avoid()[:3]]
    lines += [s["lean"].format(what=_what(p), content=p.content) for p in prefs.leanings[:3]]
    return "\n".join(lines)


def _statement(text: str, s: dict[str, str]) -> str:
    match = _STATEMENT_RE.search(text)
    said = text[match.end() :] if match else text
    what = re.split(r"[.!?;。！？；\n]", said, maxsplit=1)[0].strip(" ,，") or text.strip()
    verb_text = match.group(0).lower() if match else ""
    negative = re.search(
        r"hate|dislike|detest|stand|don|not|avoid|allergic|讨厌|不|过敏", verb_text
    )
    verb = s["dislike_verb"] if negative else s["like_verb"]
    return s["statement"].format(verb=verb, what=what)


def _fallback(prefs: ParsedPreferences, s: dict[str, str]) -> str:
    if prefs.avoid():
        items = "; ".join(_what(p) for p in prefs.avoid()[:3])
        return s["fallback"] + "\n" + s["constraints_note"].format(items=items)
    return s["fallback"]


def offline_reply(messages: Sequence[BaseMessage]) -> str:
    """The offline model's deterministic answer to a conversation.

    Args:
        messages: The model input: system message(s) with Penchant's injected
            blocks, then the conversation.

    Returns:
        The reply text, starting with an ``[offline model]`` label.
    """
    context = "\n".join(content_text(m.content) for m in messages if isinstance(m, SystemMessage))
    prefs = parse_preferences(context)
    last = messages[-1] if messages else None
    if isinstance(last, ToolMessage):
        text = content_text(last.content)
        zh = has_han(text)
        return _strings(zh)["label"] + _strings(zh)["tool"].format(content=text)
    humans = [m for m in messages if isinstance(m, HumanMessage)]
    text = strip_injected_blocks(content_text(humans[-1].content)).strip() if humans else ""
    zh = has_han(text)
    s = _strings(zh)
    return s["label"] + _answer(text, prefs, s, zh)


def _answer(text: str, prefs: ParsedPreferences, s: dict[str, str], zh: bool) -> str:
    rules: list[tuple[Callable[[str], bool], Callable[[], str]]] = [
        (lambda t: not t, lambda: s["empty"]),
        (lambda t: bool(_ABOUT_ME_RE.search(t)), lambda: _list_known(prefs, s)),
        (lambda t: bool(_FORGET_RE.search(t)), lambda: s["forget"]),
        (lambda t: bool(_REALTIME_RE.search(t)), lambda: s["realtime"]),
        (lambda t: bool(_RECOMMEND_RE.search(t)), lambda: _recommend(text, prefs, s, zh)),
        (lambda t: bool(_STATEMENT_RE.search(t)), lambda: _statement(text, s)),
        (lambda t: bool(_GREETING_RE.search(t)), lambda: s["greeting"]),
    ]
    for applies, reply in rules:
        if applies(text):
            return reply()
    return _fallback(prefs, s)


class OfflineChatModel(BaseChatModel):
    """Penchant's offline, deterministic, rule-based chat model (no LLM, no network).

    Attributes:
        tool_names: Names of the tools bound with :meth:`bind_tools`; recorded
            only, the model never calls them.
    """

    tool_names: tuple[str, ...] = ()

    @property
    def _llm_type(self) -> str:
        return OFFLINE_MODEL_NAME

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": OFFLINE_MODEL_NAME, "offline": True}

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Return a copy that knows the tool names (it still never calls tools)."""
        names = tuple(convert_to_openai_tool(t)["function"]["name"] for t in tools)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = AIMessage(
            content=offline_reply(messages),
            response_metadata={"model_name": OFFLINE_MODEL_NAME, "offline": True},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        pieces = re.findall(r"\S+\s*|\s+", offline_reply(messages))
        for index, piece in enumerate(pieces):
            metadata = (
                {"model_name": OFFLINE_MODEL_NAME, "offline": True}
                if index == len(pieces) - 1
                else {}
            )
            chunk = ChatGenerationChunk(
                message=AIMessageChunk(content=piece, response_metadata=metadata)
            )
            if run_manager is not None:
                run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk


__all__ = ["OFFLINE_MODEL_NAME", "OfflineChatModel", "offline_reply"]

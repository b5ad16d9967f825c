"""What an injection looks like, kind by kind, for the gate's screen (DESIGN.md §6.1).

Every pattern runs on the *screening form* of a text
(:func:`penchant.memory.core.screen.screening_form`): NFKC, invisible characters removed, case
folded, look-alike letters folded to their UTS #39 prototypes, traditional Chinese
converted to simplified, whitespace collapsed.
So a pattern is written once, in lower-case ASCII or simplified Chinese, and also
catches ``ＩＧＮＯＲＥ``, ``ignοre`` (Greek omicron), ``ig\\u200bnore`` and ``無視以上規則``.

Kinds, each with the reason a rejection names:

- :data:`CHAT_TEMPLATE`: special tokens of chat templates — ChatML / Qwen / Phi
  (``<|im_start|>``, ``<|user|>``), Llama 3 (``<|start_header_id|>``, ``<|eot_id|>``),
  Llama 2 / Mistral (``[INST]``, ``<<SYS>>``, ``<s>``), Gemma (``<start_of_turn>``),
  Alpaca (``### Instruction:``), role tags (``<system>``) and ``Human:``/``Assistant:``
  turn markers.
- :data:`ROLE_HEADER`: a role named as a header (``## SYSTEM:``, ``system:`` at the start
  of the text or of a sentence, ``[system]``).
- :data:`OVERRIDE`: instruction-override phrases, en and zh (``ignore previous
  instructions``, ``无视以上所有规则``).
- :data:`PROMPT_LEAK`: asking for or naming the system prompt.
- :data:`NEW_IDENTITY`: giving the assistant a new role (``you are now``, ``pretend you are``).
- :data:`DIRECTIVE`: a directive addressed to the assistant or the system (``the assistant
  should…``, ``from now on you…``, ``reply only in…``).

A preference *about* answers ("prefers concise answers", "likes the Assistant Manager
role", "prefers step-by-step instructions in recipes") matches none of them: the patterns
need an imperative or modal aimed at the assistant, a template token, or an override verb
with an instruction object.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class InjectionKind(NamedTuple):
    """One kind of injection: what a rejection says, and the patterns that find it.

    ``triggers`` are substrings without one of which no pattern of the kind can
    match; the screen searches the patterns only when one is present (a substring
    test costs nanoseconds, an alternation of regexes microseconds).
    """

    reason: str
    patterns: re.Pattern[str]
    triggers: tuple[str, ...]

    def search(self, form: str) -> re.Match[str] | None:
        """The first match of the kind's patterns in a screening form, or ``None``."""
        if any(trigger in form for trigger in self.triggers):
            return self.patterns.search(form)
        return None


def _any(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


_ROLE = r"system|assistant|developer|human|user|ai|bot|model|tool"
_HEADER_ROLE = r"system|assistant|developer|human|user"
_BRACKET_ROLE = r"system|assistant|developer|sys"
_SENTENCE_START = r"(?:^|[.!?;:>\])}\"'|*#\-–—,]\s*)"
_AI_SUBJECT = r"(?:ai\s+)?(?:assistant|chatbot|ai|llm|language model|system|gpt|chatgpt)"
_MODAL = (
    r"must|should|shall|has to|have to|needs to|need to|is to|is required to|is instructed to|"
    r"will now|will always|will never|may only|can only|is not allowed to|must not|should not|"
    r"shouldn't|mustn't|ought to"
)
_SPEAK = r"reply|respond|answer|speak|talk|write|communicate|output"

CHAT_TEMPLATE = InjectionKind(
    "carries a chat-template token",
    _any(
        r"<\|[^|<>]{1,40}\|>",  # ChatML, Llama 3, Phi, Qwen, GPT special tokens
        # the same with look-alike bars, which UTS #39 folds to "l" (``‹∣im_start∣›``)
        r"<[|l](?:im_start|im_end|im_sep|endoftext|user|assistant|system|end|[a-z]+_[a-z_]+)[|l]>",
        r"\[/?(?:inst|sys|system|assistant|user|available_tools|tool_calls|tool_results)\]",
        r"<</?sys>>",
        r"</?s>",
        r"</?(?:start_of_turn|end_of_turn|bos|eos|eot|pad|unk|endoftext|sep|cls)>",
        rf"</?\s*(?:{_ROLE}|im_start|im_end|instruction|instructions|response|context)\s*/?>",
        r"(?:^|\s)#{1,6}\s*(?:instruction|instructions|response|input|human|assistant|user)\s*:",
        r"(?:^|\s)#{2,6}\s*(?:instruction|instructions|response)\b",
        rf"{_SENTENCE_START}(?:human|assistant)\s*:",
    ),
    ("<", "[", "#", "human", "assistant"),
)

ROLE_HEADER = InjectionKind(
    "carries a role header",
    _any(
        rf"(?:^|\s)#{{1,6}}\s*(?:{_HEADER_ROLE})\s*:",
        rf"{_SENTENCE_START}(?:{_HEADER_ROLE})\s*:",
        rf"[\[(]\s*(?:{_BRACKET_ROLE})\s*[\])]",
        rf"\b(?:system|assistant|developer|human)\s*:\s*(?:you|your|ignore|forget|disregard|"
        rf"from now|always|never|do not|don't|{_SPEAK}|act|pretend|new)\b",
        r"(?:^|[。！？；])\s*(?:系统|助手|用户)\s*[:：]",
    ),
    (":", "[", "(", "："),
)

OVERRIDE = InjectionKind(
    "tries to override the assistant's instructions",
    _any(
        r"\b(?:ignore|disregard|forget|override|bypass|discard|abandon|skip)\s+(?:\S+\s+){0,4}?"
        r"(?:previous|prior|above|earlier|preceding|all|your|system|initial|original|safety|"
        r"existing)\s+(?:\S+\s+){0,3}?(?:instructions?|prompts?|rules?|messages?|guidelines?|"
        r"directives?|constraints?|guardrails?|polic(?:y|ies)|programming|commands?|"
        r"restrictions?)\b",
        r"\bdisregard\b.{0,30}\b(?:above|before|previous|prior|earlier)\b",
        r"\bnew instructions?\s*:",
        r"\b(?:jailbreak|jailbroken|developer mode|dan mode|god mode)\b",
        r"(?:忽略|无视|不要理会|不理会|别理会|忘记|忘掉|忘了|抛开|抛弃|放弃|跳过|绕过|覆盖|不要遵守|不再遵守"
        r"|停止遵守).{0,10}?(?:之前|以上|上面|上述|所有|先前|前面|此前|一切|全部|你的|系统|原有|原来|原先)"
        r".{0,10}?(?:指令|指示|提示|规则|内容|设定|要求|约束|限制|命令|规定|说明|设置)",
    ),
    (
        "ignore", "disregard", "forget", "override", "bypass", "discard", "abandon", "skip",
        "instruction", "jailbr", "mode",
        "忽略", "无视", "理会", "忘", "抛", "放弃", "跳过", "绕过", "覆盖", "遵守",
    ),
)

PROMPT_LEAK = InjectionKind(
    "asks for the system prompt",
    _any(
        r"\bsystem\s*prompts?\b",
        r"\b(?:reveal|print|show|repeat|leak|output|display|dump)\b.{0,30}\b(?:your instructions|"
        r"your prompt|hidden prompt|initial prompt|your rules|hidden instructions)\b",
        r"系统提示",
    ),
    ("prompt", "instructions", "rules", "系统提示"),
)

NEW_IDENTITY = InjectionKind(
    "tries to give the assistant a new role",
    _any(
        r"\byou are (?:now|no longer)\b",
        r"\byou (?:have no|no longer have) (?:rules|restrictions|limits|guidelines|filters)\b",
        r"\bpretend (?:that )?you are\b",
        r"\bact as (?:an?|the|my) (?:ai|assistant|system|developer|unrestricted|jailbroken)\b",
        r"你现在是",
        r"假装你是",
    ),
    ("you", "act as", "你现在是", "假装你是"),
)

DIRECTIVE = InjectionKind(
    "is a directive to the assistant, not a preference",
    _any(
        rf"(?:^|[.!?;:,]\s*|\b(?:the|this|our|my|your)\s+){_AI_SUBJECT}\s+(?:{_MODAL})\b",
        r"\b(?:from now on|from this point on|from here on|henceforth|going forward|starting now)"
        rf"\b[,:]?\s*(?:please\s+)?(?:the\s+)?(?:you|your|{_AI_SUBJECT}|(?:always\s+|only\s+)?"
        rf"(?:{_SPEAK}))\b",
        rf"(?:^|[.!?;:,]\s*|\b(?:you|please|now)\s+)(?:only\s+)?"
        rf"(?:{_SPEAK})\s+(?:only|exclusively|solely)\s+(?:in|with|as|using)\b",
        r"\byou\s+(?:must|shall|will|are to|have to|need to|should)\s+(?:now\s+)?(?:obey|comply|"
        r"ignore|forget|disregard|reply only|respond only|answer only|speak only|act as|pretend|"
        r"roleplay|reveal|print|repeat|follow (?:my|these|the following|new))\b",
        r"(?:助手|ai|人工智能)\s*(?:必须|应该|应当|只能|务必|一定要|不得|不许|不准)",
        r"(?:只|仅)(?:能|可以|许)?(?:用|以|使用).{0,10}?(?:回复|回覆|回答|回应)",
        r"从现在(?:开始|起).{0,6}?(?:你|助手|回复|回覆|回答)",
        r"你(?:必须|务必|一定要|应该)?(?:服从|遵守|听从)(?:我|新的|以下)",
    ),
    (
        "assistant", "chatbot", "ai", "llm", "language model", "system", "gpt", "from ",
        "henceforth", "going forward", "starting now", "reply", "respond", "answer", "speak",
        "talk", "write", "communicate", "output", "you",
        "助手", "人工智能", "只", "仅", "从现在", "服从", "遵守", "听从",
    ),
)

INJECTION_KINDS: tuple[InjectionKind, ...] = (
    CHAT_TEMPLATE,
    ROLE_HEADER,
    OVERRIDE,
    PROMPT_LEAK,
    NEW_IDENTITY,
    DIRECTIVE,
)
"""Every kind, in the order the screen tries them (the most specific first)."""

__all__ = [
    "CHAT_TEMPLATE",
    "DIRECTIVE",
    "INJECTION_KINDS",
    "NEW_IDENTITY",
    "OVERRIDE",
    "PROMPT_LEAK",
    "ROLE_HEADER",
    "InjectionKind",
]

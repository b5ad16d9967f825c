"""The object of a Chinese clause that no rule reads (the statement head's reading).

The topic the clause opens with, the segmenter's first noun phrase, a topic fronted before
the speaker, or what is left when the words of stance, time and degree are taken out
(:func:`pull_object_zh`); the bound head of a compound the segmenter cut off is put back
(``螺蛳粉真香了`` → ``螺蛳粉``, not ``螺蛳``). The English counterpart is
:func:`~.kinds.pull_object_en`.
"""

from __future__ import annotations

import re

from .clauses import ZH_PAST_RE
from .lexicons import ZH_ASPECT_HEAD_RE, ZH_BOUND_HEADS
from .segment import FUNCTION_TAGS, NOUN_TAGS, dictionary_tag, noun_runs, tag
from .zh_subjects import person_word

_ZH_FILLER_RE = re.compile(
    r"^(?:说实话|对了|跟你说|其实|嗯|哦|啊|老实说|顺便说一下|顺便说|好吧|现在|最近|如今|目前|我|对|"
    r"没想到|想不到|没料到|这个?人|(?i:and|but|so|also|plus|or|then)\s|"
    r"[，,、\s])+"
)
_ZH_SINCE_RES = tuple(
    re.compile(r"^(?P<topic>[^，,。！？\s]{0,8}?)(?:自从|自打|打从)[^，,。！？]{1,20}?" + end)
    for end in (r"(?:以后|之后|以来|后|起)[，,]?", r"[，,]", r"(?=我|就)")
)
"""Since when, before the main clause (``自从去年体检后我就没喝过可乐``, ``自从生了孩子我就…``),
after a topic or not (``烧烤自从查出尿酸高就断了``): tried in turn, the ending word first, then a
comma, then where the user or ``就`` begins the main clause."""
_ZH_TOPIC_RE = re.compile(r"^(?P<obj>[^我，。！？,!?\s]{1,12}?)(?:我|对我|已经|早就|现在)")
_ZH_STANCE_RE = re.compile(
    r"我|已经|早就|再也|不再|一点也|一点都|越来越|现在|最近|如今|开始|慢慢|终于|彻底|完全|根本|"
    r"不想|不要|不爱|不喜欢|喜欢上|喜欢|爱上|爱|讨厌|受不了|厌倦|腻|戒掉|戒|放弃|告别|失去|兴趣|"
    r"没有|没|不|了|的|很|挺|太|都|就|也|还|真的|真|对|把|被|和|说再见|再见|碰|吃|喝|看|玩|用|听|"
    r"穿|读|打|练|逛|去|再|又|吗|呢|吧|啊|呀|欣赏|实在|真心|简直|全(?=戒|都|不|没)|"
    r"[，。！？,.!?、\s]"
)


_ZH_REACTIONS = frozenset(
    "好的 不错 太棒 好主意 谢谢 厉害 可以 行吧 没问题 主意 恐怕 也许 可能 大概 应该".split()
)


_ZH_STANCE_VERBS = frozenset(
    "喜欢 喜欢上 爱 爱上 讨厌 嫌弃 受不了 厌倦 放弃 告别 不喜欢 不爱".split()
)
"""Verbs of stance: never a modifier of the noun after them (``嫌弃苦瓜`` is no topic)."""
_ZH_STANCE_SPLIT_RE = re.compile(f"({_ZH_STANCE_RE.pattern})")
""":data:`_ZH_STANCE_RE` as a split that keeps the stance words (odd items)."""
_ZH_CONSUMED_BY = frozenset("吃 喝 看 玩 用 听 穿 读 逛".split())
"""Verbs of use: what follows one (up to the next stance word) is the object."""


_ZH_USED_BEFORE_RE = re.compile(r"^[吃喝看玩用听穿读逛抽坐打碰买试](?:过|了)(?=..)")
"""A verb of use and its aspect glued to what follows (``三年没抽过烟``: 抽过/v): no part of the
object."""


def _aspect_led(run: str) -> str:
    """A noun run without the aspect particle the segmenter glued to its front (``没喝过瑞幸``:
    过瑞幸/nr), unless the whole run is a word of the dictionary (``过山车``, ``过桥米线``)."""
    if len(run) > 2 and run[0] in "过了着" and len(dictionary_tag(run)) > 1:
        return run[1:]
    return run


def _names_more(run: str) -> bool:
    """Whether a noun run is more than a stance word with a character after it (``太棒``,
    ``真香``, ``太贵`` are not objects; ``真人秀`` is)."""
    run = run.rstrip("了的啊呀吧")
    lead = _ZH_STANCE_RE.match(run)
    return lead is None or len(run) - lead.end() >= 2


_ZH_COMMENT_WORDS = frozenset(
    "是 我 你 他 她 它 我们 都 也 就 还 真 太 超 最 好 很 挺 能 会 要 想 简直 真是 一 这 那 "
    "这个 那个 着 了 的 地 得 过".split()
)
"""Words that open the comment of a topic-comment clause: the topic ends before one."""
_ZH_OPINION_LEAD_RE = re.compile(
    f"^(?:{ZH_PAST_RE.pattern}|原本|一度)?我?(?:一直|总|还)?(?:觉得|感觉|认为|以为|嫌(?!弃))"
)
"""``以前觉得甜甜圈是天堂``: what was thought of is the topic, after the verb of opinion."""
_ZH_COMMENT_TAGS = (*FUNCTION_TAGS, "r", "x")
"""Tags that open a comment: function words (:data:`~.segment.FUNCTION_TAGS`), pronouns and
punctuation."""


def _leading_topic_zh(text: str) -> str | None:
    """The topic a Chinese clause opens with, up to where its comment starts (``翻拍剧毁经典``
    → ``翻拍剧``, ``预制菜吃着没灵魂`` → ``预制菜``, ``年会表演简直是公开处刑`` → ``年会表演``):
    nouns, and a verb or adjective that modifies the noun after it (or names an activity
    with its object: ``整理房间``), by the dictionary's words (:func:`dictionary_tag`); None
    when that is under two characters or tells a time (``年轻时``)."""
    found = ""
    unled = _ZH_OPINION_LEAD_RE.sub("", text)
    words = dictionary_tag(unled)
    for i, (word, flag) in enumerate(words):
        after, after_flag = words[i + 1] if i + 1 < len(words) else ("", "x")
        if not found and (flag == "t" or ZH_PAST_RE.fullmatch(word)):
            continue  # 春天踏青是…, 以前逛街能逛一天: the time before the topic
        whose = word == "的" and found and after_flag[0] in "nbjz" and (  # 周杰伦的歌
            not ZH_ASPECT_HEAD_RE.fullmatch(after))
        if (word in _ZH_COMMENT_WORDS or flag.startswith(_ZH_COMMENT_TAGS)) and not whose:
            break
        set_phrase = flag in ("l", "i") and i == 0 and len(word) <= 4 and after_flag[0] != "v" and (
            "没" not in word and "不" not in word)  # 好久没/i 吃火锅: no topic
        if _nominal(flag) or set_phrase or whose:
            found += word
        elif not found and flag.startswith(("v", "a")) and word not in _ZH_STANCE_VERBS and (
            (after not in _ZH_COMMENT_WORDS and (after_flag.startswith("n") or after_flag == "vn"))
            or (len(word) == 2 and after_flag.startswith("v"))  # an activity: 露营是…, 熬夜追剧
        ):
            found += word
        else:
            break
    if unled != text:  # after a verb of opinion
        found = _without_comment_zh(unled, found)
    if ZH_PAST_RE.search(found) or not 2 <= len(found) <= 12:
        return None
    return found


_ZH_CLAUSE_END_RE = re.compile(r"[，,。！？!?；;、…~～\s]|$")
"""Where a Chinese clause ends: its punctuation, or the text's end."""


def _nominal(flag: str) -> bool:
    """Whether a dictionary tag reads as part of a noun phrase here (nouns, distinguishing
    words, abbreviations, states, verbal and adjectival nouns, Latin words)."""
    return flag[0] in "nbjz" or flag in ("vn", "an", "eng")


def _without_comment_zh(unled: str, obj: str) -> str:
    """``obj`` without the comment a clause of opinion ends in; ``unled``: the clause after its
    verb of opinion (``觉得``, ``嫌``…). Words that run as nouns to the clause's end end in
    what was thought of the topic (``以前觉得戏曲老土`` → ``戏曲``, ``从前觉得红酒高级`` →
    ``红酒``: the segmenter tags 老土 and 高级 as nouns), so an object that runs to the
    clause's end (the text's, or its punctuation :data:`_ZH_CLAUSE_END_RE`) loses its last
    word; ``obj`` itself where it does not, or the last word is what a ``的`` phrase names
    (``觉得周杰伦的歌``)."""
    at, words = unled.find(obj), dictionary_tag(obj)
    ends = at >= 0 and _ZH_CLAUSE_END_RE.match(unled, at + len(obj)) is not None
    if not ends or len(words) < 2 or words[-2][0] == "的":
        return obj
    if not all(_nominal(flag) for _, flag in words):
        return obj
    return obj[: len(obj) - len(words[-1][0])]


def _opening_zh(clause: str, since: bool = True) -> str:
    """``clause`` without the fillers it opens with (:data:`_ZH_FILLER_RE`) and, with
    ``since``, without the time it opens with when that is a clause of its own
    (:data:`_ZH_SINCE_RES`): what its object is looked for in."""
    text = _ZH_FILLER_RE.sub("", clause).strip()
    for since_re in _ZH_SINCE_RES if since else ():
        if (found := since_re.match(text)) is not None and found.end() < len(text):
            return found["topic"] + _ZH_FILLER_RE.sub("", text[found.end() :]).strip()
    return text


def _pull_object_zh(text: str) -> str | None:
    """The object of a Chinese clause, ``text`` as :func:`_opening_zh` leaves it: the topic it
    opens with (:func:`_leading_topic_zh`), when the segmenter's first noun phrase does not
    open it; else that first noun phrase of two characters or more (``红烧肉百吃不厌`` →
    ``红烧肉``, ``芹菜那个味儿我一闻就想吐`` → ``芹菜``); else the fronted topic
    (``武侠小说我已经不看了``), else what is left when the words of stance, time and degree are
    taken out."""
    nouns = [
        run for run in map(_aspect_led, noun_runs(text))
        if 2 <= len(run) <= 12 and run not in _ZH_REACTIONS and _names_more(run)
        and not ZH_PAST_RE.fullmatch(run)  # 小时候嫌弃苦瓜: a time, not the object
    ]  # fmt: skip
    opening = _leading_topic_zh(text)
    if (
        opening and opening not in _ZH_REACTIONS and _names_more(opening)
        and len(text) > len(opening) + 1
        and not (nouns and text.startswith(nouns[0]) and not _holds_more(opening, nouns[0]))
    ):  # fmt: skip
        return opening
    if nouns and len(text) > len(nouns[0]) + 1:  # a stance word besides the noun ("离谱")
        return nouns[0]
    if (topic := _ZH_TOPIC_RE.match(text)) and not _ZH_STANCE_RE.fullmatch(topic.group("obj")):
        obj = topic.group("obj")
        leading = re.match(r"^(?:不|没|再|已经|很|都|也|就)", obj)
        if not leading and _names_more(obj):
            return obj
    pieces = _ZH_STANCE_SPLIT_RE.split(text)  # parts, with the stance word before each
    for before, part in zip(pieces[1::2], pieces[2::2], strict=True):
        part = part.removeprefix("过")  # 没喝过可乐: what was drunk, after the aspect
        if (
            before in _ZH_CONSUMED_BY and 2 <= len(part) <= 12 and part not in _ZH_REACTIONS
            and not part.startswith(("得", "着", "过", "完", "起", "下", "上"))
            and not all(flag.startswith((*FUNCTION_TAGS, "r")) for _, flag in tag(part))
        ):  # fmt: skip
            return part  # what a verb of use takes, whatever its tag (``天天喝可乐``: 可乐/a)
    parts = [p for p in pieces[::2] if p]
    if not parts:
        return None
    best = _ZH_USED_BEFORE_RE.sub("", max(parts, key=len))
    if len(best) < 2 or len(best) > 12 or len(text) <= len(best) + 1 or best in _ZH_REACTIONS:
        return None
    if all(flag.startswith((*FUNCTION_TAGS, "r", "a")) for _, flag in tag(best)) or (
        len(best) == 2 and best[1] in "过了着"
    ):  # adverbs, pronouns, particles left over ("反而", "以前那么", "得少"), a verb and its
        return None  # aspect (就再也没换过: 换过)
    return best


def _holds_more(opening: str, noun: str) -> bool:
    """Whether a clause's opening topic is ``noun`` and more of one noun: a bound head
    (跑步机 over 跑步, 鸡汤文 over 鸡汤), nouns of two characters or more, or ``的`` and
    nouns; not an aspect of it (``ZH_ASPECT_HEAD_RE``: 芒果味道, 芒果的味道), nor a character the
    dictionary mis-tags (高跟鞋穿, 宵夜戒, 京剧啊)."""
    if not opening.startswith(noun) or len(opening) <= len(noun):
        return False
    extra = opening[len(noun) :]
    if extra in ZH_BOUND_HEADS:
        return True
    whose = extra.removeprefix("的")  # 周杰伦的歌: whose song, more than 周杰伦
    return len(extra) >= 2 and not ZH_ASPECT_HEAD_RE.fullmatch(whose) and all(
        flag.startswith("n") for _, flag in dictionary_tag(whose))


def pull_object_zh(clause: str) -> str | None:
    """The object of a Chinese clause (:func:`_pull_object_zh`), with the bound head of its
    compound when the segmenter cut it off (``螺蛳粉真香了`` → ``螺蛳粉``, not ``螺蛳``). The
    clause after a time it opens with is looked in first, then the whole (``自从第一次吃了潮汕
    牛肉火锅，每个月必去一次``: the thing is named only in the time)."""
    text = _opening_zh(clause)
    if not (obj := _pull_object_zh(text)) and (whole := _opening_zh(clause, since=False)) != text:
        text, obj = whole, _pull_object_zh(whole)
    if not obj:
        return obj
    at = text.find(obj)
    end = at + len(obj)
    if at < 0 or end >= len(text) or text[end] not in ZH_BOUND_HEADS:
        return obj
    for word, flag in tag(text):
        if word.startswith(text[end]) and text.find(word, end) == end:
            if len(word) > 1 and word[-1] in ZH_BOUND_HEADS and flag.startswith(("i", "l", "n")):
                return obj + word  # the rest of the compound is one word (鸭血 + 粉丝汤/i)
            # the head is glued to what follows (粉真香/a, 杀退/v) or stands alone (圈/q, 乐/a)
            return obj + text[end] if not flag.startswith("n") or len(word) == 1 else obj
    return obj


_ZH_NO_TOPIC = frozenset(
    "身体 胃 肠胃 心脏 膝盖 肚子 腰 眼睛 皮肤 嗓子 喉咙 牙 牙齿 头 脑子 腿 脚 手 鼻子 血压 血糖 "
    "医生 大夫 护士 老板 领导 宝贝 亲".split()
)
"""A bare clause that names the body (``身体，吃不消``) or someone addressed or acting
(``医生，…``): who or what bears the stance after it, never its topic."""


def named_alone_zh(clause: str) -> str | None:
    """A Chinese clause that is only a noun phrase of up to twelve characters (``苹果``,
    ``狗``): that phrase, the topic of an object-less stance after it (``我一直用华为，苹果现在看着
    就烦``: 苹果, not 华为; ``我喜欢猫，狗，受不了``: 狗); None for a person (``妈，我不想吃了``:
    who is addressed; ``房东，不让养``: who acts) or the body (:data:`_ZH_NO_TOPIC`)."""
    text = _ZH_FILLER_RE.sub("", clause).strip(" ，,。.!！?？")
    words = dictionary_tag(text)  # no HMM guess: 真香 is no name, 当宝 no noun
    named = words and all(
        flag in NOUN_TAGS and flag != "nr" and not ZH_PAST_RE.fullmatch(word)
        and not person_word(word, flag) and word not in _ZH_NO_TOPIC for word, flag in words)
    return text if named and len(text) <= 12 else None


_ZH_ENDS_RE = re.compile(r"[的啊哦呀吧啦哈嘛呢哟～~。！!，,\s]*(?:谢谢|谢啦|多谢)?[～~。！!\s]*")
"""What may follow a refusal that ends its clause: particles, punctuation, thanks; not 了
(``旧衣服都不要了``: thrown out; ``脸都不要了``)."""


_ZH_REFUSAL_RE = re.compile(r"(?:再)?(?:不要|别(?:再)?(?:给我|帮我)?[放加选订叫要撒用]?|不[放加])")
"""What an order refuses with (``不要``, ``别选``, ``不加``): not a verdict (``受不了``) nor a
quit (``戒了``), whose fronted objects the statement head reads, nor 不用 (``小票不用了``: not
needed this time)."""


_ZH_ORDER_VERBS = frozenset("点 买 订 叫 选 要 吃 喝 用 穿 来 做".split())
"""Verbs that open an order's frame before a refusal (``点奶茶从来不加``), not its object."""


def fronted_refusal_zh(clause: str, start: int, end: int) -> str | None:
    """The object a Chinese clause puts before an order's refusal that ends it (``酸笋不要``,
    ``过道座位别选``, ``吸烟楼层一律不要``): the words before the refusal (``clause[start:end]``
    is what the rule matched, :data:`_ZH_REFUSAL_RE`), or None where more follows it, the
    refusal is no order's, or nothing (no one) is named before it."""
    if not _ZH_ENDS_RE.fullmatch(clause[end:]) or not _ZH_REFUSAL_RE.fullmatch(clause[start:end]):
        return None
    before = re.sub(r"(?:都|也|一律|统统|全都|全|就|可|千万|一概|通通|统一)+$", "", clause[:start])
    words = tag(before)
    if any(person_word(word, flag) or flag == "r" for word, flag in words) or (
            words and words[0][0] in _ZH_ORDER_VERBS):
        return None  # someone's (我儿子青菜都不要), a pronoun (这个不要), a frame (点奶茶从来不加)
    if 2 <= len(before) <= 8 and words and (words[-1][1].startswith("n") or before.endswith("的")):
        return before  # 吸烟楼层, 过道座位, 没电梯的: the whole phrase, though a verb opens it
    return named_alone_zh(before) or pull_object_zh(before)


__all__ = ["fronted_refusal_zh", "named_alone_zh", "pull_object_zh"]

"""Who or what stands before a Chinese verb: a person, an animal or an institution that acts
(``我表姐只吃素``, ``猫只吃鱼``, ``公司只用钉钉``), or the thing the user speaks of, put
first (``手机只认苹果``, ``电脑上只装Fedora``, ``理发只去楼下那家小店``).

Chinese drops the subject when it is the speaker, and puts what a sentence is about first;
a noun before the verb is therefore no proof of another subject. It is another subject
when it can act: a person (:func:`person_word`), an animal or an institution
(:data:`_ZH_AGENT_WORDS`). Issue 17: every noun before the verb had been read as another
person, so a user's ``家里的食用油去年起只买鲁花了`` stored nothing.
"""

from __future__ import annotations

import re

from .segment import FUNCTION_TAGS, is_word, tag

_ZH_PERSON_HEADS = frozenset("姐哥弟妹爷婆叔姨舅嫂妈爸娘爹友妻")
"""Last characters of Chinese nouns for people close to the speaker (``表姐``, ``室友``,
``老婆``, ``阿姨``): ``我`` before such a noun, or before a doubled noun (``婆婆``,
``舅舅``), is a possessive, and the clause is that person's."""
_ZH_PERSON_WORDS = frozenset(
    "同事 同学 舍友 闺蜜 对象 老公 丈夫 先生 太太 孩子 儿子 女儿 闺女 宝宝 家人 老板 领导 "
    "老师 邻居 伴侣 爱人 队友 上司 外公 外婆 师父 师傅 徒弟 学生 房东 岳父 岳母 公公 媳妇 "
    "媳妇儿 发小 搭档 前任 下属 同桌 客户 导师 教授 班主任 师兄 师姐 学长 学姐".split()
)
"""Words for people close to the speaker that :data:`_ZH_PERSON_HEADS` does not end (the
segmenter tags ``邻居`` a verb), also read at the end of a longer word (``高中同学``)."""
_ZH_KIN_CHARS = frozenset("妈爸哥姐弟妹爷奶舅姨叔伯姑婶嫂娘爹")
"""Kin said in one character after 我 (``我妈花生过敏``)."""

_ZH_AGENT_WORDS = frozenset(
    """
    人 朋友 男友 女友 小孩 娃 侄子 侄女 外甥 孙子 孙女 亲戚 家长 父母 长辈
    医生 大夫 护士 营养师 教练 专家 店员 服务员 厨师 司机 店主 老外 网友 博主 作者
    猫 狗 猫咪 狗狗 宠物 鹦鹉 仓鼠 兔子 乌龟 鸟
    公司 单位 学校 食堂 店 餐厅 饭店 饭馆 超市 商场 银行 医院 政府 小区 物业 酒店 平台
    商家 厂家 官方 部门 团队 机构 学院 大学 幼儿园 诊所 药房 工厂 机场 车站 健身房
    俱乐部 图书馆 网站 社区 班 群 系统 国家 政策 规定
    """.split()
)
"""Ends of nouns that can act themselves (people by trade, animals, institutions, systems):
before a verb they are its subject (``我家猫只吃皇家``, ``学校食堂只卖套餐``)."""
_ZH_NOT_TOPIC_WORDS = frozenset(
    """
    想 要 会 能 可以 打算 准备 计划 希望 应该 必须 得 需要 坚持 试 试试 尝试 考虑 建议 让 叫
    被 给 说 听说 以为 怕 敢 愿意 不 没 没有 别 未 非 无
    """.split()
)
"""Verbs of intent, ability, causing and saying, and negations: before a verb they make the
stance a plan, a report or something else than the user's plain habit (``打算只吃素``,
``坚持只用现金好几年，终于…``)."""
_ZH_NEUTRAL_PRONOUNS = frozenset(
    "我 我家 我们家 俺 俺家 咱 阿拉 本人 这 那 这个 那个 这些 那些 这种 那种 这款 那款".split()
)
"""Pronouns that name no one who acts: the user (in dialect too: ``俺``, ``阿拉``), the user's
home, and demonstratives."""


def person_word(word: str, flag: str) -> bool:
    """Whether a segmenter word (with its tag) names a person close to the speaker
    (``同事``, ``表姐``, ``妈``, ``舅舅``)."""
    if word in _ZH_KIN_CHARS or any(word.endswith(person) for person in _ZH_PERSON_WORDS):
        return True
    doubled = len(word) == 2 and word[0] == word[1]
    return flag[:1] == "n" and len(word) >= 2 and (word[-1] in _ZH_PERSON_HEADS or doubled)


def _acts(word: str, flag: str) -> bool:
    """Whether a word before the verb can be its subject: a person, a name, a pronoun for
    someone else, an animal or an institution."""
    if word in _ZH_NEUTRAL_PRONOUNS:
        return False
    return (
        flag in ("nr", "nrt", "nrfg", "r")
        or person_word(word, flag)
        or any(word.endswith(agent) for agent in _ZH_AGENT_WORDS)
    )


def names_someone(text: str) -> bool:
    """Whether a Chinese noun phrase before a verb names someone or something that acts
    (:func:`_acts`): a name (``小李``), kin (``爷爷``), a pronoun for another, an animal or an
    institution. Its head, the last word that is no function word, decides: ``猫粮`` is food,
    not a cat; the user and demonstratives are no one."""
    words = [(word, flag) for word, flag in tag(text) if not flag.startswith(FUNCTION_TAGS)]
    return bool(words) and _acts(*words[-1])


def fronted_topic(text: str) -> bool:
    """Whether the words before a Chinese verb (fillers already counted out) name only what
    the user speaks of, put first: things, places and activities (``手机``, ``电脑上``,
    ``理发``, ``家里的食用油去年起``), and no one who could act (:func:`_acts`) nor intent,
    report or negation (:data:`_ZH_NOT_TOPIC_WORDS`).

    Args:
        text: The words before the verb, punctuation removed (``家里的食用油去年起``).

    Returns:
        True when at least one word is such a topic and none is a subject.
    """
    words = tag(text)
    named = False
    for word, flag in words:
        if word in _ZH_NOT_TOPIC_WORDS or _acts(word, flag):
            return False
        if flag.startswith(FUNCTION_TAGS) or word == "我":
            continue
        named = True
    return named


_ZH_PERSON_TOPIC_RE = re.compile(
    r"^(?:[他她它]|(?:这|那)(?:个|些)?是?$|不管|无论|不论|别|不要)"
)
"""A fronted "topic" that is a person or a bare demonstrative (``他是我最讨厌的人``,
``这个是我最喜欢的``), a concession (``不管你怎么说我都…``) or a request (``别叫我小王``): no
object to put back."""
_ZH_TO_ME = frozenset("给 替 为 跟 和 对 叫".split())
"""A word that makes the user the indirect object (``以后给我…``), ending a "topic": no object
to put back either."""
_ZH_TOPIC_FRONTED_RE = re.compile(
    r"^(?P<topic>[^我，。！？,!?\s]{1,16}?)(?<![让使令])"  # not 它会让|我过敏
    r"(?P<aid>帮)?(?P<rest>我.+)$"
)
"""A Chinese clause's topic before the speaker (``武侠小说我已经不看了``), without the 帮 of
"for me" (group ``aid``: ``零食礼盒帮我避开``); one character only when it is a noun
(``鱼我不吃``; not ``那我不吃``, :func:`topic_before_speaker`)."""


def topic_before_speaker(clause: str) -> re.Match[str] | None:
    """The topic a Chinese clause puts before its speaker (``武侠小说我已经不看了``): a match
    with groups ``topic`` and ``rest``, or None for a person or a bare demonstrative."""
    fronted = _ZH_TOPIC_FRONTED_RE.match(clause.rstrip("。！!. "))
    if fronted is None or _ZH_PERSON_TOPIC_RE.match(fronted.group("topic")) or (
            tag(fronted.group("topic"))[-1][0] in _ZH_TO_ME):
        return None
    topic = fronted.group("topic")
    if fronted.group("aid") and is_word(topic[-1] + "帮"):
        return None  # 丐帮我很喜欢: 帮 ends the topic's name, not "for me"
    return fronted if len(topic) > 1 or tag(topic)[0][1].startswith("n") else None


def holds_its_object(display: str, verb: str, topic: str) -> bool:
    """Whether a topic put back after the verb (:func:`topic_before_speaker`) holds the object
    ``display`` rather than naming its kind: what goes in it (``咖啡我不加糖``, ``牛排我不放黑胡椒``
    : 糖, not 糖咖啡), or a kind the object already names (``面我只吃拉面``: 拉面, not 拉面面);
    ``咖啡我只喝美式`` is 美式咖啡."""
    inner = display.removesuffix(topic)
    return inner not in ("", display) and (inner.endswith(topic[-1]) or verb.endswith(("加", "放")))


__all__ = [
    "fronted_topic", "holds_its_object", "names_someone", "person_word", "topic_before_speaker",
]

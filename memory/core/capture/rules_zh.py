"""Chinese stance rules (matched on simplified text); same precedence as English.

Kinds, not objects: liking and disliking verbs, allergies and their
retraction (``对…不再过敏``), 不再/再也不/戒 (a stance left behind is a dislike),
switches (``从A换成B``), comparisons (``比起B更喜欢A``, ``A而不是B``),
exceptions (``除了Y都喜欢``), single-valued slots (``我最喜欢的X是Y``), a routine now
(``现在出门都坐高铁``).
"""

from __future__ import annotations

from .lexicons import ZH_MET_BY
from .rules import Rule, RuleTable, zh
from .rules_wishes import ZH_WISH_RULES

_NOT_LOVE = r"(?<![可恋亲热宠关博友溺挚偏钟酷])"
_SPAN = r"[^，,。；;]"
ZH_ONLY_BUT = (
    r"除了(?!周末|工作日|平时|早上|晚上|今天|明天|假期|节假日|过年|国庆|春节|\d)"
    r"(?P<obj>(?:(?!以外|之外)[^，,。；;我都别其]){1,12})(?:以外|之外)?[，,]?(?:别的|其他的?|"
    r"其它的?|啥)?[^，,。都]{0,6}?我?(?:都|也)(?:不|没)(?:太|怎么)?"
    r"(?P<verb>用(?=[了，,。！!]|$)|吃|喝|买|穿|听|看|去|玩|碰|考虑|喜欢|爱)"
)
"""All but one turned away from (``除了华为手机别的我都不用``, ``除了游泳别的运动我都不喜欢``):
that one alone, a like; the exception readers (:func:`~.tagged_sides.exception_sides`) leave
it to this rule. Not a time (``除了周末我都不去健身房``), nor a need (``平时都不用预约``)."""
_FAN = (
    r"(?:铁粉|死忠粉?|真爱粉|老粉|忠实粉丝|忠粉|铁杆粉丝|铁杆球迷|铁杆|老主顾|老顾客|忠实顾客|忠实用户|"
    r"老用户|老会员|钉子户)"
)
"""Who one is to a brand, a team or a food: its fan, its regular (``比亚迪死忠``,
``京东的老会员``)."""
_FAN_SPAN = r"[^，,。；;“”\"'是我他她]"
_NO_FAN_LEAD = r"(?![真超纯曾原本以前])"
"""What such a fan is of: no one (``我老公是个铁杆球迷``, ``室友是周杰伦的死忠粉``), no quote
(``被迫当“忠实用户”``), not a former one (``曾是B站忠实用户``, ``原本是苹果死忠``)."""
ZH_KEPT = (
    r"(?:(?:还是|最后|最终|乖乖|又)(?:都|就|还是)?(?:回到了?|用回了?|选回了?|换回了?|买回了?|"
    r"回去用|留在了?|坚持(?:用|开|喝|吃|穿|买)?|死磕)|认准了?|还得是|还是得是|必须是|"
    r"(?:一直|始终)习惯(?:用|了)?)(?![了过得着不没下灰一两三四五六七八九十几半\d])"
)
"""A choice come back to or held after others (``最后还是回到了搜狗``, ``我还是坚持用小米``,
``狗粮我认准渴望``, ``烧烤还得是东北烧烤``): a like, which the statement head reads as a
quit (``回到了黑轴`` at 戒了). Not a plain going on (``还是开那辆旧捷达``: a fact), nor a
necessity (``还是得坐高铁``)."""
ZH_ROUTINE_NOW = (
    r"(?:现在|如今|目前|最近|近来|这(?:两|几|一)年|这阵子|这段时间)"
    r"(?![^，,。跟和给陪带]{0,3}(?:大家|人|他|她|同事|同学|学生|朋友|孩子|家里|公司|单位|学校))"
    r"(?P<how>[^，,。！？我不没别]{0,6}?)"
    r"(?:基本上?|几乎|也)?(?:都|一直|全都|全|天天)(?:在|是)?"
    r"(?P<verb>用|喝|吃|穿|看|听|坐|骑|开|玩|刷|去|买|点|订|住|戴|抽|搭|靠)"
    r"(?![了过得完好到不着起出下上来去一两二三四五六七八九十几半\d]|[^，,。！？]{0,6}药|医生|病)"
)
"""A routine said of now, with a word of habit (``都``, ``一直``): ``现在出门都坐高铁``,
``这两年一直喝燕麦奶``, ``打车现在都用高德``, ``现在全靠地铁``. The half of a switch often
said alone (issue 17): what the user turned to, the other half left as a reason
(``地铁太挤``) or unsaid. Not what cannot be done (``现在都吃不了``), how much
(``现在都吃两顿``), nor treatment (``最近一直吃药``, ``这几年一直在吃降压药``); the words
between the time and the habit say when, where or with whom (``出门``, ``早上``,
``跟同学聊天``), never who (``现在大家都用…``, ``现在年轻人都喝…``: theirs)."""
_ZH_AVERSION = "讨厌|排斥|反感|抗拒|嫌弃|抵触|害怕|怕"
"""Aversion verbs that, negated and followed by 了, say the user has come round (``不排斥…了``)."""
_ZH_LESS = "没(?:那么|这么|那样|以前那么|原来那么)"
"""``没那么`` and its kin: less than before."""
_ZH_ADVERBS = r"(?:是|其实|也|都|还|一直|从小|就|本来|有点|有些|比较|唯独|只是|只有|不过|但是|但)*"
_ZH_ALLERGY_LEAD = (
    rf"(?:[^对，,。]{{0,12}}?我(?:们(?:全家|一家|家)?)?(?![妈爸爷奶姥哥姐弟妹儿女老孩家朋同])的?"
    rf"{_ZH_ADVERBS}|(?<!我){_ZH_ADVERBS})"
)
"""Before an allergen in ``X过敏`` / ``X不耐受``: what precedes the speaker, the speaker, and
adverbs, none of them part of the allergen; never someone close to the speaker (``我妈花生过敏``
is the mother's allergy, not an allergen ``妈花生``)."""
_SWITCH_VERBS = r"换成|改成|改为|换到|转到|改用|改喝|改吃|改穿|改听|改看|换用|转用|转投|改投"

_ZH_BETTER = (
    r"(?:更|还|要|还要|可|明显|确实)?(?:好吃|好喝|好用|好看|好听|好玩|好逛|好穿|香|舒服|靠谱|实用|"
    r"划算|耐用|对味|(?<!不)对(?:我(?:的)?)?(?:胃口|口味)|合我(?:的)?(?:胃口|口味|心意)|适合我|顺手|流畅|方便|"
    r"有意思|有感觉|有味道|带劲|过瘾|实惠)"
)
"""Better to the user (``更对我口味``, ``好逛``): a judgement of taste, not of the weather or of
people (``今天比昨天冷``, ``他比我高``)."""
_ZH_SIDE = (
    r"(?![我你他她它咱这那]|现在|如今|目前|最近|后来|以前|之前|原来|上次|平时|想象|预期|预想|期待|"
    r"图片|照片|宣传|描述|网上|谁|别人|大家|人家|[今明昨后前]天|[今明去]年|[上下]午|晚上|白天|早上|"
    r"[上下这]?周[一二三四五六日末]?|星期|[小老阿][王李张刘陈杨黄赵周吴徐孙马朱胡郭何高林罗郑梁谢宋唐"
    r"许韩冯邓曹彭肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛"
    r"段雷侯史陶黎贺顾毛郝龚邵万钱严武戴莫孔汤](?=[比都也不没有更还真好]|[^\u4e00-\u9fff]|$))"
    r"[^，,。；;比我说]{1,12}?(?<![不没])(?<!没有)"
)
"""One side of a comparison: no person (``小王``, ``谁``; ``小米`` and ``小杨生煎`` are things),
no bare demonstrative, no time (``今天比昨天方便``: a schedule), no expectation (``比想象中
好用``, ``比图片上还好看``: a report on a thing bought), no one's saying (``表弟说…``), and not
ending in a negation (``安卓不比苹果流畅`` says no side is better)."""
_ZH_SIDE_LEAD = r"(?:其实|真的|说实话|说真的|个人觉得|我?觉得|我?认为|感觉)?"
_ZH_FEEL = rf"(?:{ZH_MET_BY})?"
"""How the side is met before it is judged (``纸质书看着舒服``): no part of it."""


def _better(source: str) -> Rule:
    """A rule for what the user finds better (group ``obj``) than the other side (``old``):
    a like of it, the other side kept as its worse half."""
    return zh(source, "like", "更喜欢{obj}", old_label="{old}不如{obj}")


_SLOT_NOUN = r"[^是，,不没已再]{1,8}"
_ZH_SPELL = r"(?:一|两|三|几|半)(?:天|周|日|顿|晚|星期|个星期|礼拜|个礼拜|个月)"
"""A short spell of time: ``一天``, ``一周``, ``三天``."""
_ZH_WITHOUT_VERBS = r"吃|喝|用|刷|玩|听|看|去|跳|练|跑|打|逛|追|摸"
_ZH_MISSED = (
    r"(?:就|都|会|也)?(?:浑身|全身|整个人)?(?:难受|不行|不自在|不舒服|没精神|想得慌|发慌|心慌|"
    r"受不了|难熬|馋得慌|犯困|没劲|想它|想死)"
)
"""How the user feels without it for a spell: the thing is one they cannot go without."""

_ZH_CHOOSE = "选|订|叫|走|买|点|坐|推|靠|安排"
"""Verbs an order or a booking chooses with."""
_ZH_NOT_CHOSEN = (
    r"[了啊吧呀呢啦嘛我你他她它人赞头错神路心过开醒苦名火丢远辞脱卸边近账荐太满多少]|[那这](?!种|类|些)"
)
"""What after such a verb makes no thing chosen: a particle, a person, a compound verb
(叫醒, 推辞, 靠近), a degree, a demonstrative of one occasion (那条路; not 那种, a kind)."""
_ZH_DONT = r"(?<![特分性级派区识告差鉴辨类个离送道作永惜临])别"
"""别 of "don't", not the end of a word (``特别``, ``分别``, ``区别``, ``告别``)."""
_ZH_NOT_TO_CHOOSE = rf"(?:{_ZH_DONT}|不要)(?:再)?(?:给我|帮我)?(?:{_ZH_CHOOSE})(?!{_ZH_NOT_CHOSEN})"
"""An order not to choose (``别选``, ``不要给我订``)."""

ZH_RULES: tuple[Rule, ...] = (
    zh(  # "我最喜欢的颜色不是红色": what the slot is not says nothing about liking it
        rf"我?最喜欢的{_SLOT_NOUN}(?:已经|早就|现在|也)?(?:不再|不|并不|没有?)(?:再)?是(?P<obj>.+)",
        "like",
        "{obj}",
        topic=True,
    ),
    zh(
        rf"我?(?P<slot>最喜欢的{_SLOT_NOUN})是(?P<obj>.+)",
        "like",
        "{slot}是{obj}",
        first_person=True,
    ),
    zh(r"我?最喜欢的是(?P<obj>.+)", "like", "最喜欢{obj}", first_person=True),
    zh(
        r"我(?P<slot>(?:现在|目前)(?:用|开|穿|喝|读|听|住)?的[^是，,的]{1,6})是(?P<obj>.+)",
        "like",
        "{slot}是{obj}",
        first_person=True,
    ),
    zh(r"我的(?:爱好|兴趣)是(?P<obj>.+)", "like", "喜欢{obj}", first_person=True),
    zh(
        rf"我是(?:一个|一名|个)?(?P<obj>{_SPAN}{{1,8}}?)(?:爱好者|迷|粉丝|控|主义者)",
        "like",
        "喜欢{obj}",
        first_person=True,
    ),
    zh(  # 比亚迪死忠, 本人星巴克铁粉, 我是京东的老会员了, 如今成了林俊杰的铁粉
        rf"(?:^(?:本人|作为)?(?:(?:如今|现在|已经)?(?:成了|成为了?|变成了?))?|我(?:就|也|一直|算)?是)"
        rf"(?:一个|一名|个)?(?:(?:十|几|多|二十|\d+)年的?)?"
        rf"(?P<obj>{_NO_FAN_LEAD}{_FAN_SPAN}{{1,8}}?)的?{_FAN}",
        "like",
        "喜欢{obj}",
        first_person=True,
    ),
    zh(  # 柠檬茶我是忠实粉丝: the topic first
        rf"^(?P<obj>{_NO_FAN_LEAD}{_FAN_SPAN}{{1,8}}?)我(?:就|也|一直)?是(?:一个|一名|个)?{_FAN}",
        "like",
        "喜欢{obj}",
        first_person=True,
    ),
    zh(  # 这辈子就认老干妈了: that one alone from now on
        rf"(?:这辈子|以后|今后)?就只?认(?![准识为得真错可同出了])(?P<obj>{_SPAN}{{1,10}}?)了",
        "like",
        "只认{obj}",
        first_person=True,
    ),
    zh(rf"对(?P<obj>{_SPAN}{{1,20}}?)(?:很|非常|有点|比较|特别)?敏感", "dislike", "对{obj}敏感"),
    zh(
        rf"(?P<obj>{_SPAN}{{1,20}}?)是我的?(?:最爱|最喜欢的)",
        "like",
        "喜欢{obj}",
        first_person=True,
    ),
    zh(
        rf"(?P<obj>{_SPAN}{{1,20}}?)(?:真的)?不是我的菜",
        "dislike",
        "{obj}不是我的菜",
        first_person=True,
    ),
    zh(
        rf"对(?P<obj>{_SPAN}{{1,20}}?)(?:已经)?(?:不再|不|没有?)(?:那么|再)?过敏了?",
        "like",
        "对{obj}不再过敏",
    ),
    zh(
        rf"(?:已经|早就|现在)?(?:不再|不|没有?|再也不|也不)对(?P<obj>{_SPAN}{{1,20}}?)过敏了?",
        "like",
        "对{obj}不再过敏",
    ),
    zh(
        rf"对(?P<obj>{_SPAN}{{1,20}}?)(?:有点|有些|严重|非常|很|都|也)?过敏",
        "dislike",
        "对{obj}过敏",
    ),
    # what makes the speaker allergic (``羊毛会让我过敏``); not what does not (``纯棉的不会让
    # 我过敏``, ``因为它不会让我过敏``): that clause matches none of these rules; nor the
    # others a choice is set against (``只用这个牌子，因为别的会让我过敏``)
    zh(r"^(?!(?:因为|由于)?(?:别的|其他|其它|别家|别人))(?:因为|由于)?(?P<obj>[^对，,。我不没]{1,12}?)(?:会|容易|总是?|老是?|一直)?让我(?:有点|有些|严重|很)?"
       r"过敏(?!原)", "dislike", "对{obj}过敏"),
    # not a negated allergy (``芒果那个不算过敏``, ``查出来根本不过敏``): that one is over
    # a fronted allergen (``芒果我过敏``, ``海鲜我一吃就过敏``)
    zh(r"(?P<obj>[^对，,。我]{1,12}?)(?<!让)我(?:[^，,。我的]{0,4}?就|都|也|有点|有些)?过敏(?!原)",
       "dislike", "对{obj}过敏"),
    # what precedes the speaker, the speaker and an adverb are no part of the allergen
    # (``希望我的花生过敏能好``, ``我其实有点芒果过敏``, ``我们全家都海鲜过敏``); an allergy
    # denied or mistaken is none (``医生也说不是过敏``, ``以为过敏``)
    zh(rf"{_ZH_ALLERGY_LEAD}(?P<obj>(?![没不无未])[^对，,。我]{{0,20}}?)(?<![不没])(?<!没有)(?<!不算)"
       r"(?<!不是)(?<!以为)(?<!以为是)(?<!让我)(?<!让)过敏(?!原)",
       "dislike", "对{obj}过敏"),
    zh(
        rf"对(?P<obj>{_SPAN}{{1,20}}?)(?:有点|有些|严重|非常|很|都|也)?不耐(?:受|症)?",
        "dislike",
        "对{obj}不耐受",
    ),
    zh(rf"{_ZH_ALLERGY_LEAD}(?P<obj>[^对，,。我]{{1,20}}?)不耐(?:受|症)", "dislike",
       "对{obj}不耐受"),
    zh(
        rf"对(?P<obj>{_SPAN}{{1,20}}?)我?(?:已经|早就|现在|一直)?(?:一点|完全|真的|实在)?(?:都|也)?"
        r"(?:不|没有?)(?:太|什么|很|怎么|多大|啥)?(?:感兴趣|兴趣|感冒)",
        "dislike",
        "对{obj}不感兴趣",
    ),
    zh(
        rf"对(?P<obj>{_SPAN}{{1,20}}?)我?(?:现在|如今|早就)?(?:完全|真的|实在|已经|一直|都|也)?"
        r"(?:无感|没(?:什么|啥)?感觉)",
        "dislike",
        "对{obj}无感",
    ),
    zh(
        rf"对(?P<obj>{_SPAN}{{1,20}}?)(?:很|非常|特别|挺|超级|一直|都)?感兴趣",
        "like",
        "对{obj}感兴趣",
    ),
    zh(  # 笔记本从联想换成了华为: what comes before 从 may be the topic (not before 把: 点菜时把…)
        rf"从(?P<old>{_SPAN}{{1,12}}?)的?(?:{_SWITCH_VERBS})了?(?P<obj>.+)",
        "like",
        "换成{obj}",
        old_label="从{old}换成{obj}",
        fronted_topic=True,
    ),
    zh(
        rf"把(?P<old>{_SPAN}{{1,12}}?)的?(?:{_SWITCH_VERBS})了?(?P<obj>.+)",
        "like",
        "换成{obj}",
        old_label="从{old}换成{obj}",
    ),
    zh(rf"(?<!想)(?<!打算)(?<!准备)(?<!考虑)(?:{_SWITCH_VERBS})了?(?P<obj>.+)", "like",
       "换成{obj}"),  # not a plan: 想转投Switch阵营
    _better(rf"比起(?P<old>{_SPAN}{{1,12}}?)[，,]?我?(?:还是)?更(?:喜欢|爱|偏爱|倾向于?)"
            r"(?P<obj>.+)"),
    # 粤菜比川菜更对我口味, 古镇没有大城市好逛, 咸豆花完胜甜豆花, 相比线上课，线下课更靠谱: what
    # the user finds better, said with no verb of liking (the structure head reads only some)
    _better(rf"^{_ZH_SIDE_LEAD}(?P<obj>{_ZH_SIDE}){_ZH_FEEL}(?:真的|确实|绝对|明显)?比(?!不上|不过)"
            rf"(?P<old>{_ZH_SIDE})"
            rf"的?{_ZH_FEEL}{_ZH_BETTER}"),
    _better(rf"^{_ZH_SIDE_LEAD}(?P<old>{_ZH_SIDE}){_ZH_FEEL}(?:真的|确实|根本|完全|远远)?"
            rf"(?:没有|没|不如|比不上)(?P<obj>{_ZH_SIDE}){_ZH_FEEL}(?:那么|这么)?{_ZH_BETTER}"),
    _better(rf"^{_ZH_SIDE_LEAD}(?P<old>{_ZH_SIDE}){_ZH_FEEL}(?:再[^再，,]{{1,2}}也)?"
            rf"(?:都|也|根本|完全|远远)?(?:比不上|比不过)(?P<obj>{_ZH_SIDE})"
            rf"(?:{_ZH_FEEL}(?:那么|这么)?{_ZH_BETTER})?$"),  # 什么都比不上德芙: the side after
    zh(rf"^(?:真的|确实|明显|而且|感觉)?比(?!不上|不过|亚迪)(?P<old>{_ZH_SIDE}){_ZH_FEEL}{_ZH_BETTER}"
       r"(?:多了|太多了?|得多|一些|一点|不少)?[了啊呀哦！!。~～]*$",
       "like", "更喜欢{obj}", old_label="{old}不如{obj}", elliptic=True),  # 换了小米，比苹果好用
    _better(rf"^{_ZH_SIDE_LEAD}(?P<obj>{_ZH_SIDE})(?:完胜|完爆|秒杀|吊打|碾压)"
            r"(?P<old>[^，,。；;！!？?]{1,12})"),
    _better(rf"(?:比起|相比于?|相较于?)(?P<old>{_SPAN}{{1,12}}?)(?:来说|来|而言)?[，,]?我?"
            rf"(?:还是)?(?:觉得|感觉|认为)?(?P<obj>{_ZH_SIDE})(?:更|还是更|要)(?:{_ZH_BETTER}|好)"),
    zh(
        rf"宁(?:愿|可)(?P<obj>{_SPAN}{{1,12}}?)[，,]?也不(?:要|想|愿意)?(?P<old>.+)",
        "like",
        "宁愿{obj}",
        old_label="不{old}（宁愿{obj}）",
    ),
    zh(rf"宁(?:愿|可)(?P<obj>{_SPAN}{{1,12}}?)(?=[，,。！!～~]|$)", "like", "宁愿{obj}"),
    # kept as the best after others: 试了一圈，还是老干妈最好吃
    zh(rf"还是(?:觉得|感觉|认为)?(?:[楼对]?[上下面边]?那家|这家)?(?P<obj>{_ZH_SIDE})"
       rf"(?:[用吃喝穿骑开玩看听戴坐](?:着|得|起来))?(?:最[^，,。最]{{1,2}}?)?最{_ZH_BETTER}",
       "like", "最喜欢{obj}", fronted_topic=True),
    zh(ZH_ONLY_BUT, "like", "只{verb}{obj}"),  # 除了华为手机别的我都不用 (it had stored a dislike)
    zh(
        r"除了(?P<obj>(?:(?!以外|之外)[^，,。；;我都]){1,12})(?:以外|之外)?[，,]?我?"
        r"(?:什么|别的|其他的?|其它的?|啥)?(?:[^，,。都]{0,6})?都(?:很|还|挺)?"
        r"(?:喜欢|爱|吃|喝|可以|行|穿|用|听|看|能吃|能喝)",
        "dislike",
        "不喜欢{obj}（别的都行）",
    ),
    zh(
        r"不(?:是很|是太|是特别|是那么|太|怎么|大|那么|很|是)?(?:喜欢|爱(?:吃|喝|穿|用)?)"
        r"|没(?:那么|有那么|怎么)喜欢",
        "dislike",
    ),
    # cannot bring oneself to (``生蚝我真的喜欢不起来``, ``那种苦我欣赏不来``): the like rule
    # had stored a like of 不起来生蚝
    # (not 不来 that opens what follows: ``我喜欢不来回折腾的旅行``)
    zh(r"(?:喜欢|爱|热爱|欣赏|享受)不(?:起来|来(?=[了啊呀吧的。，,！!？?~～\s]|$))", "dislike",
       "不喜欢{obj}", fronted_topic=True),
    zh(
        r"(?:不再|再也不|(?:已经|早就|早已|从此|现在)不再|早就不|早已不)(?:是很|太|那么|怎么)?"
        r"(?:喜欢|爱(?:吃|喝|穿|用)?|想要?再?(?:吃|喝|用|买|穿)?|要|吃|喝|穿|用|买|碰|抽|玩|看|听)",
        "dislike",
    ),
    zh(r"戒(?:掉了?|了)?(?![指备严心])", "dislike", "戒{obj}"),
    zh(r"(?<![不没别])(?:放弃了?|告别了?|弃用了?)(?!了)", "dislike", "放弃{obj}"),
    # 广场舞？饶了我吧; 蹦极？打死我也不去: a refusal that names nothing refers to what came before
    zh(r"^(?:饶了我吧?|打死(?:我)?也不[去吃喝用买看玩穿碰坐]?|死也不[去吃喝用买看玩穿碰坐]?|"
       r"门都没有|敬谢不敏|免了吧?)[。！!~～吧了啊]*$", "dislike", "不喜欢{obj}", elliptic=True),
    zh(r"打死(?:我)?也不(?:[去吃喝用买看玩穿碰坐])(?=[^。！!~～吧了啊])", "dislike", "不喜欢{obj}"),
    zh(
        r"讨厌|厌恶|反感|受够了?|受不了|忍受不了|接受不了|不能接受|无法接受|没法接受|忍不了|吃不了|"
        r"喝不了|吃不惯|喝不惯|不(?:太|怎么|大)?能吃|不(?:太|怎么|大)?能喝|不敢吃|不想要|不想再?(?:吃|喝|用|买)|拒绝(?:吃|喝|用|买|穿)?|"
        r"(?:尽量)?(?:避免|避开|远离)|害怕|惧怕|恐惧|(?<![恐哪不可生只])怕(?![是了吗])",
        "dislike",
    ),
    # what the user cannot go without (``一天不喝咖啡就没精神``, ``健身房一天不去就浑身不自在``):
    # a like; the 不 had stored a dislike of what followed it
    zh(rf"{_ZH_SPELL}(?:不|没)(?P<verb>{_ZH_WITHOUT_VERBS})"
       rf"(?P<obj>(?![一二两三四五六七八九十几半\d]|饭|水|药|牙|觉)[^，,。！!？?就都会也]{{1,8}}?)"
       rf"{_ZH_MISSED}",
       "like", "离不开{obj}"),  # not how often (``一周不练三次``), nor a need (``不喝水``)
    zh(rf"^(?P<obj>(?![他她你它]|现在|如今|最近|目前|后来|以前)[^，,。！!？?我]{{1,10}}?)我?{_ZH_SPELL}(?:不|没)"
       rf"(?:{_ZH_WITHOUT_VERBS}){_ZH_MISSED}", "like", "离不开{obj}"),
    *ZH_WISH_RULES,
    zh(rf"(?:不吃|不喝|不穿|不用|不买|不碰|不看|不听|不抽|不点(?!赞|头))(?!{_ZH_MISSED})",
       "dislike"),
    # what the user wants left out of a thing named first (``高铁票不要过道的位置``,
    # ``手机可不要曲面屏``, ``外卖备注一下不要香油``)
    zh(rf"不要(?!{_ZH_MISSED}|太|那么|这么|过于|很)", "dislike", fronted_topic=True),
    zh(r"不要(?:太|那么|这么|过于|很)", "dislike", topic=True),  # 价格不要太贵: how much, no thing
    # what an order leaves out (``给我来碗面，别放葱``, ``一杯美式，不加奶``): not 不放心, 别放弃,
    # 不加班, 不加油, 别放进购物车 (where), 不放辣椒的火锅 (a kind of dish), nor what the dish is
    # nothing without (``吃牛肉面不加香菜都觉得少点啥``, ``不加糖不加奶才是灵魂``)
    zh(rf"(?:不要|{_ZH_DONT}|不)(?:放|加)(?![心弃过假松手开下班油入上速以强大快慢长学薪分进到在戏思屁狗炮电]|"
       r"[^，,。]*(?:鸽子|狠话|风筝|烟花|鞭炮))"
       r"(?![^，,。！!？?；;]*(?:的|里|里面|上面|不行|少点|少了|没(?:有)?(?:灵魂|味|那味|内味)|"
       r"莫得|不香|不对味|不得劲|不习惯|不够味|差点意思|才(?:是|有|好|对|香)|也(?:挺|很|行|可以|好)|了))",
       "dislike", "不要{obj}", fronted_topic=True),
    # what an order or a booking is not to choose (``别选转机的``, ``订机票的时候别订红眼航班``,
    # ``打车别叫拼车``, ``导航去公司，别走高速``, ``以后买水果别买榴莲``): not 别走 alone (don't
    # go), 别叫我 (a name), 别买了 (no object), 别点赞, a compound verb (别叫醒, 别推辞, 别靠近),
    # nor a one-off (``别坐飞机了，坐高铁吧``, ``别走那条路``) unless it is for good (以后…了)
    zh(rf"(?:以后|往后|今后|从今往后|从今以后)[^，,。！!？?；;]{{0,12}}?{_ZH_NOT_TO_CHOOSE}",
       "dislike", "不要{obj}", fronted_topic=True),
    zh(rf"{_ZH_NOT_TO_CHOOSE}(?![^，,。！!？?；;]*了)", "dislike", "不要{obj}", fronted_topic=True),
    # ``凉面免蒜``, ``一杯杨枝甘露，去冰``: an order's 免 (not 免费, 免税, 避免…) and a drink's 去
    zh(r"(?<![避难以未减豁赦罢幸不])免(?![费税密单检疫责运息谈得不职试除签邮了吧啦礼])"
       r"|(?:^|(?<=[，,、\s]))去(?=(?:冰|糖|奶盖|奶油)(?:$|[，,。！!～~\s、)）少多半三五七正常去免]))",
       "dislike", "不要{obj}", fronted_topic=True),
    zh(  # not ``只吃了一口``, ``只去过一次``, ``一个月只去一次``: how often, not which
        r"只(?:吃|喝|用|穿|买|看|听|住|去|认|装|玩|选|开|戴|抽|点|追|刷|骑|坐|订)"
        r"(?![了过一两三四五六七八九十几半\d]|得(?:起|到|了|下))",  # not 只买得起: can afford
        "like",
        fronted_topic=True,
    ),
    zh(  # a routine now: 现在出门都坐高铁, 这两年一直喝燕麦奶 (what the user turned to)
        ZH_ROUTINE_NOW,
        "like",
        "现在{verb}{obj}",
        fronted_topic=True,
    ),
    zh(  # come back to or kept after others: 最后还是回到了瑞鹏, 认准渴望, 还得是东北烧烤
        ZH_KEPT,
        "like",
        fronted_topic=True,
    ),
    zh(  # ``非原味酸奶不喝``: only that one
        rf"非(?P<obj>{_SPAN}{{1,12}}?)不(?P<verb>吃|喝|用|穿|买|看|听|去|选|要|坐|开|戴)",
        "like",
        "只{verb}{obj}",
        fronted_topic=True,
    ),
    zh(  # mild acceptance that flips an older dislike: "塑料现在也还行", "香菜其实还不错"
        rf"(?P<obj>{_SPAN}{{1,12}}?)(?:现在|如今|其实|后来)(?:也|倒是?|觉得)?(?:还行|还可以|可以接受|"
        r"不错|还不错|挺好的?|没问题)",
        "like",
        "能接受{obj}",
        first_person=True,
    ),
    zh(  # "我对芥末依然很抗拒": an aversion, its object before it
        rf"对(?P<obj>{_SPAN}{{1,12}}?)(?:一直|依然|仍然|还是|始终|真的|实在|特别|非常|很|挺|有点|比较|超级)*"
        r"(?:抗拒|排斥|反感|抵触)(?!了)",
        "dislike",
        "不喜欢{obj}",
    ),
    zh(  # "对榴莲没那么抗拒了": the aversion negated, its object before it
        rf"对(?P<obj>{_SPAN}{{1,12}}?)(?:已经|现在|也)?(?:不再?|{_ZH_LESS})(?:{_ZH_AVERSION})了",
        "like",
        "能接受{obj}",
    ),
    zh(  # "香菜我现在不讨厌了": the object fronted, then the user
        rf"^(?P<obj>{_SPAN}{{1,12}}?)我(?:现在|已经|居然|其实|也|倒是?|早就|最近|终于)*(?:不再?|不怎么|"
        r"没(?:那么|以前那么|原来那么))(?:讨厌|排斥|反感|抗拒|嫌弃|抵触|害怕|怕|紧张)了",
        "like",
        "能接受{obj}",
        first_person=True,
    ),
    zh(
        rf"(?:现在|如今|已经)?(?:能|可以)接受(?!不了)|(?:已经)?(?:不(?:再)?|{_ZH_LESS})"
        rf"(?:{_ZH_AVERSION})(?=.*了)",
        "like",
        "能接受{obj}",
    ),
    zh(
        rf"最喜欢|(?:喜欢|迷)上了?|爱上了|更喜欢|喜欢|偏好|偏爱|钟爱|热爱|酷爱|迷恋|"
        rf"{_NOT_LOVE}爱(?:吃|喝|穿|用|看|听|玩)|{_NOT_LOVE}爱(?![好人情心护惜国戴])",
        "like",
        comparative=True,
    ),
)
"""Chinese stance rules; the earliest match in a clause wins, then the longest."""

ZH_TABLE = RuleTable(ZH_RULES)
"""The Chinese rules, scanned together."""

__all__ = ["ZH_KEPT", "ZH_ONLY_BUT", "ZH_ROUTINE_NOW", "ZH_RULES", "ZH_TABLE"]

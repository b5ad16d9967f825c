"""Rule-based capture of preferences from one user message (English and Chinese).

No model is involved: a message is cut into sentences and clauses, each clause
is matched against a small table of stance rules (``I like …``, ``I can't stand
…``, ``我不要…``, ``我对…过敏``), and a match counts only when everything before
the verb is the user speaking (``I``, ``我``, adverbs, fillers such as "just so
you know"). Questions, requests, hypotheticals, other people's preferences and
Penchant's own injected blocks yield nothing; a stance the user has moved on
from ("I used to like …", ``以前喜欢…``) is not kept, only the current one.

Each candidate carries the object's keywords, normalised so that the gate can
match them (DESIGN.md §6.2): lower case, singular, filler removed, material and
attribute modifiers split from the head noun (``wool sweaters`` →
``wool``, ``sweater``) and negation kept inside the object (``plastic-free``).
The category is a function of the keywords alone, so one object gets one
category whatever the verb or the sentence.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Literal

from .blocks import strip_injected_blocks
from .normalize import has_cjk, singular, to_simplified
from .records import Polarity, PreferenceCandidate

logger = logging.getLogger(__name__)

RULE_CONFIDENCE = 0.6
"""Confidence of a rule-captured preference (below a tool call's default 0.7)."""

MAX_CAPTURE_CHARS = 20_000
"""Only this many characters of a message are read (capture sits on every turn's hot path)."""

MAX_OBJECT_CHARS = 80
"""A longer object is a description, not a preference object: it yields nothing."""

_OBJECT_WINDOW = 4 * MAX_OBJECT_CHARS  # characters after the verb worth reading

# --------------------------------------------------------------------------------------------
# Lexicons (extend freely; every entry is lower case)
# --------------------------------------------------------------------------------------------

MATERIALS: frozenset[str] = frozenset(
    "plastic wool leather canvas cotton silk linen polyester nylon metal steel aluminium "
    "aluminum wood glass bamboo paper ceramic rubber denim suede cashmere velvet fleece "
    "acrylic porcelain cardboard stone marble concrete copper brass iron titanium gold silver "
    "vinyl latex foam hemp jute cork clay fur down spandex lycra rayon viscose satin tweed "
    "corduroy merino alpaca mohair jersey chiffon lace straw wicker rattan".split()
)
"""Materials: a leading material modifier becomes its own keyword."""

ATTRIBUTE_MODIFIERS: frozenset[str] = frozenset(
    "vegan organic spicy sweet salty sour bitter decaf sugary greasy vegetarian recycled "
    "reusable disposable handmade secondhand second-hand vintage cheap expensive luxury "
    "synthetic natural biodegradable compostable refurbished eco".split()
)
"""Attributes that, like materials, become keywords of their own."""

MODIFIER_ALIASES: dict[str, str] = {
    "wooden": "wood",
    "woolen": "wool",
    "woollen": "wool",
    "metallic": "metal",
    "golden": "gold",
    "silken": "silk",
    "leathern": "leather",
}
"""Adjective forms of materials, mapped to the material noun."""

NEGATING_MODIFIERS: frozenset[str] = frozenset({"faux", "fake", "vegan", "imitation"})
"""Before a material they negate it (``vegan leather`` is not leather): kept joined."""

WHOLE_COMPOUNDS: frozenset[str] = frozenset(
    {
        "sweet potato",
        "cotton candy",
        "heavy metal",
        "stainless steel",
        "sweet corn",
        "glass noodle",
        "rubber duck",
        "paper towel",
        "silk road",
        "sour cream",
        "sweet pepper",
        "sweet and sour",
        "steel drum",
        "down jacket",
    }
)
"""Phrases that look like modifier + noun but name one thing; kept whole."""

AND_COMPOUNDS: tuple[str, ...] = (
    "rock and roll",
    "rock n roll",
    "mac and cheese",
    "macaroni and cheese",
    "fish and chips",
    "salt and pepper",
    "salt and vinegar",
    "sweet and sour",
    "black and white",
    "bed and breakfast",
    "peanut butter and jelly",
    "rhythm and blues",
    "drum and bass",
    "bread and butter",
    "cheese and onion",
    "strawberries and cream",
    "r&b",
)
"""Names containing "and" that must not be split into two objects."""

STOP_WORDS: frozenset[str] = frozenset(
    "a an the some any all my our your his her their its this that these those more most much "
    "many lot lots really very so too just also even kind kinds sort sorts type types stuff "
    "thing things anything something everything item items product products one ones kinda "
    "such other certain good nice great new own whole every each fresh few little bit pretty "
    "quite rather super extra actually especially particularly generally to both".split()
)
"""Words that never make (or help make) a keyword."""

_FRAME_NOUNS = (
    "smell|scent|aroma|odou?r|taste|flavou?r|sound|texture|feel|look|sight|idea|thought|"
    "concept|kinds?|sorts?|types?|lots?|bunch|cups?|glass(?:es)?|mugs?|bowls?|pieces?|bits?|"
    "pairs?|bottles?|cans?|slices?|plates?|variety|anything|things|stuff|products|items|"
    "brands?|styles?"
)

CATEGORY_PRIORITY: tuple[str, ...] = tuple(
    "material food brand music sport travel budget style color".split()
)
"""When an object's keywords suggest several categories, the first one here wins."""

CATEGORY_WORDS: dict[str, frozenset[str]] = {
    "material": MATERIALS,
    "food": frozenset(
        "food tea coffee chocolate peanut nut pork beef chicken fish meat seafood shrimp prawn "
        "sushi pizza pasta rice noodle bread cheese milk dairy egg gluten sugar salt spice "
        "curry cilantro coriander garlic onion mushroom tomato potato fruit apple banana mango "
        "strawberry durian wine beer alcohol juice soda cola latte espresso cappuccino matcha "
        "vegetable veggie salad soup cake dessert candy snack chip fry fries burger steak lamb "
        "tofu bean lentil oat cereal yogurt yoghurt honey vinegar olive avocado berry cherry "
        "lemon ginger wasabi kimchi ramen dumpling taco burrito sandwich cookie biscuit pie "
        "bacon ham sausage turkey duck crab lobster oyster clam tuna salmon cod anchovy "
        "shellfish lactose caffeine decaf spicy sweet salty sour bitter sugary greasy vegan "
        "organic vegetarian cuisine dish meal breakfast lunch dinner brunch drink beverage "
        "smoothie soy almond cashew walnut pistachio hazelnut sesame corn pepper chili chilli "
        "jalapeno broccoli spinach kale carrot cucumber eggplant pumpkin coconut pineapple "
        "grape watermelon peach pear plum kiwi lime mint basil cinnamon vanilla caramel gum "
        "popcorn cream butter whisky whiskey vodka gin rum sake cocktail chai mocha bagel "
        "croissant donut doughnut pancake waffle cilantro liquorice licorice mayo mayonnaise "
        "ketchup mustard truffle pho curry barbecue bbq".split()
    ),
    "brand": frozenset(
        "nike adidas puma reebok samsung sony ikea zara uniqlo h&m gucci prada patagonia lego "
        "starbucks coca-cola pepsi toyota tesla lululemon muji converse nintendo "
        "huawei xiaomi lenovo dell hp asus bose canon nikon bmw audi mercedes volkswagen honda "
        "nissan ford microsoft google netflix spotify dyson philips panasonic lg sennheiser "
        "beats fitbit garmin gopro playstation xbox iphone ipad macbook airpods pixel "
        "mcdonald's mcdonalds kfc nestle nespresso heinz oreo".split()
    ),
    "music": frozenset(
        "music jazz rock pop hip-hop rap classical blues soul country techno edm opera folk "
        "reggae punk indie k-pop r&b song album band concert playlist orchestra "
        "symphony".split()
    )
    | frozenset(
        {
            "heavy metal",
            "rock and roll",
            "rock n roll",
            "hip hop",
            "drum and bass",
            "rhythm and blues",
        }
    ),
    "sport": frozenset(
        "sport football soccer basketball baseball tennis golf running jogging hiking cycling "
        "biking swimming yoga pilates gym workout climbing skiing snowboarding surfing boxing "
        "karate cricket rugby volleyball badminton marathon crossfit".split()
    ),
    "travel": frozenset(
        "travel traveling travelling trip flight flying plane airplane train cruise hotel "
        "hostel airbnb beach mountain camping resort seat layover airport backpacking museum "
        "sightseeing tour".split()
    ),
    "budget": frozenset(
        "cheap expensive budget affordable luxury luxurious pricey price discount sale deal "
        "bargain premium high-end low-cost".split()
    ),
    "style": frozenset(
        "style minimalist minimalism vintage retro classic casual formal boho bohemian "
        "streetwear preppy elegant sporty modern rustic design fashion clothes clothing dress "
        "shirt t-shirt sweater jumper hoodie jacket coat jeans pants trousers skirt shoe boot "
        "sneaker sandal heel loafer bag tote handbag backpack purse wallet scarf hat cap sock "
        "glove jewelry jewellery necklace ring earring watch sunglasses pattern print floral "
        "stripe plaid furniture".split()
    ),
    "color": frozenset(
        "color colour red blue green yellow black white pink purple grey gray brown beige navy "
        "teal turquoise maroon orange pastel neon".split()
    ),
}
"""English category lexicon: a keyword, or its head (last) word, found here."""

BRAND_HOMONYMS: frozenset[str] = frozenset(
    "apple blackberry amazon orange mango gap shell target subway jaguar dove corona tide visa "
    "puma ikea".split()
)
"""Common nouns that are also big brands: a brand when a brand context follows (``apple
products``) or when written as a name (``Apple``)."""

BRAND_CONTEXT: frozenset[str] = frozenset(
    "product products phone phones smartphone smartphones laptop laptops computer computers "
    "device devices gadget gadgets headphones earphones earbuds car cars store stores shop "
    "shops brand brands watch watches tablet tablets tv tvs console consoles stuff gear "
    "ecosystem app apps".split()
)
"""Nouns after which the word before names a brand (``Apple products``, ``Sony headphones``)."""

_NOT_NAMES = frozenset(
    "i i'm i've i'd i'll monday tuesday wednesday thursday friday saturday sunday january "
    "february march april may june july august september october november december christmas "
    "easter halloween thanksgiving thai french greek dutch swiss german irish welsh scottish "
    "english british spanish polish turkish danish finnish swedish".split()
)
_DEMONYM_SUFFIXES = ("ese", "ian", "ean", "can")
"""Capitalised words that are not brand names (days, months, nationalities)."""

ZH_CATEGORY_TERMS: dict[str, tuple[str, ...]] = {
    "material": tuple(
        "塑料 塑胶 帆布 皮革 真皮 皮质 羊毛 羊绒 纯棉 棉质 全棉 "
        "棉麻 丝绸 真丝 亚麻 涤纶 聚酯 尼龙 金属 不锈钢 铝 木头 "
        "木质 实木 竹 玻璃 陶瓷 纸质 橡胶 牛仔布 麂皮 羽绒 硅胶".split()
    ),
    "food": tuple(
        "辣 甜 咸 酸 苦 香菜 花生 坚果 肉 鱼 虾 蟹 海鲜 蛋 奶 "
        "乳糖 麸质 咖啡 茶 酒 饮料 可乐 果汁 饭 面条 拉面 面食 "
        "菜 水果 蔬菜 巧克力 糖 零食 甜点 蛋糕 火锅 寿司 烧烤 葱 "
        "蒜 姜 榴莲 芒果 苹果 香蕉 草莓 豆腐 牛排 汤 饺子 包子 "
        "米饭 大米 油腻 油炸 清淡 素食 味精".split()
    ),
    "brand": tuple("耐克 阿迪达斯 优衣库 宜家 星巴克 华为 无印良品 乐高".split()),
    "music": tuple("音乐 爵士 摇滚 古典 流行乐 说唱 嘻哈 民谣 歌 演唱会".split()),
    "sport": tuple(
        "运动 跑步 篮球 足球 网球 羽毛球 乒乓 游泳 瑜伽 健身 爬山 徒步 骑行 滑雪 登山".split()
    ),
    "travel": tuple("旅行 旅游 海边 飞机 航班 火车 高铁 酒店 民宿 露营".split()),
    "budget": tuple("便宜 贵 性价比 实惠 奢侈 打折 价格 预算".split()),
    "style": tuple(
        "包 衣服 裙 鞋 外套 衬衫 毛衣 t恤 裤 帽 袜 围巾 首饰 "
        "款式 风格 简约 复古 极简 休闲 家具".split()
    ),
    "color": tuple(
        "颜色 红色 蓝色 绿色 黄色 黑色 白色 粉色 紫色 灰色 棕色 米色 橙色 金色 银色".split()
    ),
}
"""Chinese category lexicon: a keyword containing one of these terms."""

ZH_MODIFIERS: tuple[str, ...] = tuple(
    sorted(
        set(ZH_CATEGORY_TERMS["material"])
        | set(
            "塑料 塑胶 木 木头 木质 实木 皮 皮革 真皮 皮质 帆布 棉 纯棉 棉质 全棉 羊毛 "
            "羊绒 丝 丝绸 真丝 玻璃 金属 不锈钢 铝 竹 竹制 纸 纸质 陶瓷 "
            "橡胶 硅胶 尼龙 涤纶 聚酯 亚麻 "
            "辣 麻辣 甜 有机 素 低糖 无糖 低脂 脱脂 全脂 进口 二手 手工 一次性 环保".split()
        ),
        key=len,
        reverse=True,
    )
)
"""Chinese material and attribute modifiers split from the head noun they lead:
``塑料盒子`` → ``塑料``, ``盒子`` (like ``plastic boxes`` → ``plastic``, ``box``)."""

ZH_WHOLE_COMPOUNDS: tuple[str, ...] = tuple(
    "棉花 棉袄 棉被 木瓜 木耳 木马 木偶 木星 皮蛋 皮肤 皮卡 皮影 皮带 皮球 皮筋 甜甜圈 甜品 "
    "甜点 甜菜 甜瓜 甜心 甜言 甜酒 辣椒 辣条 辣酱 辣妹 竹笋 竹子 竹叶 纸巾 纸张 纸币 丝瓜 "
    "丝袜 丝巾 素食 素质 素材 素描 麻婆 金属乐 玻璃心 有机物 "
    "手工艺 进口商 环保主义".split()
)
"""Words that start with a modifier but name one thing (``辣椒`` is chilli, not spicy ``椒``)."""

_ZH_DROPPED_HEADS = frozenset("制品 产品 用品 材质 材料 味 口味 味道 制 质 类 食品".split())
"""A head left after the modifier that adds nothing (``塑料制品`` → ``塑料``)."""

# --------------------------------------------------------------------------------------------
# Stance rules
# --------------------------------------------------------------------------------------------

Copula = Literal["no", "ok", "required"]


@dataclass(frozen=True)
class _Rule:
    """One way of stating a stance.

    ``label`` renders the content from ``{obj}`` (and ``{verb}``, the rule's
    ``verb`` group or, without one, its whole match). Without an ``obj`` group
    the object is the rest of the clause after the match. ``copula`` says
    whether "am"/"'m" may stand between "I" and the match; ``third_person``
    rules never yield a candidate, they only mark someone else speaking and
    provide an antecedent ("my friend loves sushi, but I hate it"). An
    ``elliptic`` rule names no object (``…, I'm allergic``): it refers to the
    object mentioned last in the message, if any.
    """

    pattern: re.Pattern[str]
    polarity: Polarity
    label: str
    copula: Copula = "no"
    comparative: bool = False
    third_person: bool = False
    first_person: bool = False
    elliptic: bool = False


def _en(
    source: str,
    polarity: Polarity,
    label: str,
    *,
    copula: Copula = "no",
    comparative: bool = False,
    third_person: bool = False,
    first_person: bool = False,
    elliptic: bool = False,
) -> _Rule:
    pattern = re.compile(source, re.IGNORECASE)
    return _Rule(
        pattern, polarity, label, copula, comparative, third_person, first_person, elliptic
    )


def _zh(
    source: str, polarity: Polarity, label: str = "{verb}{obj}", *, first_person: bool = False
) -> _Rule:
    return _Rule(re.compile(source), polarity, label, first_person=first_person)


_NT = r"(?:n'?t|\s+not)"  # don't / dont / do not
_CANT = r"can(?:'?t|not|\s+not)"
_ADV = r"(?:(?:really|particularly|much|actually|even|exactly|ever|usually|normally)\s+)?"
_FAN = r"(?:an?\s+)?(?:(?:really\s+|very\s+)?(?:big|huge|massive|great|total|long-?time)\s+)?fan"
_FAV = r"(?:absolute\s+|all[-\s]time\s+|personal\s+|current\s+)?(?:favou?rite|fave|fav)s?"
_EN_USE_VERBS = r"eat|drink|wear|use|buy|order|touch|consume"

EN_RULES: tuple[_Rule, ...] = (
    _en(rf"\bnot\s+{_ADV}(?:much\s+of\s+)?{_FAN}\s+of\b", "dislike", "dislikes {obj}", copula="ok"),
    _en(rf"\b(?:(?:'ve|have)\s+)?never\s+been\s+{_FAN}\s+of\b", "dislike", "dislikes {obj}"),
    _en(
        r"\b(?:not|no\s+longer)\s+(?:(?:really|that|so|too|very|much|big)\s+)?into\b",
        "dislike",
        "dislikes {obj}",
        copula="required",
    ),
    _en(
        r"\bnot\s+(?:(?:very|too|that|particularly|really)\s+)?(?:fond\s+of|keen\s+on|"
        r"interested\s+in)\b",
        "dislike",
        "dislikes {obj}",
        copula="ok",
    ),
    _en(rf"\bdo{_NT}\s+{_ADV}(?:like|love|enjoy|care\s+for)\b", "dislike", "dislikes {obj}"),
    _en(rf"\bdo{_NT}\s+{_ADV}want\b", "dislike", "doesn't want {obj}"),
    _en(rf"\bdo{_NT}\s+{_ADV}(?P<verb>{_EN_USE_VERBS})\b", "dislike", "doesn't {verb} {obj}"),
    _en(
        rf"\bdo{_NT}\s+(?:ever\s+)?(?:recommend|suggest|show|offer|send|give)(?:\s+me)?\b",
        "dislike",
        "doesn't want {obj}",
    ),
    _en(rf"\bnever\s+(?:really\s+)?(?P<verb>{_EN_USE_VERBS})\b", "dislike", "doesn't {verb} {obj}"),
    _en(
        r"\b(?:(?:'ve|have)\s+)?never\s+(?:really\s+)?(?:liked|loved|enjoyed|cared\s+for)\b",
        "dislike",
        "dislikes {obj}",
    ),
    _en(r"\bno\s+longer\s+(?:like|love|enjoy|care\s+for)\b", "dislike", "dislikes {obj}"),
    _en(rf"\bno\s+longer\s+(?P<verb>want|{_EN_USE_VERBS})\b", "dislike", "doesn't {verb} {obj}"),
    _en(r"\b(?:(?:'ve|have)\s+always\s+)?(?:hated|disliked)\b", "dislike", "dislikes {obj}"),
    _en(r"\b(?:dislike|hate|detest|loathe|despise|abhor)\b", "dislike", "dislikes {obj}"),
    _en(rf"\b{_CANT}\s+(?:stand|bear|stomach|tolerate|handle)\b", "dislike", "dislikes {obj}"),
    _en(rf"\b{_CANT}\s+(?P<verb>eat|drink|have|digest)\b", "dislike", "can't {verb} {obj}"),
    _en(r"\bavoid(?:ing)?\b", "dislike", "avoids {obj}"),
    _en(r"\ballergic\s+to\b", "dislike", "allergic to {obj}", copula="ok"),
    _en(r"\ballergic(?=\W*$)", "dislike", "allergic to {obj}", copula="ok", elliptic=True),
    _en(
        r"\b(?:have|'ve\s+got|got)\s+an?\s+(?:(?:severe|mild|bad|serious)\s+)?"
        r"(?P<obj>[a-z][a-z -]{0,30}?)\s+allergy\b",
        "dislike",
        "allergic to {obj}",
    ),
    _en(r"\bhave\s+an?\s+(?:\w+\s+)?allergy\s+to\b", "dislike", "allergic to {obj}"),
    _en(
        r"\b(?!(?:am|so|very|really|not|be|is|are|i|severely)\b)(?P<obj>[a-z]+)\s+intolerant\b",
        "dislike",
        "intolerant to {obj}",
        copula="ok",
    ),
    _en(r"\bintolerant\s+(?:to|of)\b", "dislike", "intolerant to {obj}", copula="ok"),
    _en(r"\b(?:sick|tired)\s+of\b", "dislike", "dislikes {obj}", copula="required"),
    _en(r"\bno\s+more\b", "dislike", "doesn't want {obj}"),
    _en(
        r"\bstop\s+(?:recommending|suggesting|showing|offering|sending|giving)(?:\s+me)?\b",
        "dislike",
        "doesn't want {obj}",
    ),
    _en(
        r"\b(?:'d|would)\s+rather\s+not\s+(?:have|eat|drink|use|get|wear|see|buy)\b",
        "dislike",
        "avoids {obj}",
    ),
    _en(
        r"\b(?:likes|loves|adores|enjoys|prefers|is\s+into|is\s+a\s+(?:big\s+|huge\s+)?fan\s+of)\b",
        "like",
        "likes {obj}",
        third_person=True,
    ),
    _en(
        rf"\b(?:hates|dislikes|detests|(?:does|is|was){_NT}\s+(?:like|eat|drink|want))\b",
        "dislike",
        "dislikes {obj}",
        third_person=True,
    ),
    _en(  # a diet the user keeps: "I'm vegetarian", "I am a strict vegan"
        r"\b(?:an?\s+)?(?:(?:strict|strictly|fully|mostly)\s+)?"
        r"(?=(?:vegetarian|vegan|pescatarian|pescetarian|flexitarian)\b)",
        "like",
        "is {obj}",
        copula="required",
    ),
    _en(rf"\b{_FAN}\s+of\b", "like", "likes {obj}", copula="ok"),
    _en(r"\binto\b", "like", "likes {obj}", copula="required"),
    _en(
        r"\b(?:obsessed\s+with|crazy\s+about|fond\s+of|partial\s+to)\b",
        "like",
        "likes {obj}",
        copula="ok",
    ),
    _en(rf"\b{_CANT}\s+get\s+enough\s+of\b", "like", "likes {obj}"),
    _en(
        r"\b(?:'ve|have)\s+always\s+(?:liked|loved|enjoyed|preferred|adored)\b",
        "like",
        "likes {obj}",
    ),
    _en(
        r"\b(?:'d|would)\s+(?:much\s+|really\s+|always\s+)?(?:prefer|rather\s+(?:have|eat|"
        r"drink|use|get|wear|buy))\b",
        "like",
        "likes {obj}",
        comparative=True,
    ),
    _en(r"\bprefer\b", "like", "likes {obj}", comparative=True),
    _en(r"\b(?:like|love|adore|enjoy)\b", "like", "likes {obj}"),
    _en(
        rf"\bmy\s+{_FAV}(?:\s+[a-z][a-z -]{{0,30}}?)?\s+(?:is|are|has\s+to\s+be|would\s+be)\s+"
        r"(?P<obj>.+)",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    _en(
        r"(?:^|[,;]\s*)(?P<obj>[^,;]{1,60}?)\s+(?:is|are|'s|'re)\s+(?:(?:definitely|probably|still|"
        rf"totally|always|really)\s+)?(?:one\s+of\s+)?my\s+{_FAV}\b",
        "like",
        "likes {obj}",
        first_person=True,
    ),
)
"""English stance rules; the earliest match in a clause wins, then the longest."""

_ZH_NOT_LOVE = r"(?<![可恋亲热宠关博友溺挚偏钟酷])"
ZH_RULES: tuple[_Rule, ...] = (
    _zh(r"我?最喜欢的[^是，,]{0,8}是(?P<obj>.+)", "like", "最喜欢{obj}", first_person=True),
    _zh(r"我的(?:爱好|兴趣)是(?P<obj>.+)", "like", "喜欢{obj}", first_person=True),
    _zh(
        r"(?P<obj>[^，,。]{1,20}?)是我的?(?:最爱|最喜欢的)", "like", "喜欢{obj}", first_person=True
    ),
    _zh(
        r"对(?P<obj>[^，,。]{1,20}?)(?:有点|有些|严重|非常|很|都|也)?过敏", "dislike", "对{obj}过敏"
    ),
    _zh(r"(?P<obj>[^对，,。]{0,20}?)过敏(?!原)", "dislike", "对{obj}过敏"),
    _zh(
        r"不(?:是很|是太|是特别|是那么|太|怎么|大|那么|很|是)?(?:喜欢|爱(?:吃|喝|穿|用)?)"
        r"|没(?:那么|有那么|怎么)喜欢",
        "dislike",
    ),
    _zh(
        r"(?:不再|再也不|(?:已经|早就|早已|从此|现在)不再|早就不|早已不)(?:是很|太|那么|怎么)?"
        r"(?:喜欢|爱(?:吃|喝|穿|用)?|想要?再?(?:吃|喝|用|买|穿)?|要|吃|喝|穿|用|买|碰)",
        "dislike",
    ),
    _zh(
        r"讨厌|厌恶|反感|受不了|忍受不了|接受不了|忍不了|吃不了|喝不了|吃不惯|喝不惯|"
        r"不能吃|不能喝|不敢吃|不想要|不想再?(?:吃|喝|用|买)|戒掉了|戒了|戒掉",
        "dislike",
    ),
    _zh(r"(?:不要再?|别再?)(?:给我)?推荐", "dislike"),
    _zh(r"不要|不吃|不喝|不穿|不用|不买|不碰", "dislike"),
    _zh(
        rf"最喜欢|(?:喜欢|迷)上了?|爱上了|喜欢|偏好|偏爱|钟爱|热爱|酷爱|迷恋|{_ZH_NOT_LOVE}爱(?:吃|喝|穿|用|看|听|玩)"
        rf"|{_ZH_NOT_LOVE}爱(?![好人情心护惜国戴])",
        "like",
    ),
)
"""Chinese stance rules (matched on simplified text); same precedence as English."""

# --------------------------------------------------------------------------------------------
# Who is speaking: what may stand before the verb
# --------------------------------------------------------------------------------------------

_EN_FILLERS = frozenset(
    "actually honestly frankly personally really truly genuinely seriously totally absolutely "
    "definitely certainly just also too still always generally usually normally mostly kinda "
    "kind of sort quite pretty very so do and but oh well ok okay yeah yes no hey hmm um uh "
    "now nowadays lately recently today anyway anyways though btw fyi tbh then sometimes often "
    "already simply strongly deeply severely mildly slightly deathly highly extremely super "
    "terribly think guess believe try tend to all certainly plus especially please".split()
)
_EN_PREFIX_PHRASES = re.compile(
    r"\b(?:just\s+so\s+you\s+know|you\s+know|to\s+be\s+honest|for\s+the\s+record|"
    r"by\s+the\s+way|as\s+you\s+know|as\s+i\s+(?:said|mentioned)|like\s+i\s+said|"
    r"i\s+told\s+you|i\s+(?:must|have\s+to|gotta|got\s+to)\s+say|i'll\s+be\s+honest|"
    r"(?:please\s+)?(?:remember|note|keep\s+in\s+mind)(?:\s+that)?|"
    r"do(?:n'?t|\s+not)\s+forget(?:\s+that)?|i\s+want\s+you\s+to\s+know(?:\s+that)?|"
    r"you\s+should\s+know(?:\s+that)?|in\s+general|to\s+be\s+fair|these\s+days|"
    r"at\s+the\s+moment|right\s+now|most\s+of\s+the\s+time|for\s+sure|of\s+course|"
    r"if\s+i(?:'m|\s+am)\s+honest)\b",
    re.IGNORECASE,
)
_EN_STALE_PHRASES = re.compile(
    r"\b(?:back\s+then|as\s+a\s+(?:kid|child|teen|teenager)|in\s+the\s+past|"
    r"when\s+i\s+was\s+(?:young(?:er)?|a\s+kid|a\s+child|little))\b",
    re.IGNORECASE,
)
_EN_STALE_WORDS = frozenset({"used", "once", "formerly", "previously"})
_EN_TOKEN_RE = re.compile(r"[a-z]+|'[a-z]+")

_ZH_FILLERS = tuple(
    sorted(
        (
            "真的 真 很 特别 非常 超级 超 挺 蛮 比较 更 还是 一直 也 都 就 其实 平时 向来 从来 "
            "从 最近 现在 今天 如今 目前 已经 再也 一点也 一点都 实在 确实 真心 完全 根本 绝对 "
            "说实话 老实说 顺便说一下 顺便说 顺便 跟你说 告诉你 个人 啊 呀 嗯 哦 哈 反正 而且 "
            "并且 另外 还有 然后 但是 可是 不过 对了 请记住 记住 记得 不要忘了 别忘了 不要忘记 "
            "别忘记 你要知道 要知道 你知道 一般 通常 总是 老是 一向 始终 仍然 依然 还 又 所以 "
            "因此 哎 唉 诶 说真的 坦白说 坦白讲 觉得 我觉得 并 一贯 越来越 开始 慢慢 后来 "
            "但 而 那 本人"
        ).split(),
        key=len,
        reverse=True,
    )
)
_ZH_FILLER_RE = re.compile("|".join(map(re.escape, _ZH_FILLERS)))
_ZH_STALE_RE = re.compile(r"以前|之前|过去|曾经|原来|小时候|本来|以往|当年|那时候|那时|从前|年轻时")
_ZH_OTHER_SUBJECT_RE = re.compile(
    r"^(?:[^\w]*)(?:我们|咱们|我的?(?:朋友|妈|爸|老婆|老公|女朋友|男朋友|孩子|儿子|女儿|家人|"
    r"同事|室友|姐|哥|弟|妹|爷|奶|外婆|外公|丈夫|妻子|先生|太太|宝宝|老板|领导|闺蜜|对象)|"
    r"他|她|它|你|您|大家|别人|人家|朋友|家人|孩子|有人|很多人|有些人)"
)
_EN_OTHER_SUBJECTS = frozenset(
    "my he she they we you his her their our people everyone everybody someone somebody "
    "nobody most many kids friends".split()
)

Speaker = Literal["user", "other", "stale", "unknown"]


def _en_prefix_speaker(prefix: str, rule: _Rule) -> Speaker:
    """Who is speaking, judged from the words before the matched verb."""
    text = _EN_PREFIX_PHRASES.sub(" ", prefix.lower())
    stale = bool(_EN_STALE_PHRASES.search(text))
    subject = False
    for token in _EN_TOKEN_RE.findall(_EN_STALE_PHRASES.sub(" ", text)):
        if token == "i":
            subject = True
        elif token in ("'m", "am") and rule.copula != "no":
            continue
        elif token in _EN_STALE_WORDS:
            stale = True
        elif token not in _EN_FILLERS:
            return "other"
    if rule.copula == "required" and not re.search(r"'m\b|\bam\b", text):
        return "other"
    return "stale" if stale else ("user" if subject or rule.first_person else "unknown")


def _zh_prefix_speaker(prefix: str, rule: _Rule) -> Speaker:
    """Who is speaking in Chinese, judged from the text before the matched verb."""
    if _ZH_OTHER_SUBJECT_RE.search(prefix):
        return "other"
    stale = bool(_ZH_STALE_RE.search(prefix))
    rest = _ZH_FILLER_RE.sub("", _ZH_STALE_RE.sub("", prefix))
    subject = "我" in rest or "本人" in prefix
    rest = re.sub(r"[我\W_]", "", rest)
    if rest:
        return "other"
    return "stale" if stale else ("user" if subject or rule.first_person else "unknown")


# --------------------------------------------------------------------------------------------
# Sentences and clauses
# --------------------------------------------------------------------------------------------

_SENTENCE_SPLIT_RE = re.compile(r"(?<=[!?。])\s*|(?<=\.)\s+|\n+")
_EN_CLAUSE_SPLIT_RE = re.compile(
    r"\s*;\s*"
    r"|,?\s+(?:but|however|whereas|although|though|yet|while)\b,?\s*"
    r"|,\s*(?=(?:and\s+)?(?:i|i'm|i've|i\s+am|now|these\s+days|nowadays|lately)\b)"
    r"|,?\s+and\s+(?=(?:(?:also|really|totally|absolutely|definitely|still)\s+)?"
    r"(?:i|i'm|i've|hate|love|like|prefer|dislike|enjoy|adore|avoid|can'?t|cannot|don'?t|"
    r"do\s+not|never|no\s+longer)\b)"
    r"|\s+(?=now\s+i\b)",
    re.IGNORECASE,
)
_ZH_CLAUSE_SPLIT_RE = re.compile(
    r"[，,；;：:]|但是|可是|不过|然而|而且|并且|但(?!是)|(?<=[^，,])(?=现在|如今|目前|后来)"
)
_EN_WH_WORDS = frozenset("what why how who whom whose where when which".split())
_EN_QUESTION_WORDS = frozenset(
    "what's whats how's who's where's why's do does did can could would will should shall is "
    "are am was were have has had may might isn't aren't wasn't weren't wanna".split()
)
_EN_NEG_AUX = frozenset(
    "don't dont doesn't didn't can't cant won't wouldn't shouldn't couldn't".split()
)
_PRONOUNS = frozenset("you we they he she i it u".split())
_EN_LEAD_FILLERS = frozenset(
    "so and but well hey oh ok okay um uh hmm btw also then anyway hi hello actually".split()
)
_EN_HYPOTHETICAL = frozenset("if suppose supposing imagine assuming hypothetically unless".split())
_ZH_QUESTION_RE = re.compile(
    r"[吗么][\W]*$|什么|怎么|为什么|哪|谁|多少|如何|是否|有没有|是不是|([\u4e00-\u9fff])不\1"
)
_ZH_HYPOTHETICAL_RE = re.compile(r"如果|要是|假如|假设|万一|倘若|如若|假使|的话")


def _sentences(text: str) -> Iterator[str]:
    for sentence in _SENTENCE_SPLIT_RE.split(text):
        if sentence and sentence.strip():
            yield sentence.strip()


def _is_question_or_hypothetical(sentence: str) -> bool:
    """Questions, and sentences that only imagine a preference, state nothing."""
    if sentence.rstrip().endswith("?"):
        return True
    if has_cjk(sentence):
        return bool(_ZH_QUESTION_RE.search(sentence) or _ZH_HYPOTHETICAL_RE.search(sentence))
    tokens = re.findall(r"[a-z']+", sentence.lower())
    while tokens and tokens[0] in _EN_LEAD_FILLERS:
        tokens.pop(0)
    if not tokens:
        return False
    first, following = tokens[0], tokens[1] if len(tokens) > 1 else ""
    if first in _EN_HYPOTHETICAL or (first == "do" and following != "not"):
        return True
    if first in _EN_WH_WORDS:  # "when I travel, I prefer …" is no question
        return following in _EN_QUESTION_WORDS
    if first in _EN_QUESTION_WORDS and first != "do":
        return True
    return first in _EN_NEG_AUX and following in _PRONOUNS


def _clauses(sentence: str) -> list[str]:
    pattern = _ZH_CLAUSE_SPLIT_RE if has_cjk(sentence) else _EN_CLAUSE_SPLIT_RE
    return [c.strip() for c in pattern.split(sentence) if c and c.strip()]


# --------------------------------------------------------------------------------------------
# Objects: cutting the object out of a clause, and resolving pronouns
# --------------------------------------------------------------------------------------------

_EN_HARD_STOP_RE = re.compile(r"[;:()\[\]!?\"“”]|\s[-–—]\s|[–—]|\.\.\.|\.(?:\s|$)")
_EN_SOFT_STOP_RE = re.compile(
    r"\s+(?:because|since|as|when|whenever|while|if|unless|so|which|who|where|though|"
    r"although|but|especially|such\s+as|like|for|and\s+then|then|cause|cuz|coz|until|"
    r"whereas|except|anyway)\b.*$",
    re.IGNORECASE,
)
_EN_COMPARATIVE_RE = re.compile(
    r"\s+(?:to|over|than|instead\s+of|rather\s+than|more\s+than)\b.*$", re.IGNORECASE
)
_EN_CLAUSE_STARTERS = frozenset(
    "they it it's its which that because since so but especially as though although if when "
    "please thanks thank lol haha i i'm you we he she too either anymore really honestly "
    "actually right ok okay not no there this these those what why how".split()
)
_EN_TRAILING_RE = re.compile(
    r"(?:\s+(?:anymore|any\s+more|either|too|as\s+well|please|at\s+all|so\s+much|a\s+lot|"
    r"very\s+much|the\s+most|most|lately|nowadays|these\s+days|now|today|really|though|"
    r"honestly|actually|in\s+general|generally|best|more|much|all\s+the\s+time|lol|haha|tbh|"
    r"ok|okay|a\s+ton|personally|myself|instead|again|whatsoever|anyway|either\s+way|"
    r"from\s+now\s+on|ever\s+again|ever|any\s+longer|no\s+more))+\s*$",
    re.IGNORECASE,
)
_EN_EDGE_SYMBOLS_RE = re.compile(r"^[^\w$£€]+|[^\w)%]+$")
_EN_PRONOUN_OBJECTS = frozenset(
    {"it", "them", "that", "this", "those", "these", "that one", "this one", "one"}
)
_EN_BAD_OBJECT_RE = re.compile(
    r"^(?:you|your|yours|yourself|him|her|his|hers|us|me|myself|we|our|ours|they|their|when|"
    r"whenever|how|what|why|where|who|whether|if|not|no|nothing|none|there|here|because|so|"
    r"just|being|it\s+\w|(?:that|this)\s+(?:you|i|we|he|she|they|it|people|there)\b|"
    r"to\s+(?:say|admit|tell|bother|ask|interrupt|break|complain|be|see|hear|think|know|"
    r"have\s+to|go|do)\b)\b",
    re.IGNORECASE,
)
_EN_NOT_TO_RE = re.compile(
    r"^not\s+(?:to\s+)?(?:eat|drink|use|wear|buy|have|get)(?:ing)?\s+(?P<rest>.+)$",
    re.IGNORECASE,
)

_ZH_STOP_RE = re.compile(r"[，,。.！!？?；;：:…~]|因为|所以|如果|因此|虽然|但是|不过|可是|而且")
_ZH_PARTICLES = "了啦呢啊呀哦吧嘛哈哟喔噢咯诶欸"
_ZH_TRAILING_RE = re.compile(rf"[{_ZH_PARTICLES}\s]+$")
_ZH_LEADING_RE = re.compile(
    r"^(?:吃|喝|穿|用|玩|看|听|去|买|戴|坐|住|太|那么|这么|很|都|一些|一点|些|那种|这种|各种|"
    r"所有|任何|一切|再|给我|推荐|被|着|了|的|我|有(?!机)|是|也|还|就|这类|那类)+"
)
_ZH_KEYWORD_TRAILING_RE = re.compile(
    rf"(?:[{_ZH_PARTICLES}的]|东西|之类的?|什么的|等等|等|这种|那种|这些|那些|一类|类的)+$"
)
_ZH_GENERIC = frozenset(
    "东西 菜 食物 饭菜 菜肴 口味 味道 产品 款式 款 类型 样式 玩意 玩意儿 种 类 的".split()
)
_ZH_PRONOUN_OBJECTS = frozenset("它 它们 这个 那个 这些 那些 这 那 这种 那种".split())
_ZH_BAD_OBJECT_RE = re.compile(
    r"^(?:你|您|他|她|自己|别人|紧|客气|担心|着急|忘|说|讲|问|管|打扰|走|生气|害怕|怕|急|"
    r"骗|这样|那样|谢谢|麻烦|烦|吵|等|回答|解释|重复)"
)


@dataclass(frozen=True)
class _Object:
    """What a stance is about: the words shown in content, and the language.

    ``initial`` marks an object that starts its clause (``Apple is my
    favourite``), where a capital letter says nothing about a name.
    """

    display: str
    zh: bool
    initial: bool = False


@dataclass
class _Context:
    """What one message has established so far (antecedent, current speaker)."""

    antecedent: _Object | None = None
    mentioned: _Object | None = None  # the last object named, with or without a stance
    speaker: Speaker = "user"
    found: list[PreferenceCandidate] = field(default_factory=list)


def _en_object_text(raw: str, rule: _Rule) -> str:
    """The object's words: cut at the first clause boundary, fillers trimmed."""
    text = _EN_HARD_STOP_RE.split(raw[:_OBJECT_WINDOW].strip(), maxsplit=1)[0]
    segments = text.split(",")
    kept = [segments[0]]
    for segment in segments[1:]:
        words = segment.split()
        if not words or len(words) > 4 or words[0].lower() in _EN_CLAUSE_STARTERS:
            break
        kept.append(segment)
    text = ",".join(kept)
    text = _EN_SOFT_STOP_RE.sub("", text)
    if rule.comparative and not text.lower().startswith("not "):
        text = _EN_COMPARATIVE_RE.sub("", text)
    previous = None
    while previous != text:
        previous = text
        text = _EN_EDGE_SYMBOLS_RE.sub("", _EN_TRAILING_RE.sub("", text)).strip(" ,.'")
    return " ".join(text.split())


def _zh_object_text(raw: str) -> str:
    text = _ZH_STOP_RE.split(raw[:_OBJECT_WINDOW], maxsplit=1)[0]
    text = re.sub(r"^(?:很|都|太|那么|这么|再|也|还|就)+", "", text.strip())
    return _ZH_TRAILING_RE.sub("", text).strip()


def _resolve(
    display: str, zh: bool, context: _Context, rule: _Rule, initial: bool = False
) -> _Object | None:
    """The object a clause names, following a pronoun to the antecedent; None if unusable."""
    if rule.elliptic:  # "…, I'm allergic": the object mentioned last, if any
        return context.mentioned if not display else None
    if len(display) > MAX_OBJECT_CHARS:
        return None
    if zh:
        if not display or display in _ZH_PRONOUN_OBJECTS:
            return context.antecedent
        if _ZH_BAD_OBJECT_RE.match(display):
            return None
        return _Object(display, zh=True)
    if display.lower() in _EN_PRONOUN_OBJECTS:
        return context.antecedent
    if not display or _EN_BAD_OBJECT_RE.match(display):
        return None
    return _Object(display, zh=False, initial=initial)


_EN_MENTION_RE = re.compile(
    r"^(?:(?:no|not|nothing|without|please|just|so|and|but|oh|well)\s+|(?:any|some|every|no)thing"
    r"\s+(?:with|containing)\s+)*(?P<np>[a-z][a-z' -]{0,40}?)(?:\s+(?:please|thanks))?$",
    re.IGNORECASE,
)
_EN_MENTION_EXCLUDED = frozenset(
    "i i'm i've i'd you he she we they it this that there here my your his her our their "
    "thanks thank sorry yes yeah ok okay problem way idea worries hi hello".split()
)


def _mentioned(clause: str) -> _Object | None:
    """A clause that is only a noun phrase (``No nuts please``) names an object for ellipsis."""
    if has_cjk(clause):
        return None
    text = _EN_EDGE_SYMBOLS_RE.sub("", clause).strip()
    match = _EN_MENTION_RE.match(text)
    if not match:
        return None
    phrase = match.group("np")
    words = phrase.lower().split()
    if not words or len(words) > 4 or set(words) & _EN_MENTION_EXCLUDED:
        return None
    return _Object(phrase, zh=False) if object_keywords(phrase) else None


# --------------------------------------------------------------------------------------------
# Keywords and category
# --------------------------------------------------------------------------------------------

_EN_MADE_OF_RE = re.compile(
    r"^(?P<head>.+?)\s+made\s+(?:out\s+of|of|from|with)\s+(?P<material>[a-z][a-z\s-]*)$"
)
_EN_WITHOUT_RE = re.compile(
    r"\b(?:without|with\s+no|free\s+(?:of|from))\s+(?:any\s+|added\s+)?(?P<x>[a-z][a-z-]*)"
)
_EN_SPACED_FREE_RE = re.compile(r"\b([a-z]+)\s+free\b")
_EN_FRAME_RE = re.compile(
    rf"^(?:(?:the|a|an|some|any|all|my|those|these|that|this)\s+)*(?:{_FRAME_NOUNS})\s+of\s+"
)
_EN_GENERIC_WITH_RE = re.compile(
    r"^(?:(?:the|a|an|any|some|all)\s+)?(?:(?:any|some|every)thing|stuff|things?|products?|"
    r"items?|foods?|dish(?:es)?|meals?|snacks?)\s+(?:(?:made\s+)?with|containing|"
    r"that\s+(?:has|have|contains?))\s+(?:any\s+|added\s+|real\s+)?(?=[a-z])"
)
_EN_COLOR_FRAME_RE = re.compile(r"^(?:the\s+)?colou?r\s+(?=[a-z])")
_EN_PREP_RE = re.compile(
    r"\s+(?:in|on|at|with|for|from|to|into|during|after|before|around|near|about|under|over|"
    r"like|except|than|of|via|while)\s+"
)
_EN_BY_RE = re.compile(r"\s+by\s+")
_EN_WORD_RE = re.compile(r"[a-z0-9]+(?:[-'&][a-z0-9]+)*")
_COORDINATION_RE = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor|&)\s+", re.IGNORECASE)
_EN_LEADING_CORRELATIVE_RE = re.compile(r"^(?:both|either|neither)\s+", re.IGNORECASE)
_ZH_COORDINATION_RE = re.compile(r"、|以及|或者|还有|和|跟|与|及|或")


_KEEP_PLURAL = frozenset(
    "blues clothes news series species glasses sunglasses jeans pants shorts trousers leggings "
    "headphones earphones olympics".split()
)


def _singular(word: str) -> str:
    """Singular of an English head noun, leaving words that only look plural alone."""
    if (
        word in _KEEP_PLURAL
        or word in CATEGORY_WORDS["brand"]
        or word.endswith(("ss", "us", "is", "ics"))
    ):
        return word
    return singular(word)


def _is_modifier(word: str) -> bool:
    return (
        word in MATERIALS
        or word in ATTRIBUTE_MODIFIERS
        or word.endswith(("-free", "-friendly"))
        or word.startswith(("non-", "low-", "high-", "no-"))
    )


def _en_words(segment: str) -> list[str]:
    words = []
    for word in _EN_WORD_RE.findall(segment):
        word = word.removesuffix("'s")
        word = MODIFIER_ALIASES.get(word, word)
        if word not in STOP_WORDS:
            words.append(word)
    return words


def _split_modifiers(words: list[str]) -> list[str]:
    """``canvas tote bags`` → ``canvas``, ``tote bag``; ``vegan leather`` stays joined."""
    if not words:
        return []
    whole = " ".join([*words[:-1], _singular(words[-1])])
    if whole in WHOLE_COMPOUNDS or len(words) == 1:
        return [whole]
    keywords: list[str] = []
    head: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        after = words[index + 1] if index + 1 < len(words) else ""
        if word in NEGATING_MODIFIERS and after in MATERIALS:
            keywords.append(f"{word} {after}")
            index += 2
            continue
        (keywords if _is_modifier(word) else head).append(word)
        index += 1
    if head:
        keywords.append(" ".join([*head[:-1], _singular(head[-1])]))
    return keywords


def _en_keywords(phrase: str) -> list[str]:
    text = " ".join(phrase.lower().replace("’", "'").split())
    text = _EN_MADE_OF_RE.sub(r"\g<material> \g<head>", text)
    free = [f"{_singular(m.group('x'))}-free" for m in _EN_WITHOUT_RE.finditer(text)]
    text = _EN_SPACED_FREE_RE.sub(r"\1-free", _EN_WITHOUT_RE.sub(" ", text))
    text = _EN_GENERIC_WITH_RE.sub("", _EN_COLOR_FRAME_RE.sub("", text))
    while (stripped := _EN_FRAME_RE.sub("", text)) != text:
        text = stripped
    head, *_ = _EN_PREP_RE.split(text)
    segments = _EN_BY_RE.split(head)
    keywords = [kw for segment in segments for kw in _split_modifiers(_en_words(segment))]
    return _unique([*keywords, *free])


def _zh_keywords(phrase: str) -> list[str]:
    keywords = []
    for segment in phrase.lower().split("的"):
        segment = re.sub(r"\s+", "", segment)
        segment = _ZH_LEADING_RE.sub("", segment)
        segment = _ZH_KEYWORD_TRAILING_RE.sub("", segment)
        segment = _ZH_LEADING_RE.sub("", segment)
        if segment and segment not in _ZH_GENERIC and not _ZH_BAD_OBJECT_RE.match(segment):
            keywords.extend(_zh_split_modifier(segment))
    return _unique(keywords)


def _zh_split_modifier(segment: str) -> list[str]:
    """``塑料盒子`` → ``塑料``, ``盒子``; ``辣椒`` and ``塑料`` alone stay whole."""
    if segment in ZH_MODIFIERS or segment.startswith(ZH_WHOLE_COMPOUNDS):
        return [segment]
    for modifier in ZH_MODIFIERS:
        head = segment[len(modifier) :]
        if segment.startswith(modifier) and head:
            if head in _ZH_GENERIC or head in _ZH_DROPPED_HEADS:
                return [modifier]
            return [modifier, *_zh_split_modifier(head)]
    return [segment]


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(item for item in items if item))


def object_keywords(phrase: str) -> list[str]:
    """Normalised keywords of an object phrase, in English or Chinese.

    Lower case, English head nouns singular, stop words and frames removed
    (``the smell of lavender`` → ``lavender``), material and attribute
    modifiers split off (``canvas tote bags`` → ``canvas``, ``tote bag``),
    negation kept inside the object (``plastic-free packaging`` →
    ``plastic-free``, ``packaging``; ``without sugar`` → ``sugar-free``), and
    for Chinese the nouns left when particles and fillers are dropped
    (``塑料的东西`` → ``塑料``).

    Args:
        phrase: The object of one stance, e.g. ``"plastic containers"``.

    Returns:
        The keywords, de-duplicated in order; empty when nothing specific remains.
    """
    return _zh_keywords(phrase) if has_cjk(phrase) else _en_keywords(phrase)


def _categories_of(keyword: str) -> set[str]:
    if has_cjk(keyword):
        return {cat for cat, terms in ZH_CATEGORY_TERMS.items() if any(t in keyword for t in terms)}
    base = keyword.removesuffix("-free").removesuffix("-friendly")
    for candidate in (keyword, base, base.split()[-1] if base.split() else base):
        found = {cat for cat, words in CATEGORY_WORDS.items() if candidate in words}
        if found:
            return found
    return set()


_EN_NAME_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:[-'&][A-Za-z0-9]+)*")


def _is_written_as_name(token: str) -> bool:
    """``Apple``, ``McDonald's``, ``iPhone``; not ``apple``, ``I``, ``BBQ`` (acronyms)."""
    if len(token) < 2 or token.isupper() or token.islower():
        return False
    return token[0].isupper() or any(c.isupper() for c in token[1:])


def _brand_words(item: str, initial: bool) -> tuple[set[str], set[str]]:
    """Lower-case words of an object that name a brand: (certain, by capital letter only).

    Certain: a known brand (``Sony``), or a name or brand homonym before a brand
    context (``Apple products``, ``apple phones``). By capital letter: a word
    written as a name that does not start the clause (``I hate Apple``).
    """
    certain: set[str] = set()
    cased: set[str] = set()
    tokens = _EN_NAME_TOKEN_RE.findall(item)
    for index, token in enumerate(tokens):
        word = token.removesuffix("'s")
        low = word.lower()
        following = tokens[index + 1].lower() if index + 1 < len(tokens) else ""
        if low in CATEGORY_WORDS["brand"]:
            certain.add(low)
            continue
        if (
            low in MATERIALS
            or low in ATTRIBUTE_MODIFIERS
            or low in STOP_WORDS
            or low in _NOT_NAMES
            or low.endswith(_DEMONYM_SUFFIXES)
        ):
            continue
        as_name = _is_written_as_name(word) and not (initial and index == 0)
        if following in BRAND_CONTEXT and (as_name or low in BRAND_HOMONYMS):
            certain.add(low)
        elif as_name:
            cased.add(low)
    return certain, cased


def _object_category(item: str, keywords: list[str], initial: bool = False) -> str:
    """The category of an English object from its keywords and how its words are written.

    Like :func:`category_for`, but a keyword naming a brand is category
    ``brand``: ``Apple products`` and ``I hate Apple`` are not the fruit,
    ``Sony headphones`` are Sony's. A word written as a name counts when it is
    the keyword's head and a lexicon word (``Apple``, ``Orange``), or when the
    keyword has no other category (``Radiohead``); ``Italian food`` stays food
    and ``Apples`` (a plural) stays fruit.
    """
    certain, cased = _brand_words(item, initial)
    found: set[str] = set()
    for keyword in keywords:
        words = keyword.split()
        categories = _categories_of(keyword)
        if any(word in certain for word in words) or (
            words and words[-1] in cased and (not categories or words[-1] in _LEXICON_WORDS)
        ):
            categories = {"brand"}
        elif not categories and any(word in cased for word in words):
            categories = {"brand"}
        found |= categories
    return next((cat for cat in CATEGORY_PRIORITY if cat in found), "other")


_LEXICON_WORDS: frozenset[str] = frozenset().union(*CATEGORY_WORDS.values())


def category_for(keywords: list[str]) -> str:
    """The category of an object, from its keywords alone.

    A keyword counts by itself or by its head (last) word; English lexicon
    entries match whole words, Chinese terms match inside a keyword. When
    several categories fit, :data:`CATEGORY_PRIORITY` decides, so one object
    always gets one category.

    Args:
        keywords: Normalised keywords, e.g. ``["wool", "sweater"]``.

    Returns:
        One of :data:`CATEGORY_PRIORITY`, or ``"other"``.
    """
    found: set[str] = set()
    for keyword in keywords:
        found |= _categories_of(keyword)
    return next((cat for cat in CATEGORY_PRIORITY if cat in found), "other")


# --------------------------------------------------------------------------------------------
# Matching one clause
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Stance:
    """A matched stance before it becomes candidates."""

    rule: _Rule
    verb: str
    speaker: Speaker
    obj: _Object
    polarity: Polarity


def _matches(clause: str, rules: tuple[_Rule, ...]) -> list[tuple[re.Match[str], _Rule]]:
    found = [(m, rule) for rule in rules for m in rule.pattern.finditer(clause)]
    return sorted(found, key=lambda pair: (pair[0].start(), -(pair[0].end() - pair[0].start())))


def _object_of(match: re.Match[str], rule: _Rule, clause: str, zh: bool) -> str:
    has_obj = "obj" in rule.pattern.groupindex and match.group("obj") is not None
    raw = match.group("obj") if has_obj else clause[match.end() :]
    if zh:
        text = _zh_object_text(raw)
        return _ZH_LEADING_RE.sub("", text) if has_obj and text.startswith("我") else text
    text = _en_object_text(raw, rule)
    return (
        _lower_sentence_start(text)
        if has_obj and not clause[: match.start("obj")].strip(" ,;")
        else text
    )


def _lower_sentence_start(text: str) -> str:
    """``Green tea`` at the start of a sentence → ``green tea``; names keep their capital."""
    first = text.split(" ", 1)[0]
    common = first.lower() in STOP_WORDS or any(
        first.lower() in words for cat, words in CATEGORY_WORDS.items() if cat != "brand"
    )
    return first.lower() + text[len(first) :] if common and first[1:].islower() else text


def _verb_of(match: re.Match[str], rule: _Rule) -> str:
    if "verb" in rule.pattern.groupindex and match.group("verb"):
        return match.group("verb").lower()
    return match.group(0).strip()


def _stance(clause: str, context: _Context) -> _Stance | None:
    """The first stance in a clause whose object can be resolved."""
    zh = has_cjk(clause)
    for match, rule in _matches(clause, ZH_RULES if zh else EN_RULES):
        display = _object_of(match, rule, clause, zh)
        polarity = rule.polarity
        flipped = None if zh or polarity == "dislike" else _EN_NOT_TO_RE.match(display)
        if flipped:
            display, polarity, rule = (
                flipped.group("rest"),
                "dislike",
                replace(rule, label="avoids {obj}", comparative=False),
            )
        initial = (
            not flipped
            and "obj" in rule.pattern.groupindex
            and match.group("obj") is not None
            and not clause[: match.start("obj")].strip(" ,;")
        )
        obj = _resolve(display, zh, context, rule, initial)
        if obj is None:
            continue
        prefix = clause[: match.start()]
        speaker = _zh_prefix_speaker(prefix, rule) if zh else _en_prefix_speaker(prefix, rule)
        if rule.third_person:
            speaker = "other"
        return _Stance(rule, _verb_of(match, rule), speaker, obj, polarity)
    return None


def _clause_speaker(clause: str) -> Speaker:
    """Speaker of a clause with no stance in it (``my wife cooks``, ``我朋友``)."""
    if has_cjk(clause):
        if _ZH_OTHER_SUBJECT_RE.search(clause):
            return "other"
        return "user" if clause.lstrip().startswith("我") else "unknown"
    tokens = _EN_TOKEN_RE.findall(clause.lower())
    tokens = [t for t in tokens if t not in _EN_FILLERS]
    if not tokens:
        return "unknown"
    if tokens[0] == "i":
        return "user"
    return "other" if tokens[0] in _EN_OTHER_SUBJECTS else "unknown"


# --------------------------------------------------------------------------------------------
# Candidates
# --------------------------------------------------------------------------------------------


def _items(obj: _Object) -> list[str]:
    """Coordinated objects (``onions and garlic``) as separate items."""
    if obj.zh:
        parts = [p for p in _ZH_COORDINATION_RE.split(obj.display) if p.strip()]
        return parts if len(parts) > 1 else [obj.display]
    text = obj.display
    for compound in AND_COMPOUNDS:
        text = re.sub(re.escape(compound), compound.replace(" ", "\x00"), text, flags=re.I)
    parts = [p.replace("\x00", " ") for p in _COORDINATION_RE.split(text) if p.strip()]
    return [_EN_LEADING_CORRELATIVE_RE.sub("", p) for p in parts] if len(parts) > 1 else parts


def _content(stance: _Stance, item: str) -> str:
    text = stance.rule.label.format(obj=item.strip(), verb=stance.verb)
    return " ".join(text.split())


def _candidates(stance: _Stance) -> list[PreferenceCandidate]:
    found = []
    for index, item in enumerate(_items(stance.obj)):
        keywords = object_keywords(item)
        if not keywords:
            continue
        category = (
            category_for(keywords)
            if stance.obj.zh
            else _object_category(item, keywords, stance.obj.initial and index == 0)
        )
        found.append(
            PreferenceCandidate(
                content=_content(stance, item),
                polarity=stance.polarity,
                keywords=keywords,
                category=category,
                confidence=RULE_CONFIDENCE,
                source="rule",
            )
        )
    return found


def _read_clause(clause: str, context: _Context) -> None:
    stance = _stance(clause, context)
    if stance is None:
        speaker = _clause_speaker(clause)
        if speaker != "unknown":
            context.speaker = speaker
        context.mentioned = _mentioned(clause) or context.mentioned
        return
    context.antecedent = context.mentioned = stance.obj
    speaker = stance.speaker
    if speaker == "unknown":
        speaker = context.speaker if context.speaker != "stale" else "user"
    context.speaker = speaker
    if speaker == "user":
        context.found.extend(_candidates(stance))


def _head(text: str) -> str:
    """At most :data:`MAX_CAPTURE_CHARS` of a text, cut after a whole sentence."""
    if len(text) <= MAX_CAPTURE_CHARS:
        return text
    logger.debug("capture reads the first %d of %d characters", MAX_CAPTURE_CHARS, len(text))
    head = text[:MAX_CAPTURE_CHARS]
    ends = [head.rfind(mark) for mark in ".!?。！？\n"]
    return head[: max(ends) + 1] if max(ends) > 0 else ""


def _prepare(text: str) -> str:
    text = unicodedata.normalize("NFKC", _head(strip_injected_blocks(text)))
    text = text.replace("’", "'").replace("‘", "'").replace("\u200b", "")
    return to_simplified(text) if has_cjk(text) else text


def _latest_per_object(candidates: list[PreferenceCandidate]) -> list[PreferenceCandidate]:
    """Within one message the last stance on an object wins (``I like X… actually I hate X``)."""
    latest: dict[frozenset[str], PreferenceCandidate] = {}
    for candidate in candidates:
        key = frozenset(candidate.keywords)
        latest.pop(key, None)
        latest[key] = candidate
    return list(latest.values())


def extract_preferences(text: str) -> list[PreferenceCandidate]:
    """Find the user's own stated preferences in one message, without a model.

    Penchant's injected blocks are stripped first (a recalled memory is never
    captured again). Questions, requests, hypotheticals, other people's
    preferences and stances the user has left behind ("I used to like …")
    yield nothing; "used to like X, now I hate it" yields the current stance.

    Args:
        text: One user message, English and/or Chinese.

    Returns:
        Candidates with ``source="rule"`` and confidence :data:`RULE_CONFIDENCE`,
        in message order, at most one per object; empty when the message
        states no first-person preference.
    """
    context = _Context()
    for sentence in _sentences(_prepare(text or "")):
        if _is_question_or_hypothetical(sentence):
            continue
        context.speaker = "user"
        for clause in _clauses(sentence):
            _read_clause(clause, context)
    found = _latest_per_object(context.found)
    logger.debug("rule capture found %d candidate(s)", len(found))
    return found


__all__ = [
    "ATTRIBUTE_MODIFIERS",
    "CATEGORY_PRIORITY",
    "MATERIALS",
    "MAX_CAPTURE_CHARS",
    "MAX_OBJECT_CHARS",
    "RULE_CONFIDENCE",
    "category_for",
    "extract_preferences",
    "object_keywords",
]

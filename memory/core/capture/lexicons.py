"""Word lists of rule capture: materials, modifiers, compounds, stop words, categories.

Every English entry is lower case; Chinese entries are simplified. Extend
freely: the lists are data, the grammar lives in the rule and clause modules.
"""

from __future__ import annotations

import re

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

SUBSTITUTE_MODIFIERS: frozenset[str] = frozenset(
    "faux fake vegan imitation artificial synthetic mock plant-based plant veggie meatless "
    "meat-free dairy-free alcohol-free non-alcoholic non-dairy lactose-free gluten-free "
    "caffeine-free oat almond soy soya rice coconut cashew hemp pea".split()
)
"""Modifiers that make the head noun something else (``oat milk`` is not milk, ``faux
fur`` not fur, ``non-alcoholic beer`` not beer): the head never covers the compound. Any
``non-…`` word counts too. The matcher reads this list (:mod:`penchant.memory.core.matching`)."""

LEXICALISED_COMPOUNDS: frozenset[str] = frozenset(
    {
        "ice cream", "hot dog", "corn dog", "peanut butter", "cocoa butter", "shea butter",
        "apple butter", "sour cream", "cream cheese", "sweet potato", "heavy metal",
        "rubber duck", "silk road", "cotton candy", "hot pot", "jelly bean", "egg roll",
        "spring roll", "sea cucumber", "guinea pig", "dragon fruit", "star fruit",
        "passion fruit", "french toast", "sea lion", "catfish", "koala bear", "teddy bear",
        "gummy bear", "soy sauce", "milk chocolate", "coffee table", "tea towel",
    }
)  # fmt: skip
"""Compounds that name a different thing than their last word (an ``ice cream`` is no
cream, a ``hot dog`` no dog): the last word never covers them."""

ZH_SUBSTITUTE_PREFIXES: tuple[str, ...] = tuple(
    "人造 仿 假 素 植物 无醇 无酒精 无乳糖 燕麦 杏仁 椰 豆".split()
)
"""Chinese modifiers that make the head something else (``人造皮革`` is not ``皮革``)."""

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
    "quite rather super extra actually especially particularly generally to both strict "
    "strictly only solely exclusively mainly mostly it them".split()
)
"""Words that never make (or help make) a keyword."""

FRAME_NOUNS = (
    "smell|scent|aroma|odou?r|taste|flavou?r|sound|texture|feel|look|sight|idea|thought|"
    "concept|kinds?|sorts?|types?|lots?|bunch|cups?|glass(?:es)?|mugs?|bowls?|pieces?|bits?|"
    "pairs?|bottles?|cans?|slices?|plates?|pints?|shots?|scoops?|servings?|portions?|jars?|"
    "packets?|handfuls?|spoonfuls?|variety|anything|things|stuff|products|items|"
    "brands?|styles?|forms?|amounts?|levels?|degrees?|use|usage|presence|inclusion"
)
"""Nouns that frame the real object: ``the smell of lavender``, ``any form of horror``."""

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

NOT_NAMES = frozenset(
    "i i'm i've i'd i'll monday tuesday wednesday thursday friday saturday sunday january "
    "february march april may june july august september october november december christmas "
    "easter halloween thanksgiving thai french greek dutch swiss german irish welsh scottish "
    "english british spanish polish turkish danish finnish swedish".split()
)
DEMONYM_SUFFIXES = ("ese", "ian", "ean", "can")
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

ZH_DROPPED_HEADS = frozenset("制品 产品 用品 材质 材料 味 口味 味道 制 质 类 食品".split())
"""A head left after the modifier that adds nothing (``塑料制品`` → ``塑料``)."""

ZH_BOUND_HEADS = frozenset(
    "粉面饭汤茶酒鞋包衣裤帽袜裙机器剧片乐曲圈杀店款服馆车球课党控饼糕酱锅串堡卷粥糖舞文层风"
)
"""Bound heads of Chinese compound nouns (``螺蛳粉``, ``剧本杀``, ``汉服圈``, ``古典乐``): the
segmenter glues one to the word after it (``粉真香``, ``杀退``) when its dictionary lacks the
compound, and the object loses its head."""

ZH_ASPECT_HEAD_RE = re.compile(
    r"[\u4e00-\u9fff]{0,2}味[道儿]?|气味|口感|手感|声音|颜色|热情|态度|滤镜|习惯|毛病|时候|兴趣|感情|"
    r"感觉|样子|风格|东西"
)
"""What a Chinese ``X的Y`` names of ``X``, not a thing of its own (fullmatch on ``Y``): a sense
(``榴莲的味道``), the user's bearing towards it (``对漫画的热情``, ``咬指甲的毛病``), a time
(``看球赛的时候``) or nothing (``抹茶味的东西``). ``周杰伦的歌``, ``健身房的音乐`` name things."""

EN_GOOD_IDIOM = (
    r"\s+good(?=\s*[,.;!?]|\s*$|\s+(?:and|now|after|because|since|this|last|though)\b)"
)
"""The "good" of the idiom "for good" (for ever: "quit X for good, and…"), not of "for good
coffee", where a switch names what it turned to."""
EN_DEGREE_OF_MORE = r"(?-i:way|far|much|a\s+lot)\s+(?=more|better)"
"""How much more ("way more than", "far better than"): no part of the side before it;
lowercase, so "the Milky Way more than Snickers" keeps its name."""
ZH_MET_BY = r"[看用吃喝穿听玩逛读坐住开戴]着|[\u4e00-\u9fff]起来"
"""How a side of a Chinese comparison is met before it is judged (``纸质书看着``,
``钢琴弹起来``): no part of the side."""
EN_BETTER = (
    r"(?:(?:so|way|much|a\s+lot|far|loads)\s+)?(?:much\s+)?(?:better|faster|cheaper|easier|nicer|"
    r"tastier|healthier|comfier|quieter|lighter|simpler|smoother|cleaner|friendlier|more\s+"
    r"(?:comfortable|reliable|fun|affordable|convenient|relaxing))\s+than\b"
)
"""A judgement of being better than something ("way faster than", "more reliable than"): with no
subject after a clause naming a thing ("Switched to Firefox, way faster than Chrome"), the
thing just named is the better side."""
EN_PEOPLE_RE = re.compile(
    r"\b(?:he|she|they|him|her|them|his|their|wife|husband|partner|boyfriend|girlfriend|mom|mum|"
    r"mother|dad|father|parents?|sis(?:ter)?|bro(?:ther)?|sons?|daughters?|kids?|child(?:ren)?|"
    r"friends?|mates?|room-?mates?|flatmates?|boss|colleagues?|co-?workers?|family|grandma|"
    r"grandpa|nan|aunt|uncle|cousins?|neighbou?rs?|teachers?|everyone|everybody|people|"
    r"thinks|says|said)\b",
    re.IGNORECASE,
)
"""Another person in an English clause: a pronoun of the third person, a relation or a role, or a
verb of report ("thinks", "says"). Shared by the speaker readers (:mod:`.clauses`) and the rules
whose subject must not be a person (:mod:`.rules_en_evaluations`)."""

EN_BEFORE_VERB = frozenset(
    "do does did don't doesn't didn't can can't cannot could couldn't will won't would wouldn't "
    "should might must not never just really still also always usually often sometimes even "
    "actually honestly seriously totally truly kinda only absolutely definitely literally so very "
    "pretty quite super".split()
)
"""Auxiliaries, negations and adverbs between an English subject and its verb (``I just can't
stand…``): the word after them is still the verb."""
EN_STANCE_PREPOSITIONS = frozenset("about on with of into for".split())
"""Prepositions after an adjective of stance (``crazy about``, ``big on``, ``sick of``): what
follows is the object, the adjective is not."""

EN_OBJECT_STOP = frozenset(
    """
    i i'm i've i'd i'll me my mine myself you your we us our they them their it it's its he she
    his her this that these those there here a an the some any every all no not never nor n't
    am is are was were be been being do does did don't doesn't didn't have has had 've 'm 's 'd
    will would 'll can could should shall may might must won't wouldn't can't cannot
    and or but so yet because as if then than too very really so quite pretty just only even way
    also still already again anymore any more longer now today tonight lately recently these days
    nowadays currently ever always usually often sometimes actually honestly seriously totally
    truly kinda sort kind of to for from with without on off in into at by about over under after
    before since until around out up down through like love loves loved hate hates hated enjoy
    enjoyed adore want wanted need gone go going went got get gotten grown grow become became
    sick tired done over through finished bored fed menu table longer lost lose taste interest
    fell fallen soured cooled turns turned out after lot lots much many bit little stuff things
    thing for me anything everything nothing whatsoever rather prefer prefers preferred fine
    okay ok good great nice bad worse worst best better charm appeal quit quitting gave give
    given giving stopped stop stopping sworn swore cut cutting kicked kick ditched ditch habit
    good eat eating ate drink drinking drank watch watching watched read reading
    play playing played use using used wear wearing wore listen listening visit visiting do
    doing touch touching buy buying order ordering have having care mind miss dropped drop
    started start starting finally slowly surprisingly suddenly kind anyhow anyway well oh yeah
    yes hey hmm um uh btw fyi tbh lol haha period whole entire completely entirely fully
    definitely absolutely officially basically literally works work know enough along please
    pls thanks thx instead skip leave minus preferring favouring favoring
    ngl imo imho fr rn af lowkey highkey legit ugh ew eww yuck meh nah nope yay
    omg lmao welp whoa ooh him avoid avoids avoiding avoided dislike dislikes disliked detest loathe
    ago year years month months week weeks one two three four five six seven eight nine ten
    think guess reckon believe suppose feel swear
    twenty thirty forever quits back grew unless except excluding excluded excepted somehow
    """.split()
)
"""Words no object of a clause read by its kind holds (:func:`~.kinds.pull_object_en`): pronouns,
auxiliaries, stance, time and degree words, verbs of use and chat fillers."""
EN_LY_BEFORE_NOUN = frozenset("early daily weekly monthly yearly nightly hourly".split())
"""Words in -ly that say what kind of thing before a noun ("early flights", "daily standups")
and how often or when after a verb ("I run daily", "get up early")."""
EN_PARTICIPLES = frozenset("using doing going having getting taking making eating drinking".split())
"""Participles that follow an adverb ("I shower daily using Dove soap"): no noun it modifies."""

# ruff: noqa: E501  (data tables of sentences)
"""Build the statement corpus: what KIND of statement a clause is, English and Chinese.

Written for issue 17: sentences by the team (never the shared test cases), varied
phrasings ("frames") per kind and language, each frame filled with objects of several
domains and optional fillers. The split is fixed before any training: a frame whose
SHA-256 (of ``lang|kind|frame``) falls in the last fifth is held out whole, so the test
split holds phrasings the head never saw, not only new objects.

Kinds (the label the head learns; :data:`KINDS`):

- ``like`` / ``dislike``: a plain stance of the user.
- ``flip_like``: the user came round to something ("turns out I love X").
- ``flip_dislike``: the user went off something ("I've gone off X").
- ``quit``: the user gave a thing up ("I quit X", ``X我已经戒了``).
- ``switch``: from X to Y.
- ``exception``: a class except one member ("every fruit except papaya").
- ``comparative``: X over Y.
- ``slot``: a single-valued slot with now/current ("my current phone is X").
- ``allergy_retraction``: no longer allergic to X.
- ``limit``: an amount or frequency limit on a liked thing ("no more than one a week").
- ``none``: no preference (a question, a hypothetical, another person's, a reaction to
  the assistant, a situation, an idiom).

``contrast`` items (a like and a dislike joined by a comma only) are evaluated end to end;
the head learns each half as a like or a dislike.

Usage::

    python bench/corpus/make_statements.py   # writes bench/corpus/statements/*.jsonl

A second digest keeps a fifth of the train frames aside as ``dev.jsonl``: tune there,
never on ``test.jsonl``; the shipped head is trained on train and dev together.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "statements"
SEED = 17
PER_FRAME = 10
HELD_OUT_FRACTION = 0.2

KINDS = (
    "like", "dislike", "flip_like", "flip_dislike", "quit", "switch", "exception",
    "comparative", "slot", "allergy_retraction", "limit", "none",
)  # fmt: skip

# (en display, en keyword, zh, zh verb, en verb)
OBJECTS = [
    ("olives", "olive", "橄榄", "吃", "eat"), ("mushrooms", "mushroom", "蘑菇", "吃", "eat"),
    ("sushi", "sushi", "寿司", "吃", "eat"), ("durian", "durian", "榴莲", "吃", "eat"),
    ("cilantro", "cilantro", "香菜", "吃", "eat"), ("eggplant", "eggplant", "茄子", "吃", "eat"),
    ("tofu", "tofu", "豆腐", "吃", "eat"), ("oysters", "oyster", "生蚝", "吃", "eat"),
    ("pineapple", "pineapple", "菠萝", "吃", "eat"), ("garlic", "garlic", "大蒜", "吃", "eat"),
    ("lamb", "lamb", "羊肉", "吃", "eat"), ("spinach", "spinach", "菠菜", "吃", "eat"),
    ("dumplings", "dumpling", "饺子", "吃", "eat"), ("hot pot", "hot pot", "火锅", "吃", "eat"),
    ("celery", "celery", "芹菜", "吃", "eat"), ("pickles", "pickle", "泡菜", "吃", "eat"),
    ("coffee", "coffee", "咖啡", "喝", "drink"), ("green tea", "green tea", "绿茶", "喝", "drink"),
    ("beer", "beer", "啤酒", "喝", "drink"), ("soda", "soda", "汽水", "喝", "drink"),
    ("milk tea", "milk tea", "奶茶", "喝", "drink"), ("whisky", "whisky", "威士忌", "喝", "drink"),
    ("horror movies", "horror", "恐怖片", "看", "watch"), ("anime", "anime", "动漫", "看", "watch"),
    ("reality shows", "reality show", "真人秀", "看", "watch"),
    ("documentaries", "documentar", "纪录片", "看", "watch"),
    ("detective novels", "detective novel", "侦探小说", "看", "read"),
    ("comics", "comic", "漫画", "看", "read"), ("jazz", "jazz", "爵士乐", "听", "listen to"),
    ("heavy metal", "heavy metal", "重金属", "听", "listen to"),
    ("podcasts", "podcast", "播客", "听", "listen to"),
    ("video games", "video game", "电子游戏", "玩", "play"),
    ("board games", "board game", "桌游", "玩", "play"), ("golf", "golf", "高尔夫", "打", "play"),
    ("badminton", "badminton", "羽毛球", "打", "play"), ("yoga", "yoga", "瑜伽", "练", "do"),
    ("mechanical keyboards", "mechanical keyboard", "机械键盘", "用", "use"),
    ("e-books", "e-book", "电子书", "看", "read"), ("high heels", "high heel", "高跟鞋", "穿", "wear"),
    ("wool sweaters", "wool sweater", "羊毛衫", "穿", "wear"),
    ("linen shirts", "linen shirt", "亚麻衬衫", "穿", "wear"),
    ("night markets", "night market", "夜市", "逛", "visit"),
    ("museums", "museum", "博物馆", "逛", "visit"), ("theme parks", "theme park", "游乐园", "去", "visit"),
]  # fmt: skip
CLASSES = [  # (en class, en member, member kw, zh class, zh member, zh verb)
    ("fruit", "papaya", "papaya", "水果", "木瓜", "吃"), ("vegetable", "okra", "okra", "蔬菜", "秋葵", "吃"),
    ("seafood", "squid", "squid", "海鲜", "鱿鱼", "吃"), ("cheese", "feta", "feta", "奶酪", "羊奶酪", "吃"),
    ("music genre", "country", "country", "音乐", "乡村音乐", "听"),
    ("sport", "boxing", "boxing", "运动", "拳击", "看"), ("spice", "cumin", "cumin", "香料", "孜然", "吃"),
    ("nut", "walnuts", "walnut", "坚果", "核桃", "吃"), ("board game", "Monopoly", "monopoly", "桌游", "大富翁", "玩"),
    ("tea", "oolong", "oolong", "茶", "乌龙茶", "喝"), ("dessert", "tiramisu", "tiramisu", "甜点", "提拉米苏", "吃"),
    ("movie genre", "westerns", "western", "电影", "西部片", "看"),
]  # fmt: skip
SLOTS = [  # (en slot, values, zh slot, zh values)
    ("phone", ["a Pixel", "an iPhone", "a Galaxy"], "手机", ["华为", "小米", "苹果"]),
    ("band", ["Radiohead", "Wilco", "Coldplay"], "乐队", ["五月天", "苏打绿", "草东没有派对"]),
    ("author", ["Ursula Le Guin", "Haruki Murakami", "Toni Morrison"], "作家", ["余华", "莫言", "张爱玲"]),
    ("city", ["Lisbon", "Kyoto", "Tallinn"], "城市", ["成都", "杭州", "厦门"]),
    ("snack", ["pretzels", "rice crackers", "trail mix"], "零食", ["瓜子", "薯片", "辣条"]),
    ("game", ["Hades", "Celeste", "Stardew Valley"], "游戏", ["原神", "王者荣耀", "黑神话"]),
    ("cuisine", ["Ethiopian", "Peruvian", "Georgian"], "菜系", ["川菜", "粤菜", "湘菜"]),
    ("coffee shop", ["Blue Bottle", "the corner cafe", "Starbucks"], "咖啡店", ["瑞幸", "星巴克", "Manner"]),
]  # fmt: skip
ALLERGENS = [("peanuts", "peanut", "花生"), ("shellfish", "shellfish", "贝类"), ("eggs", "egg", "鸡蛋"),
             ("milk", "milk", "牛奶"), ("peaches", "peach", "桃子"), ("soy", "soy", "大豆"),
             ("wheat", "wheat", "小麦"), ("cats", "cat", "猫毛"), ("pollen", "pollen", "花粉"),
             ("sesame", "sesame", "芝麻")]  # fmt: skip

EN_PRE = ["", "", "", "Honestly, ", "By the way, ", "Just so you know, ", "Oh, ", "Well, ", "FYI, "]
EN_POST = ["", "", "", " these days", " to be honest", " for sure", " lol"]
ZH_PRE = ["", "", "", "说实话，", "对了，", "跟你说，", "其实", "嗯，"]

# Frames: {x} object, {v} its verb, {y} second object, {c} class, {m} member, {s} slot, {val}
EN: dict[str, list[str]] = {
    "like": [
        "I love {x}.",
        "I really enjoy {x}.",
        "{X} is my jam.",
        "I'm a huge fan of {x}.",
        "Nothing beats {x} for me.",
        "I adore {x}.",
        "I'm crazy about {x}.",
        "I can't get enough of {x}.",
        "I'm really into {x}.",
        "I have a soft spot for {x}.",
        "I'm partial to {x}.",
        "{X} is right up my alley.",
        "I never get tired of {x}.",
        "I'm obsessed with {x}.",
        "I dig {x}.",
        "I'm a sucker for {x}.",
        "I like {x} a lot.",
        "{X} always puts me in a good mood.",
        "I'm all about {x}.",
        "I could {v} {x} every day.",
        "Big fan of {x} here.",
        "I always go for {x}.",
        "{X} never gets old for me.",
        "I've always liked {x}.",
        "I happily {v} {x} whenever I can.",
    ],
    "dislike": [
        "I hate {x}.",
        "I can't stand {x}.",
        "I don't like {x}.",
        "{X} is not for me.",
        "I really dislike {x}.",
        "{X} grosses me out.",
        "I'm not a fan of {x}.",
        "I avoid {x}.",
        "{X} does nothing for me.",
        "I detest {x}.",
        "I'd rather skip {x}.",
        "Keep {x} away from me.",
        "I don't {v} {x}.",
        "I never {v} {x}.",
        "{X} is the worst.",
        "I find {x} unbearable.",
        "I'm not into {x} at all.",
        "{X} really isn't my thing.",
        "I loathe {x}.",
        "I steer clear of {x}.",
        "No {x} for me, please.",
        "{X} makes me cringe.",
        "I won't {v} {x}.",
        "I have zero interest in {x}.",
        "I'm so not a {x} person.",
    ],
    "flip_like": [
        "Turns out I love {x} after all.",
        "{X} has really grown on me.",
        "I've come around to {x}.",
        "I used to hate {x} but now I love it.",
        "I've warmed up to {x} lately.",
        "These days I actually enjoy {x}.",
        "I didn't like {x} before, but I do now.",
        "I've changed my mind, {x} is great.",
        "I finally get the appeal of {x}.",
        "I'm surprisingly into {x} now.",
        "I've started to like {x}.",
        "I've gotten used to {x} and now I like it.",
        "{X} is fine by me now.",
        "I no longer mind {x}, I like it now.",
        "I was wrong about {x}, it's actually great.",
        "I've learned to love {x}.",
        "Now I'm a convert to {x}.",
        "I've grown fond of {x}.",
    ],
    "flip_dislike": [
        "I've gone off {x} lately.",
        "{X} is off the menu for me now.",
        "I've grown sick of {x}.",
        "I never want {x} anymore.",
        "I'm over {x}.",
        "I used to love {x}, not anymore.",
        "I don't enjoy {x} anymore.",
        "I've lost my taste for {x}.",
        "I'm done with {x}.",
        "{X} doesn't do it for me anymore.",
        "I no longer like {x}.",
        "I've fallen out of love with {x}.",
        "I've had enough of {x}.",
        "{X} has lost its charm for me.",
        "I'm tired of {x} now.",
        "I don't {v} {x} anymore.",
        "I'm not into {x} these days.",
        "{X}? Not for me anymore.",
        "I've soured on {x}.",
    ],
    "quit": [
        "I've given up {x}.",
        "I quit {x} last month.",
        "I gave up {x} for good.",
        "I stopped {v}ing {x}.",
        "I've sworn off {x}.",
        "I've cut out {x} completely.",
        "I kicked my {x} habit.",
        "No more {x} for me, I quit.",
        "I've ditched {x}.",
        "I'm off {x} for good now.",
        "I've been {x}-free for a year.",
        "I gave {x} up in January.",
        "I've cut {x} out of my life.",
        "I'm trying to quit {x} and it's working.",
        "I've kicked {x} to the curb.",
    ],
    "switch": [
        "I switched from {x} to {y}.",
        "I swapped {x} for {y}.",
        "I've moved from {x} to {y}.",
        "I replaced {x} with {y}.",
        "I traded {x} for {y}.",
        "I ditched {x} for {y}.",
        "{x} → {y}, that's my change this year.",
        "I went from {x} to {y}.",
        "I've changed over from {x} to {y}.",
        "These days it's {y} instead of {x}.",
        "I dropped {x} and picked up {y}.",
        "I moved on from {x} to {y}.",
        "I now {v} {y} instead of {x}.",
        "I'm all {y} now, no more {x}.",
        "I converted from {x} to {y}.",
    ],
    "exception": [
        "I like every {c} except {m}.",
        "I eat any {c} but {m}.",
        "I'm fine with all kinds of {c} apart from {m}.",
        "I love {c}, just not {m}.",
        "Any {c} is good except {m}.",
        "I enjoy every {c} other than {m}.",
        "All {c} is great, minus {m}.",
        "Give me any {c} but {m}.",
        "I'll take any {c} except for {m}.",
        "I like pretty much all {c}, except {m}.",
        "Every {c} works for me besides {m}.",
        "I'm happy with any {c} save {m}.",
        "I like all {c} with the exception of {m}.",
        "I like {c} in general, but never {m}.",
    ],
    "comparative": [
        "I prefer {x} to {y}.",
        "I like {x} more than {y}.",
        "I'd pick {x} over {y}.",
        "{X} beats {y} for me.",
        "I'd rather have {x} than {y}.",
        "I choose {x} over {y}.",
        "I prefer {x} over {y}.",
        "{X} over {y}, always.",
        "I like {x} better than {y}.",
        "Given the choice, {x} rather than {y}.",
        "{X} wins over {y} for me.",
        "I'd take {x} over {y} any day.",
        "I lean towards {x} rather than {y}.",
        "I favour {x} over {y}.",
        "Between {x} and {y}, I'll go with {x}.",
    ],
    "slot": [
        "My current favourite {s} is {val}.",
        "My favourite {s} now is {val}.",
        "{Val} is my favourite {s} now.",
        "These days my go-to {s} is {val}.",
        "My new favourite {s} is {val}.",
        "Right now my top {s} is {val}.",
        "At the moment my favourite {s} is {val}.",
        "My favourite {s} these days is {val}.",
        "Currently my number one {s} is {val}.",
        "{Val} is now my all-time favourite {s}.",
        "Lately my favourite {s} has been {val}.",
        "My {s} of choice now is {val}.",
    ],
    "allergy_retraction": [
        "I'm not allergic to {a} anymore.",
        "I'm no longer allergic to {a}.",
        "My {a} allergy is gone.",
        "I outgrew my {a} allergy.",
        "The doctor says I'm not allergic to {a} any more.",
        "Good news, I'm not allergic to {a} anymore.",
        "I got over my {a} allergy.",
        "Turns out I'm not allergic to {a} after all.",
        "My allergy to {a} has cleared up.",
        "I can have {a} again, the allergy is gone.",
        "The {a} allergy went away.",
        "I don't have a {a} allergy anymore.",
    ],
    "limit": [
        "No more than one {x} a week.",
        "Just one {x} a day, max.",
        "Only {x} on weekends.",
        "I keep {x} to twice a month.",
        "At most one serving of {x} a day.",
        "I limit {x} to once a week.",
        "Not too much {x} though.",
        "Only a little {x}.",
        "Just not more than two {x} a week.",
        "In moderation, a bit of {x} once in a while.",
        "I cap {x} at one a day.",
        "Only on special occasions.",
    ],
    "none": [
        "Do you like {x}?",
        "What do you think of {x}?",
        "Can you recommend some {x}?",
        "If I liked {x}, what would you suggest?",
        "Suppose I hated {x}, then what?",
        "My sister loves {x}.",
        "My boss hates {x}.",
        "My friends are into {x}.",
        "Great, I love that suggestion!",
        "Thanks, that sounds perfect.",
        "Wow, I love how fast you are!",
        "I'm stuck in traffic again.",
        "I'm at the airport right now.",
        "It's raining all day here.",
        "I could eat a horse.",
        "That's a piece of cake.",
        "Break a leg!",
        "I'm all ears.",
        "Where can I buy {x}?",
        "Is {x} healthy?",
        "What if I tried {x}?",
        "My dad can't stand {x}.",
        "He is crazy about {x}.",
        "I have a meeting at nine.",
        "Sounds good, let's do that.",
        "I'm over the moon today.",
        "It's not rocket science.",
        "I need to pick up my kids at five.",
        "Tell me more about {x}.",
        "I'm reading about {x} for work.",
    ],
}
ZH: dict[str, list[str]] = {
    "like": [
        "我喜欢{v}{x}。",
        "我超爱{x}。",
        "我特别喜欢{x}。",
        "{x}是我的最爱。",
        "我对{x}情有独钟。",
        "我很爱{v}{x}。",
        "{x}我百{v}不厌。",
        "我是{x}的忠实粉丝。",
        "我迷上了{x}。",
        "我挺喜欢{x}的。",
        "{x}真是太好了，我很喜欢。",
        "我一{v}{x}就开心。",
        "我最爱{v}{x}了。",
        "我偏爱{x}。",
        "我很享受{v}{x}。",
        "我对{x}很感兴趣。",
        "{x}深得我心。",
        "我天天都想{v}{x}。",
        "我就好{x}这一口。",
        "我热爱{x}。",
        "我爱死{x}了。",
        "我一直都很喜欢{x}。",
    ],
    "dislike": [
        "我讨厌{x}。",
        "我受不了{x}。",
        "我不喜欢{v}{x}。",
        "我不{v}{x}。",
        "{x}我实在不行。",
        "我很反感{x}。",
        "我从来不{v}{x}。",
        "我对{x}没兴趣。",
        "{x}太难受了，我不喜欢。",
        "我最怕{x}了。",
        "我一点都不喜欢{x}。",
        "我不爱{v}{x}。",
        "我很排斥{x}。",
        "别给我推荐{x}。",
        "我对{x}无感。",
        "{x}真的不适合我。",
        "我接受不了{x}。",
        "我嫌弃{x}。",
        "{x}我是真的不爱。",
        "我特别烦{x}。",
        "我避开{x}。",
        "我不碰{x}。",
    ],
    "flip_like": [
        "我现在开始喜欢{v}{x}了。",
        "以前讨厌{x}，现在喜欢了。",
        "我慢慢爱上了{x}。",
        "我现在挺喜欢{x}的。",
        "没想到我现在爱上{x}了。",
        "我对{x}改观了，现在很喜欢。",
        "我以前不{v}{x}，现在爱{v}了。",
        "我终于接受{x}了，现在还挺喜欢。",
        "{x}我现在越来越喜欢了。",
        "我最近喜欢上了{x}。",
        "我已经不讨厌{x}了，反而喜欢。",
        "我现在能{v}{x}了，而且很喜欢。",
        "后来我发现{x}其实挺好的。",
        "我转变了，现在喜欢{x}。",
        "我如今迷上{x}了。",
        "现在的我很爱{x}。",
    ],
    "flip_dislike": [
        "{x}我已经不{v}了。",
        "我再也不{v}{x}了。",
        "我不再喜欢{x}了。",
        "我对{x}已经没兴趣了。",
        "我现在不爱{v}{x}了。",
        "我{v}腻了{x}。",
        "{x}我早就不喜欢了。",
        "我已经厌倦了{x}。",
        "以前爱{v}{x}，现在不爱了。",
        "我现在受不了{x}了。",
        "{x}对我已经没吸引力了。",
        "我最近不怎么喜欢{x}了。",
        "我已经不{v}{x}了。",
        "我对{x}失去了兴趣。",
        "{x}我现在不碰了。",
        "我现在讨厌{x}了。",
        "我不想再{v}{x}了。",
    ],
    "quit": [
        "{x}我已经戒了。",
        "我戒了{x}。",
        "我已经戒掉{x}了。",
        "我把{x}戒了。",
        "我戒{x}一年了。",
        "{x}我戒掉了，不再碰。",
        "我已经彻底告别{x}了。",
        "我决定戒掉{x}。",
        "我放弃{x}了。",
        "我戒{x}戒成功了。",
        "我和{x}说再见了。",
        "我不再碰{x}，已经戒了。",
        "{x}已经被我戒掉了。",
        "我成功戒掉了{x}。",
    ],
    "switch": [
        "我从{x}换成{y}了。",
        "我把{x}换成了{y}。",
        "我从{x}改成{y}了。",
        "我不{v}{x}了，改{v}{y}。",
        "我由{x}转向了{y}。",
        "我从{x}转到{y}了。",
        "{x}→{y}，这是我今年的变化。",
        "我已经从{x}换到{y}了。",
        "我现在用{y}代替{x}。",
        "我放弃{x}，改{v}{y}了。",
        "以前{v}{x}，现在改{v}{y}了。",
        "我用{y}取代了{x}。",
        "我从{x}改用{y}了。",
        "我弃{x}投{y}了。",
    ],
    "exception": [
        "除了{m}，{c}我都喜欢。",
        "我除了{m}，别的{c}都{v}。",
        "{c}里我只有{m}不{v}。",
        "什么{c}我都{v}，就是不{v}{m}。",
        "我喜欢所有{c}，{m}除外。",
        "所有{c}我都爱，除了{m}。",
        "{c}我基本都喜欢，只有{m}不行。",
        "我对{c}来者不拒，唯独{m}不行。",
        "各种{c}我都{v}，除了{m}以外。",
        "{c}我都可以，就{m}不要。",
        "我{v}各种{c}，但{m}不{v}。",
        "{c}中除了{m}我都喜欢。",
    ],
    "comparative": [
        "比起{y}，我更喜欢{x}。",
        "我比起{y}更喜欢{x}。",
        "我更喜欢{x}而不是{y}。",
        "{x}比{y}好多了。",
        "相比{y}，我更爱{x}。",
        "我宁愿{v}{x}也不{v}{y}。",
        "{x}和{y}，我选{x}。",
        "我觉得{x}比{y}强。",
        "与其{v}{y}，不如{v}{x}。",
        "我喜欢{x}胜过{y}。",
        "{x}比{y}更合我胃口。",
        "在{x}和{y}之间我选{x}。",
        "我偏爱{x}，不太爱{y}。",
        "我更倾向于{x}，而不是{y}。",
    ],
    "slot": [
        "我现在最喜欢的{s}是{val}。",
        "我目前最爱的{s}是{val}。",
        "现在我最喜欢的{s}变成了{val}。",
        "{val}是我现在最喜欢的{s}。",
        "我最近最喜欢的{s}是{val}。",
        "目前我最爱的{s}是{val}。",
        "我新的最爱{s}是{val}。",
        "我现在心中第一的{s}是{val}。",
        "现在我的首选{s}是{val}。",
        "我如今最喜欢的{s}是{val}。",
        "这段时间我最爱的{s}是{val}。",
        "我当下最喜欢的{s}是{val}。",
    ],
    "allergy_retraction": [
        "我对{a}不再过敏了。",
        "我对{a}已经不过敏了。",
        "医生说我对{a}不过敏了。",
        "我的{a}过敏好了。",
        "我现在对{a}不过敏了。",
        "好消息，我对{a}已经不过敏了。",
        "我{a}过敏已经痊愈了。",
        "检查结果说我对{a}不过敏。",
        "我对{a}的过敏已经消失了。",
        "我不再对{a}过敏。",
        "原来我对{a}并不过敏。",
        "我的{a}过敏症已经好了。",
    ],
    "limit": [
        "一周最多{v}一次{x}。",
        "每天最多一杯。",
        "只在周末{v}{x}。",
        "我一个月只{v}两次{x}。",
        "{x}每周不超过一次。",
        "但是不能{v}太多。",
        "偶尔{v}一点{x}就好。",
        "每次只{v}一点点。",
        "我控制在一周两次以内。",
        "不过要适量。",
        "一天不超过一份{x}。",
        "只在特殊场合{v}{x}。",
    ],
    "none": [
        "你喜欢{x}吗？",
        "你觉得{x}怎么样？",
        "能推荐一些{x}吗？",
        "如果我喜欢{x}，你会推荐什么？",
        "假如我讨厌{x}，怎么办？",
        "我妈妈喜欢{x}。",
        "我朋友很讨厌{x}。",
        "他特别爱{x}。",
        "太棒了，就按你说的办！",
        "谢谢，这个建议不错。",
        "好主意！",
        "我正在堵车。",
        "今天下大雨。",
        "我在机场等飞机。",
        "这对我来说是小菜一碟。",
        "他真是对牛弹琴。",
        "我饿得能吃下一头牛。",
        "哪里能买到{x}？",
        "{x}健康吗？",
        "我老公喜欢{x}。",
        "我明天九点开会。",
        "好的，就这样吧。",
        "我今天忙得要命。",
        "给我讲讲{x}吧。",
        "我在为工作查{x}的资料。",
        "我同事迷上了{x}。",
        "要是我试试{x}呢？",
        "马马虎虎吧。",
    ],
}
CONTRAST_EN = [
    "I adore {x}, can't stand {y}.",
    "I love {x}, hate {y}.",
    "{X} yes, {y} no.",
    "I like {x}, not {y}.",
    "Big fan of {x}, not of {y}.",
    "I enjoy {x}, {y} not so much.",
]
CONTRAST_ZH = [
    "我爱{v}{x}，受不了{y}。",
    "我喜欢{x}，讨厌{y}。",
    "{x}可以，{y}不行。",
    "我爱{x}，不爱{y}。",
    "{x}我喜欢，{y}我不喜欢。",
    "喜欢{x}，不喜欢{y}。",
]


# Frames added for issue 17's second round (branch statements2), after the held-out split
# was fixed: they go to the train and dev splits only (never to test), are drawn with their
# own random stream (the rows above stay byte for byte as they were), and none copies a
# held-out frame or a shared case sentence.
EN_EXTRA: dict[str, list[str]] = {
    "like": [
        "I'm a big {x} person.", "{X} is my favourite thing.", "I'm really keen on {x}.",
        "{X} makes me happy.", "I'm fond of {x}.", "You can't go wrong with {x} for me.",
        "I absolutely love {x}.", "{X} is the best.", "I'm mad about {x}.",
        "I'm passionate about {x}.", "{X} is totally my thing.", "Count me in for {x} any time.",
        "I really like {x}.", "I'd happily {v} {x} all week.", "{X} is a favourite of mine.",
    ],
    "dislike": [
        "I'm not keen on {x}.", "{X} is a no from me.", "{X} turns me off.",
        "I really can't do {x}.", "I dislike {x} intensely.", "{X} is just awful.",
        "I despise {x}.", "{X} bores me.", "Not a big {x} fan.", "I don't care for {x}.",
        "{X} isn't my cup of tea.", "I'd never choose {x}.",
    ],
    "flip_like": [
        "I've recently started enjoying {x}.", "I've become a fan of {x}.",
        "Lately I've been loving {x}.", "I never liked {x}, but now I do.",
        "I've come to love {x}.", "I used to avoid {x}, now I love it.", "{X} won me over.",
        "I'm now really into {x}.", "I've developed a taste for {x}.",
        "I was never into {x} but I am now.", "{X} is growing on me these days.",
    ],
    "flip_dislike": [
        "I'm not into {x} anymore.", "I've stopped enjoying {x}.", "{X} no longer appeals to me.",
        "I've grown tired of {x}.", "I've kind of gone off {x}.",
        "I used to like {x} but now I don't.", "I've lost interest in {x}.",
        "I'm sick of {x} these days.", "{X} is dead to me now.", "{X} is no longer my thing.",
        "{X} has fallen off my list.", "{X} is off the table for me now.",
        "{X} is out for me these days.", "{X} is off my list now.",
    ],
    "quit": [
        "I've quit {x}.", "I stopped having {x} altogether.", "I no longer touch {x}, I quit.",
        "I've given {x} up completely.", "I dropped {x} from my life.", "I quit {x} cold turkey.",
    ],
    "switch": [
        "I've switched to {y} from {x}.", "I changed from {x} to {y}.",
        "{Y} has replaced {x} for me.", "I gave up {x} and went with {y}.",
        "Out with {x}, in with {y}.", "I've swapped out {x} for {y}.",
        "I use {y} now instead of {x}.", "I switched over to {y}, goodbye {x}.",
    ],
    "exception": [
        "Every {c} is fine except {m}.", "All {c} except {m} is great.",
        "I like most {c}, but not {m}.", "I'm good with any {c} besides {m}.",
        "Except for {m}, I like all {c}.", "I love all {c} other than {m}.",
        "Any kind of {c} works, except {m}.",
    ],
    "slot": [
        "My favourite {s} at the moment is {val}.", "{Val} is my current favourite {s}.",
        "My top {s} right now is {val}.", "These days my favourite {s} is {val}.",
        "My preferred {s} now is {val}.", "My go-to {s} at present is {val}.",
    ],
    "none": [
        "My wife likes {x}.", "Do you think I'd enjoy {x}?", "What's good about {x}?",
        "I wonder if {x} is worth it.", "My kids hate {x}.", "Would you recommend {x}?",
    ],
}
ZH_EXTRA: dict[str, list[str]] = {
    "like": [
        "我很喜欢{x}。", "我非常喜欢{v}{x}。", "{x}我特别爱。", "我对{x}很着迷。", "我超级喜欢{x}。",
        "{x}是我的心头好。", "我一直很爱{v}{x}。", "我真的很喜欢{x}。", "{x}我怎么都{v}不够。",
    ],
    "dislike": [
        "我不太喜欢{x}。", "我对{x}不感兴趣。", "{x}我不喜欢。", "我很讨厌{v}{x}。", "{x}不合我胃口。",
        "我真心不喜欢{x}。", "我特别不喜欢{x}。", "{x}让我受不了。", "我对{x}一点好感都没有。",
        "我不想{v}{x}。",
    ],
    "flip_like": [
        "我现在喜欢上{x}了。", "我以前不喜欢{x}，现在喜欢了。", "{x}我现在挺爱的。",
        "我渐渐喜欢上了{x}。",
    ],
    "flip_dislike": [
        "我现在不太喜欢{x}了。", "{x}我已经不爱了。", "我对{x}没感觉了。", "我现在对{x}不感兴趣了。",
        "{x}我现在不喜欢了。", "以前喜欢{x}，现在不喜欢了。", "我渐渐不喜欢{x}了。",
        "我已经不再{v}{x}了。",
    ],
    "quit": [
        "我已经不{v}{x}了，戒了。", "我戒了{v}{x}的习惯。", "{x}我彻底戒了。", "我早就戒了{x}。",
        "我和{x}彻底断了。", "{x}我戒了好久了。",
    ],
    "switch": [
        "我不{v}{x}了，现在{v}{y}。", "我从{x}转成{y}了。", "{y}取代了{x}。",
        "我改{v}{y}了，不再{v}{x}。", "以前是{x}，现在是{y}。",
    ],
    "exception": [
        "{c}我都喜欢，除了{m}。", "{c}我全都{v}，只是不{v}{m}。", "除了{m}以外，别的{c}我都爱。",
        "{c}我都行，只有{m}不{v}。", "{c}我都爱，就是{m}不行。",
    ],
    "slot": [
        "我现在最爱的{s}是{val}。", "目前我最喜欢的{s}是{val}。", "我眼下最喜欢的{s}是{val}。",
        "最近我最喜欢的{s}是{val}。",
    ],
    "none": ["我女儿喜欢{x}。", "你推荐{x}吗？", "我邻居讨厌{x}。"],
}
CONTRAST_EN_EXTRA = [
    "I love {x}, but I hate {y}.", "{X} is great, {y} is awful.", "I'm into {x}, not into {y}.",
    "I like {x}, but not {y}.", "Love {x}, hate {y}.", "I enjoy {x}, but I can't stand {y}.",
]
CONTRAST_ZH_EXTRA = ["我喜欢{x}，不喜欢{y}。", "{x}我爱，{y}我讨厌。", "我爱{v}{x}，讨厌{y}。"]

# Frames added in the third round (branch statements3), likewise train/dev only, drawn with
# their own random stream: phrasings the head read weakly as kinds (likes said through a
# negation, "X now, not Y" switches, object-first changes of mind, Chinese fear and quitting
# words), written fresh; none copies a held-out frame or a shared case sentence.
EN_EXTRA3: dict[str, list[str]] = {
    "like": [
        "I can never have too much {x}.", "I could never say no to {x}.",
        "I'd never turn down {x}.", "I can't live without {x}.", "{X} never disappoints me.",
        "There's no such thing as too much {x} for me.", "I'm hooked on {x}.",
        "I'm stoked about {x}.", "I fancy {x}.", "I relish {x}.", "I go nuts for {x}.",
        "I'm wild about {x}.", "I totally vibe with {x}.", "{X} hits the spot every time.",
        "{X} is my guilty pleasure.", "I live for {x}.", "I'm head over heels for {x}.",
        "I don't think I could ever get enough {x}.",
    ],
    "dislike": [
        "{X} gives me the creeps.", "I'm allergic to the idea of {x}.", "{X} is a hard pass.",
        "I wouldn't touch {x}.", "{X} puts me off.", "I have no time for {x}.",
    ],
    "flip_like": [
        "I never used to like {x}, but now I do.", "I hated {x} as a kid, but I do like it now.",
        "Who knew, I actually like {x} now.", "{X} has won me over lately.",
        "I've had a change of heart about {x}, I love it.",
    ],
    "flip_dislike": [
        "{X} just isn't fun for me anymore.", "{X} got old for me.",
        "{X} stopped appealing to me.", "{X} bores me these days.",
        "The novelty of {x} has worn off.", "{X} doesn't excite me anymore.",
        "{X} leaves me cold now.", "My love for {x} has faded.",
        "I can't be bothered with {x} anymore.", "{X} has worn thin on me.",
        "I've moved past {x}.", "{X} feels stale to me now.", "I've outgrown {x}.",
        "I liked {x} once, but not anymore.", "I loved {x} as a teen, I don't now.",
    ],
    "quit": [
        "I've laid off {x} for good.", "I've stopped {v}ing {x} for good.",
        "I'm a year clean of {x}.", "I've given {x} the boot.", "I weaned myself off {x}.",
    ],
    "switch": [
        "These days I go for {y}, not {x}.", "It's {y} for me now, no longer {x}.",
        "I left {x} behind for {y}.", "{X} is out, {y} is in.",
        "I've given up {x} in favour of {y}.", "I switched over from {x} to {y}.",
        "Goodbye {x}, hello {y}.", "I'm a {y} person now, not a {x} person.",
        "Nowadays I pick {y} over {x}.", "I've gone from {x} to {y} this year.",
    ],
    "exception": [
        "I'll eat any {c} except {m}.", "Any {c} at all is fine, just not {m}.",
        "I'm into every {c} apart from {m}.", "I like all {c} excluding {m}.",
        "I'm fine with every {c} aside from {m}.",
    ],
    "slot": [
        "My current go-to {s} is {val}.", "My {s} of the moment is {val}.",
        "{Val} is my top {s} these days.", "My number one {s} right now is {val}.",
    ],
    "none": [
        "My roommate can't get enough of {x}.",
        "Is {x} any good?", "Should I try {x}?", "We ran out of {x}.",
        "The store sells {x}.", "I'm out of {x} today.",
    ],
}
ZH_EXTRA3: dict[str, list[str]] = {
    "like": [
        "{v}{x}让我很快乐。", "每次{v}{x}我都很开心。", "{x}总能让我心情变好。", "我离不开{x}。",
        "没有{x}我可不行。", "{x}我永远{v}不腻。", "我对{x}从来不会腻。", "{x}是我的快乐源泉。",
        "我对{x}爱不释手。", "我好喜欢{x}啊。",
    ],
    "dislike": [
        "我有点害怕{x}。", "{x}让我很头疼。", "{x}我碰都不想碰。", "我对{x}提不起兴趣。",
        "{x}我真的喜欢不起来。", "我不待见{x}。", "{x}我敬而远之。", "我一点也不想{v}{x}。",
        "{x}这种东西我不行。",
    ],
    "flip_like": ["我以前怕{x}，现在很喜欢。", "{x}我现在越来越爱了。", "我现在对{x}很着迷。"],
    "flip_dislike": [
        "我现在对{x}提不起兴趣了。", "{x}我现在{v}不下去了。", "{x}我已经{v}够了。",
        "我对{x}的热情没了。", "现在{x}我不太感冒了。", "这阵子我不喜欢{x}了。",
        "{x}现在不合我口味了。", "{x}我以前爱{v}，如今不爱了。",
    ],
    "quit": [
        "{x}我决定不再{v}了。", "我从今年开始不{v}{x}了。", "我和{x}一刀两断了。",
        "我不再{v}{x}，已经断了。", "我发誓再也不{v}{x}。", "我终于把{x}戒掉了。",
    ],
    "switch": ["我现在{v}{y}，不{v}{x}了。", "我把{x}换掉了，改成{y}。", "{x}退出，{y}上位。"],
    "exception": [
        "{c}我来者不拒，就是{m}不行。", "任何{c}我都可以，{m}除外。", "{c}我全爱，只有{m}受不了。",
    ],
    "slot": ["我眼下的首选{s}是{val}。", "现阶段我最爱的{s}是{val}。"],
    "none": ["{x}卖完了。", "我家没有{x}了。"],
}
CONTRAST_EN_EXTRA3 = [
    "I like {x}, {y} less so.", "I'm into {x}, not so much {y}.", "I love {x}, {y} not really.",
]
CONTRAST_ZH_EXTRA3 = ["{x}我爱{v}，{y}就算了。", "我喜欢{x}，{y}不太行。"]
# Fourth round (issue 17, non-statements): everyday chat that states no preference, the kind
# the head read as a like or a quit when no rule matched ("likes night" from a goodnight,
# "has given up report" from a finished report). Greetings, thanks and acknowledgements,
# events, plans, errands, feelings, finished tasks, weather, purchases and mentions of a thing
# without a stance on it; train/dev only, drawn with their own random stream, written fresh
# (no held-out frame, no shared case sentence, no line of the held-out chat turns of
# ``bench/data/chat_turns_heldout.jsonl``, which were written blind by someone else).
EN_EXTRA4: dict[str, list[str]] = {
    "none": [
        "Hey, how's it going?", "Good evening!", "Morning!", "Hi again.", "Yo, what's up?",
        "Bye for now.", "Talk to you later.", "Catch you later!", "Night night!",
        "Hello, anyone there?", "Hiya.", "Good afternoon to you.",
        "Thanks so much!", "Cheers for that.", "Got it.", "Okay, makes sense.", "Alright, cool.",
        "Perfect, thanks.", "Fair enough.", "Noted.", "Right, I see.", "Yep.", "Sure thing.",
        "Okay, will do.", "Sounds like a plan.", "That works.", "Cool cool.", "Gotcha.",
        "I just had {x} for lunch.", "We had {x} at the party last night.",
        "I picked up some {x} on the way home.", "I ordered {x} for the team today.",
        "My neighbour brought over some {x}.", "There was {x} at the office today.",
        "I'm making {x} for dinner tonight.", "I saw an ad for {x} on the bus.",
        "The café was out of {x} this morning.", "{X} was on sale at the mall.",
        "There's a documentary about {x} on TV tonight.", "I read an article about {x}.",
        "My coworker brought up {x} at lunch.", "I'm writing a blog post about {x}.",
        "Someone asked me about {x} today.", "I have to buy {x} for the trip.",
        "I need to return the {x} I bought.", "I'm going to {v} {x} with friends tonight.",
        "We're out of {x} again.", "I forgot to pack {x}.", "The shop had no {x} left.",
        "I got some {x} as a gift.", "I found {x} in the back of the cupboard.",
        "I'm heading to the shops later.", "I'm visiting my parents this weekend.",
        "I have a dentist appointment tomorrow.", "My train leaves at noon.",
        "I'm working late tonight.", "We're moving house next month.",
        "I'm exhausted.", "I'm starving.", "I feel great today.", "My back hurts a bit.",
        "I'm a bit stressed about work.", "I slept badly last night.", "I'm in a good mood.",
        "Just wrapped up a long meeting.", "Done with my workout.", "I finished the book.",
        "I finally sent the email.", "I just got home.", "Just landed in Berlin.",
        "It's freezing outside.", "It's so humid today.", "The sun is finally out.",
        "I bought a new kettle.", "I got a haircut today.", "I renewed my passport.",
        "Wow, that was quick.", "Oh no!", "Haha, fair.", "Whoa, really?", "Oops, my bad.",
        "Let's talk about something else.", "Give me a second.", "Hold on a minute.",
    ],
}
ZH_EXTRA4: dict[str, list[str]] = {
    "none": [
        "嗨，最近怎么样？", "晚上好！", "回头聊。", "拜拜啦。", "早啊。", "在吗？", "下午好。",
        "收到。", "明白了，谢谢。", "行，就这样吧。", "好嘞。", "懂了。", "辛苦了！", "谢啦。",
        "没问题。", "好的好的。", "知道了。", "可以的。", "就这么定了。",
        "我中午{v}了{x}。", "我昨天{v}了{x}。", "我刚买了{x}。", "今天公司发了{x}。",
        "我在超市看到{x}打折。", "朋友送了我一些{x}。", "我晚饭准备做{x}。",
        "我今晚要和朋友去{v}{x}。", "我在网上看到一篇关于{x}的文章。", "同事今天聊起了{x}。",
        "孩子们整天在说{x}。", "我得去买点{x}。", "我忘了带{x}。", "店里的{x}卖光了。",
        "我把{x}落在公司了。", "快递把{x}送错了。", "我在写一篇关于{x}的文章。",
        "我周末要回老家。", "明天要早起。", "我下午去趟银行。", "我下个月搬家。",
        "我今天要加班。", "我的航班晚点了。",
        "我今天好累。", "我饿死了。", "头有点疼。", "今天心情不错。", "工作压力好大。",
        "昨晚没睡好。", "我有点感冒。",
        "终于把报告写完了。", "我刚健完身回来。", "我刚到公司。", "作业做完了。", "刚开完会。",
        "外面好冷啊。", "今天太阳好大。", "又下雪了。",
        "我剪头发了。", "我换了个新手机壳。", "我办好护照了。",
        "哇，这么快！", "哎呀，糟了。", "哈哈，有道理。", "真的假的？", "等我一下。",
        "我们聊点别的吧。",
    ],
}
DEV_FRACTION = 0.2
"""Share of the train frames (by a second digest) kept aside as the dev split to tune on."""


def _held_out(lang: str, kind: str, frame: str) -> bool:
    digest = hashlib.sha256(f"{lang}|{kind}|{frame}".encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 >= 1 - HELD_OUT_FRACTION


def _dev(lang: str, kind: str, frame: str) -> bool:
    digest = hashlib.sha256(f"dev|{lang}|{kind}|{frame}".encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32 < DEV_FRACTION


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _expect(kind: str, o: dict[str, str], lang: str) -> tuple[list, list]:
    """(active, absent): (polarity, keyword) pairs capture must and must not yield."""
    x, y = o.get("xk", ""), o.get("yk", "")
    table = {
        "like": ([("like", x)], [("dislike", x)]),
        "dislike": ([("dislike", x)], [("like", x)]),
        "flip_like": ([("like", x)], [("dislike", x)]),
        "flip_dislike": ([("dislike", x)], [("like", x)]),
        "quit": ([("dislike", x)], [("like", x)]),
        "switch": ([("like", y)], [("like", x)]),
        "exception": (
            [("like", o.get("ck", "")), ("dislike", o.get("mk", ""))],
            [("like", o.get("mk", ""))],
        ),
        "comparative": ([("like", x)], [("like", y)]),
        "slot": ([("like", o.get("vk", ""))], []),
        "allergy_retraction": ([], [("dislike", o.get("ak", ""))]),
        "limit": ([], [("dislike", x)] if x else []),
        "none": ([], []),
        "contrast": ([("like", x), ("dislike", y)], [("like", y), ("dislike", x)]),
    }
    active, absent = table[kind]
    return [list(p) for p in active if p[1]], [list(p) for p in absent if p[1]]


def _fill(frame: str, lang: str, rng: random.Random) -> dict[str, str]:
    o1, o2 = rng.sample(OBJECTS, 2)
    if lang == "zh":  # one verb fits both ("从X换成Y")
        o2 = rng.choice([o for o in OBJECTS if o[3] == o1[3] and o != o1] or [o2])
    cls = rng.choice(CLASSES)
    slot = rng.choice(SLOTS)
    allergen = rng.choice(ALLERGENS)
    if lang == "en":
        val = rng.choice(slot[1])
        v = o1[4]
        return {
            "x": o1[0], "xk": o1[1], "y": o2[0], "yk": o2[1], "v": v,
            "c": cls[0], "ck": cls[0].split()[-1], "m": cls[1], "mk": cls[2],
            "s": slot[0], "val": val, "vk": val.split()[-1].lower(),
            "a": allergen[0], "ak": allergen[1],
        }  # fmt: skip
    val = rng.choice(slot[3])
    return {
        "x": o1[2], "xk": o1[2], "y": o2[2], "yk": o2[2], "v": o1[3],
        "c": cls[3], "ck": cls[3], "m": cls[4], "mk": cls[4], "s": slot[2], "val": val,
        "vk": val, "a": allergen[2], "ak": allergen[2],
    }  # fmt: skip


def _render(frame: str, o: dict[str, str], lang: str, rng: random.Random) -> str:
    v = o["v"]
    if lang == "en" and "{v}ing" in frame:
        v = {
            "eat": "eat",
            "drink": "drink",
            "watch": "watch",
            "read": "read",
            "play": "play",
            "use": "us",
            "wear": "wear",
            "visit": "visit",
            "do": "do",
            "listen to": "listen",
        }[v]
        frame = frame.replace("{v}ing", v + "ing")
    text = frame.format(
        x=o["x"],
        X=_cap(o["x"]),
        y=o["y"],
        Y=_cap(o["y"]),
        v=v,
        c=o["c"],
        m=o["m"],
        s=o["s"],
        val=o["val"],
        Val=_cap(o["val"]),
        a=o["a"],
    )
    if lang == "en":
        pre = rng.choice(EN_PRE)
        text = pre + (text[0].lower() + text[1:] if pre and not text.startswith("I") else text)
        if not pre and text.endswith(".") and (post := rng.choice(EN_POST)):
            text = text[:-1] + post + "."
    else:
        text = rng.choice(ZH_PRE) + text
    return text


def _rows(lang: str, kind: str, frame: str, split: str, rng: random.Random) -> list[dict]:
    rows: list[dict] = []
    seen: set[str] = set()
    for _ in range(PER_FRAME * 3):
        if len(seen) >= PER_FRAME:
            break
        o = _fill(frame, lang, rng)
        text = _render(frame, o, lang, rng)
        if text in seen:
            continue
        seen.add(text)
        if kind == "limit":
            o = {**o, "xk": o["xk"] if "{x}" in frame else ""}
        active, absent = _expect(kind, o, lang)
        row = {"text": text, "lang": lang, "kind": kind, "frame": frame,
               "split": split, "active": active, "absent": absent}  # fmt: skip
        if kind == "contrast":
            first, _, second = text.partition("，" if lang == "zh" else ", ")
            row["parts"] = [[first, "like"], [second, "dislike"]]
        rows.append(row)
    return rows


def build() -> list[dict]:
    """Every row; ``split`` is ``test`` (held-out frames), ``dev`` or ``train``."""
    rng = random.Random(SEED)
    rows: list[dict] = []
    for lang, table in (("en", EN), ("zh", ZH)):
        contrast = CONTRAST_EN if lang == "en" else CONTRAST_ZH
        for kind, frames in [*table.items(), ("contrast", contrast)]:
            for frame in frames:
                split = "test" if _held_out(lang, kind, frame) else "train"
                rows += _rows(lang, kind, frame, split, rng)
    extra_rng = random.Random(SEED + 1)
    for lang, table in (("en", EN_EXTRA), ("zh", ZH_EXTRA)):
        contrast = CONTRAST_EN_EXTRA if lang == "en" else CONTRAST_ZH_EXTRA
        for kind, frames in [*table.items(), ("contrast", contrast)]:
            for frame in frames:
                rows += _rows(lang, kind, frame, "train", extra_rng)
    third_rng = random.Random(SEED + 2)
    for lang, table in (("en", EN_EXTRA3), ("zh", ZH_EXTRA3)):
        contrast = CONTRAST_EN_EXTRA3 if lang == "en" else CONTRAST_ZH_EXTRA3
        for kind, frames in [*table.items(), ("contrast", contrast)]:
            for frame in frames:
                rows += _rows(lang, kind, frame, "train", third_rng)
    fourth_rng = random.Random(SEED + 3)
    for lang, table in (("en", EN_EXTRA4), ("zh", ZH_EXTRA4)):
        for kind, frames in table.items():
            for frame in frames:
                rows += _rows(lang, kind, frame, "train", fourth_rng)
    for row in rows:
        if row["split"] == "train" and _dev(row["lang"], row["kind"], row["frame"]):
            row["split"] = "dev"
    return rows


def main() -> None:
    rows = build()
    OUT.mkdir(parents=True, exist_ok=True)
    for split in ("train", "dev", "test"):
        path = OUT / f"{split}.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for row in rows:
                if row["split"] == split:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts: dict[tuple[str, str, str], int] = {}
    for row in rows:
        key = (row["split"], row["lang"], row["kind"])
        counts[key] = counts.get(key, 0) + 1
    for key in sorted(counts):
        print(*key, counts[key])


if __name__ == "__main__":
    main()

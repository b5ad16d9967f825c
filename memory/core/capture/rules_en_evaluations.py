"""English evaluations and single-valued slots: the object comes first, or is judged.

"My favourite author is …" / "… is my favourite author" (a slot), "… is a
deal-breaker", "… gives me headaches", "… don't interest me", "I find …
boring / relaxing", "…, it's great" (a pronoun back to an object named
before), and "I've changed my mind on …" (names the object the next clause
judges). Kinds of phrasing, never particular objects.
"""

from __future__ import annotations

from .lexicons import EN_BETTER, EN_PEOPLE_RE
from .rules import Rule, en

_FAV = (
    r"(?:new\s+|absolute\s+|all[-\s]time\s+|personal\s+|current\s+|very\s+)?(?:favou?rite|fave|fav)"
)
_SLOT_KIND = rf"(?:{_FAV}|current|usual|go-to|preferred)"
_FIND_NEG = (
    r"ineffective|boring|tedious|overwhelming|distracting|demotivating|disorienting|annoying|"
    r"frustrating|unpleasant|uncomfortable|unappealing|uninteresting|dull|stressful|exhausting|"
    r"off-?putting|unbearable|unenjoyable|disgusting|gross|repetitive|monotonous|childish|"
    r"gimmicky|pointless|useless|unhelpful|confusing|intimidating|scary|creepy|depressing|"
    r"draining|tiring|restrictive|predictable|cheesy|shallow|unnecessary|excessive|"
    r"pretentious|irritating|painful|nauseating|sickening|unsettling|disturbing|distressing|"
    r"isolating|impersonal|overrated|tasteless|bland|dreadful|awful|terrible|horrible|"
    r"unbearable|inconvenient|unreliable|uninspiring|disengaging|alienating|too\s+[a-z-]+"
)
_FIND_POS = (
    r"relaxing|enjoyable|fun|engaging|fascinating|interesting|helpful|effective|useful|"
    r"soothing|calming|comfortable|beautiful|delicious|refreshing|inspiring|motivating|"
    r"rewarding|satisfying|exciting|charming|cozy|cosy|therapeutic|energizing|energising|"
    r"invigorating|uplifting|stimulating|meditative|peaceful|wonderful|amazing|great"
)
_EVAL_POS = (
    r"great|amazing|awesome|fantastic|wonderful|lovely|excellent|brilliant|perfect|delicious|"
    r"fun|enjoyable|comfortable|the\s+best|my\s+favou?rite|so\s+good|really\s+good|"
    r"pretty\s+good|not\s+(?:that\s+|so\s+)?bad|growing\s+on\s+me"
)
_EVAL_NEG = (
    r"awful|terrible|horrible|disgusting|gross|boring|dull|tedious|annoying|overrated|"
    r"unbearable|the\s+worst|not\s+for\s+me|not\s+my\s+thing|too\s+[a-z-]+|so\s+bad|bad"
)
_EVAL_ADV = (
    r"(?:(?:really|actually|so|pretty|quite|very|just|definitely|totally|absolutely|honestly|"
    r"now|kind\s+of|kinda|genuinely|truly|always|still)\s+)*"
)
_PRONOUN_SUBJECT = (
    r"^(?:(?:and|but|so|well|honestly|actually|now|though)\s+)*"
    r"(?P<obj>it|they|that|those|these|this|this\s+one|that\s+one)"
    r"(?:'s|'re|\s+is|\s+are|\s+has\s+been|\s+have\s+been|\s+tastes?|\s+feels?|\s+looks?|"
    r"\s+seems?)\s+"
)
_SUBJECT = r"(?:^|[,;]\s*)(?P<obj>(?:(?!\bi\b)[^,;]){1,100}?)"
_NEGATOR = r"(?:\b(?:not|never|no\s+longer)\b|n't\b)"
_UNNEGATED_SUBJECT = (
    r"(?:^|[,;]\s*)(?:(?:honestly|tbh|ngl|frankly|ok|okay|so|yeah|well|oh|actually|and|but|"
    r"lol|still|now|nowadays|lately)\s+)*"
    rf"(?P<obj>(?:(?!\bi\b)(?!{_NEGATOR})(?!\bused\s+to\b)[^,;]){{1,100}}?)"
)
"""A subject with no negator and no past habit in it, after any filler: "cilantro doesn't" is
no object of "bother me", nor "heights used to" of "terrify me", nor "honestly crowds"."""
_KEPT_SUBJECT = _UNNEGATED_SUBJECT.replace(
    r"(?!\bused\s+to\b)", r"(?!\b(?:used\s+to|is|are|was|were|that|which|who)\b)"
).replace(
    "(?P<obj>",
    rf"(?:(?:my|our)\s+(?!(?:[\w-]+\s+){{0,2}}{EN_PEOPLE_RE.pattern}))?(?P<obj>(?!(?:my|our)\b)",
)
""":data:`_UNNEGATED_SUBJECT` without a verb or relative in it: the noun phrase that is kept
("…, Gmail just works for me"; not "head & shoulders is still the only one that works"), after
the user's ``my`` where it names a thing, not a person ("my Havaianas are still my go-to"; not
"my husband is still my number one")."""
_ME_ADVERBS = r"(?:(?:really|just|always|totally|still|kinda|sometimes|honestly)\s+){0,2}"
_ME_DISLIKE = (
    r"(?:bores?|annoys?|disgusts?|bothers?|irritates?|upsets?|frustrates?|scares?|frightens?|"
    r"terrif(?:y|ies)|repels?|offends?|nauseates?|sickens?|(?:do|does)(?:n't|\s+not)\s+(?:really\s+)?"
    r"(?:interest|appeal\s+to|excite|suit|agree\s+with))\s+me|(?:stresses|stress|grosses|gross|"
    r"freaks|freak)\s+me\s+out|(?:turns?|puts?)\s+me\s+off|makes?\s+me\s+(?:feel\s+)?(?:sick|"
    r"nauseous|queasy|uncomfortable|anxious|nervous|ill|gag|dizzy|bored)|gives?\s+me\s+(?:an?\s+)?"
    r"(?:headaches?|migraines?|hives|rash|heartburn|the\s+creeps|nightmares|anxiety)"
)
ME_NOT_DISLIKE = (
    r"never\s+(?:really\s+)?(?:bother|annoy|scare|faze|frighten|irritate|upset|bug|disgust|"
    r"offend)e?d\s+me|(?:doesn't|don't|does\s+not|do\s+not|no\s+longer|never|won't)\s+"
    r"(?:(?:really|even|actually|particularly|much)\s+)?(?:(?:bother|annoy|scare|faze|"
    r"frighten|irritate|upset|frustrate|bug|disgust|repel|intimidate|offend)(?:e?s)?\s+me|"
    r"terrif(?:y|ies)\s+me|"
    r"(?:gross|freak|stress)(?:es)?\s+me\s+out|(?:put|turn)s?\s+me\s+off|makes?\s+me\s+"
    r"(?:feel\s+)?(?:sick|nauseous|queasy|gag|uncomfortable|anxious|nervous))"
)
"""An aversion the verb negates ("Cilantro doesn't bother me anymore", "Heights no longer scare
me"): no dislike; a mild acceptance, as "I don't mind…" is. The evaluation rule below reads it
with the object first; :func:`~.negation.negated_aversion` vetoes a dislike the head reads in it."""
NEVER_TOOK = (
    r"(?:has\s+|have\s+)?never\s+(?:really\s+|quite\s+)?(?:worked|stuck|clicked|sat\s+right)\s+"
    r"(?:for|with)\s+me"
)
"""A named thing that never suited the user ("Google Calendar never worked for me")."""
LET_DOWN = (
    r"(?:(?:has\s+|have\s+)?lost\s+(?:me(?=\s*(?:[,.;!]|$|\s+(?:after|with|when|for\s+good|ages|"
    r"years|months|a\s+while|completely|forever|long\s+ago|there|somewhere)\b))|my\s+(?:trust|"
    r"business|custom|loyalty|vote))|(?:is|are|'s|'re)\s+(?:(?:now|officially)\s+)?"
    r"(?:dead\s+to\s+me|history(?:\s+(?:for\s+me|in\s+(?:my|our)\s+\w+|now)|(?=\s*[,;]))|"
    r"a\s+thing\s+of\s+the\s+past\s+for\s+me)|(?:went|has\s+gone)\s+"
    r"(?:in(?:to)?\s+the\s+(?:bin|trash)|to\s+(?:goodwill|the\s+charity\s+shop|the\s+tip)))"
)
"""A named thing that lost the user ("LastPass lost my trust", "kimchi is dead to me", "the
drip machine went to Goodwill", "Spotify is history, Tidal all the way": bare before a clause
that goes on, the way a switch is told; the head had read that one as a like of Spotify).
With :data:`NEVER_TOOK`, the other side of a switch said of it as subject; issue 17 (such
clauses had been read as nothing)."""
_ME_LIKE = (
    r"appeals?\s+to|interests?|fascinates?|excites?|delights?|relaxes?|calms?|soothes?|"
    r"inspires?|energi[sz]es?|makes?\s+me\s+(?:feel\s+)?(?:happy|calm|relaxed)"
)
_NO_GO = (
    r"(?:(?:just|really|simply|totally|definitely|honestly)\s+)?(?:(?:is|are|'s|'re)\s+(?:(?:"
    r"definitely|probably|totally|really|just|simply|always|absolutely)\s+)?(?:an?\s+)?(?:(?:"
    r"strict|hard|absolute|total|real|complete|definite|big|major|firm)\s+)?(?:deal-?breaker|"
    r"no-?go|non-?starter|off-?limits|off\s+the\s+table|out\s+of\s+the\s+question|"
    r"not\s+for\s+me|not\s+my\s+(?:thing|cup\s+of\s+tea|style|jam|scene)|a\s+no\s+for\s+me|"
    r"never\s+an\s+option)|(?:isn't|aren't|is\s+not|are\s+not|'s\s+not|'re\s+not)\s+(?:really\s+)?"
    r"(?:for\s+me|my\s+(?:thing|cup\s+of\s+tea|style|jam|scene)))"
)
_FINE = (
    r"(?:(?:actually|totally|perfectly|really|quite|pretty|just)\s+)?(?:fine|ok|okay|alright|"
    r"all\s+right|acceptable|not\s+(?:so|that|too)\s+bad)"
)
_CHANGE_MARK = r"(?:now|after\s+all|these\s+days|nowadays|by\s+me|with\s+me|for\s+me)"
"""Mild acceptance counts only with a marker of change or of the user's own judgement: "plastic
is fine now" flips an older dislike; "the weather is fine" states nothing."""

EVALUATION_RULES: tuple[Rule, ...] = (
    en(
        rf"\bmy\s+(?P<slot>{_FAV}\s+[a-z][a-z -]{{0,30}}?)\s+(?:is|has\s+to\s+be|would\s+be)"
        r"\s+(?:now\s+|currently\s+|still\s+|definitely\s+|probably\s+)?(?P<obj>.+)",
        "like",
        "{slot} is {obj}",
        first_person=True,
    ),
    en(  # "my current phone is a Pixel", not "my current job is boring"
        rf"\bmy\s+(?P<slot>{_SLOT_KIND}\s+[a-z][a-z -]{{0,30}}?)\s+(?:is|would\s+be)\s+"
        r"(?:now\s+|currently\s+|still\s+)?(?P<obj>(?:an?\s+|the\s+|(?-i:[A-Z0-9])).+)",
        "like",
        "{slot} is {obj}",
        first_person=True,
    ),
    en(
        rf"\bmy\s+{_FAV}s?(?:\s+[a-z][a-z -]{{0,30}}?)?\s+(?:is|are|has\s+to\s+be|would\s+be)\s+"
        r"(?P<obj>.+)",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(
        rf"{_SUBJECT}\s+(?:is|are|'s|'re)\s+(?:(?:definitely|probably|still|totally|always|"
        rf"really|now)\s+)?my\s+(?P<slot>{_FAV}\s+[a-z][a-z -]{{0,30}}?)(?=\W*$)",
        "like",
        "{slot} is {obj}",
        first_person=True,
    ),
    en(
        rf"{_SUBJECT}\s+(?:is|are|'s|'re)\s+(?:(?:definitely|probably|still|totally|always|"
        rf"really|now)\s+)?(?:one\s+of\s+)?my\s+{_FAV}s?\b",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(
        rf"{_UNNEGATED_SUBJECT}\s+(?:is|are|'s|'re|remains?)\s+(?:(?:definitely|probably|totally|"
        r"really|just|"
        r"simply|always|still)\s+)*(?:my\s+(?:thing|jam|go-to)|right\s+up\s+my\s+(?:alley|street))\b",
        "like",
        "likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(  # the one kept over the others: "Cholula is still my ride or die", "Firefox still wins"
        rf"{_KEPT_SUBJECT}\s+(?:(?:is|are|'s|'re|remains?|has\s+been|have\s+been)\s+)?"
        r"(?:(?:still|always|forever|honestly|just|simply|easily|now)\s+)*"
        r"(?:(?:is|are|'s|'re|remains?)\s+)?(?:(?:still|always|forever|easily)\s+)*"
        r"(?:my\s+(?:go-?to|#\s?1|number\s+one|no\.?\s?1|ride\s+or\s+die|daily\s+driver|"
        r"holy\s+grail|staple|one\s+true\s+love|comfort\s+pick|top\s+pick|pick|winner)|"
        r"the\s+(?:goat|winner|gold\s+standard|undisputed\s+champ(?:ion)?)|(?:the\s+)?"
        r"(?:top|best|unbeatable|unmatched)\s+for\s+me|(?<=still\s)(?:wins|reigns|rules)|"
        r"(?:wins|reigns|rules)(?=\s+for\s+me)|(?:just\s+)?works?\s+(?:best\s+)?for\s+me|"
        r"(?:feels?|tastes?|works?|fits?)\s+best)\b"
        r"(?=\W*$|\s*[,.!;]|\s+(?:for|to)\s+me\b|\s+(?:and|though|tbh|imo|honestly|lol|haha|"
        r"hands\s+down|by\s+far|every\s+time|staying|forever)\b)",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(  # "Switched to Firefox, way faster than Chrome": what was just named is the better side
        rf"^(?:(?:and|but|so|plus)\s+)?(?:(?:it|they)(?:'s|'re|\s+is|\s+are|\s+(?:tastes?|feels?|"
        rf"works?|runs?|looks?|sounds?))\s+)?{EN_BETTER}\s+"
        r"(?P<old>[^,.;!?]{1,40}?)(?=\s*[,.;!?]|\s*$)",
        "like",
        "likes {obj}",
        old_label="less keen on {old} than {obj}",
        elliptic=True,
    ),
    en(  # "Oat milk is a big step up from soy milk for me": better than the other side
        rf"{_SUBJECT}\s+(?:is|are|'s|'re|was|were)\s+(?:(?:such|definitely|honestly|really)\s+)?"
        r"(?:a\s+|an\s+)?(?:(?:big|huge|real|massive|major|definite|serious|clear)\s+)?"
        r"(?:step\s+up|upgrade|improvement)\s+(?:from|on|over)\s+"
        r"(?P<old>(?!(?:it|that|this|them|last\s+\w+|before|(?:the\s+|my\s+)?(?:old|previous|"
        r"original|last|first|earlier|former|one)\b))[^,.;!?]{1,40}?)"
        r"(?=\s+for\s+me\b|\s*[,.;!?]|\s*$)",
        "like",
        "likes {obj}",
        old_label="less keen on {old} than {obj}",
    ),
    en(  # "I wouldn't be caught dead in Crocs", "you'll never catch me at a rave"
        r"\b(?:(?:wouldn'?t|would\s+not|won'?t|will\s+not)(?:\s+ever)?|(?:would|will|'d|'ll)\s+"
        r"never)\s+be\s+(?:caught|seen)\s+dead\s+(?:in|with|at|on|near|eating|wearing|drinking|"
        r"using|driving|listening\s+to)\b|"
        r"\byou(?:(?:'d|\s+would|'ll|\s+will)\s+never|\s+won'?t)\s+(?:catch|see|find)\s+me\s+"
        r"(?:in|with|at|on|near|eating|wearing|drinking|using|driving)\b",
        "dislike",
        "wouldn't be caught dead with {obj}",
        first_person=True,
    ),
    en(
        rf"{_SUBJECT}\s+{_NO_GO}(?!\s+for\s+(?!me\b))",
        "dislike",
        "dislikes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"{_UNNEGATED_SUBJECT}\s+(?:{ME_NOT_DISLIKE})\b",
        "like",
        "doesn't mind {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"{_UNNEGATED_SUBJECT}\s+{_ME_ADVERBS}(?:{_ME_DISLIKE})\b",
        "dislike",
        "dislikes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"{_UNNEGATED_SUBJECT}\s+{_ME_ADVERBS}{LET_DOWN}",
        "dislike",
        "no longer likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"{_UNNEGATED_SUBJECT}\s+{_ME_ADVERBS}{NEVER_TOOK}",
        "dislike",
        "dislikes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"{_UNNEGATED_SUBJECT}\s+{_ME_ADVERBS}(?:{_ME_LIKE})\s+me\b",
        "like",
        "likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(  # mild acceptance, with a marker: "plastic is fine now", "spicy food is OK by me"
        rf"{_SUBJECT}\s+(?:is|are|'s|'re)\s+{_FINE}\s+{_CHANGE_MARK}\b",
        "like",
        "is fine with {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(  # "jazz is growing on me", "olives have really grown on me"
        rf"{_SUBJECT}\s+(?:is|are|'s|'re|has|have)\s+(?:been\s+)?(?:really\s+|slowly\s+|"
        r"kind\s+of\s+|finally\s+)?(?:growing|grown|grew)\s+on\s+me\b",
        "like",
        "likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"{_PRONOUN_SUBJECT}{_EVAL_ADV}(?P<adj>{_EVAL_POS})\b",
        "like",
        "finds {obj} {adj}",
        pronoun_only=True,
    ),
    en(
        rf"{_PRONOUN_SUBJECT}{_EVAL_ADV}(?P<adj>{_EVAL_NEG})\b",
        "dislike",
        "finds {obj} {adj}",
        pronoun_only=True,
    ),
    en(
        r"\bfind(?:ing)?\s+(?P<obj>(?!it\b)(?:(?!\bthan\b)[^,;]){1,80}?)\s+(?:to\s+be\s+)?"
        r"(?:(?:so|very|really|"
        r"quite|rather|pretty|incredibly|extremely|highly|deeply|particularly|genuinely|truly|way|"
        r"too)\s+)*"
        rf"(?P<adj>{_FIND_POS})\b",
        "like",
        "finds {obj} {adj}",
    ),
    en(
        r"\bchanged\s+my\s+mind\s+(?:on|about|regarding|over|with)\b",
        "like",
        "{obj}",
        topic=True,
    ),
    en(
        r"\bfind(?:ing)?\s+(?P<obj>(?!it\b)(?:(?!\bthan\b)[^,;]){1,80}?)\s+(?:to\s+be\s+)?"
        r"(?:(?:so|very|really|"
        r"quite|rather|pretty|incredibly|extremely|highly|overly|a\s+bit|kind\s+of|sort\s+of|"
        r"utterly|deeply|excessively|particularly|generally|more|less|often|always|somewhat|"
        r"way|too|"
        rf"just|too\s+much\s+of\s+a)\s+)*(?P<adj>{_FIND_NEG})\b",
        "dislike",
        "finds {obj} {adj}",
    ),
)
"""Rules whose object is the subject or is judged; listed before the verb rules."""

__all__ = ["EVALUATION_RULES", "LET_DOWN", "ME_NOT_DISLIKE", "NEVER_TOOK"]

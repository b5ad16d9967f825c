"""English stance rules with the user as subject: what they like, avoid, left or switched to.

The earliest match in a clause wins, then the longest, then the one listed
first. Each rule is a kind of phrasing, never a particular object: verbs of
liking and disliking, nouns of aversion and preference ("I have a strong
aversion to …"), refusals and habits ("I refuse to …", "I don't watch …
anymore"), quitting and switching. Evaluations and single-valued slots, where
the object comes first or is judged, are in :mod:`.rules_en_evaluations`.
"""

from __future__ import annotations

import re

from .lexicons import EN_GOOD_IDIOM
from .rules import Rule, RuleTable, en
from .rules_en_current import CURRENT_RULES
from .rules_en_evaluations import EVALUATION_RULES
from .rules_en_kept import KEPT_RULES
from .rules_en_past import PAST_RULES
from .rules_wishes import EN_WISH_RULES
from .switches import EN_NOT_A_TRIAL, EN_SWITCHED_FROM

_NT = r"(?:n'?t|\s+not)"  # don't / dont / do not
_CANT = r"can(?:'?t|not|\s+not)"
_ADV = r"(?:(?:really|particularly|much|actually|even|exactly|ever|usually|normally)\s+)?"
_FAN = r"(?:an?\s+)?(?:(?:really\s+|very\s+)?(?:big|huge|massive|great|total|long-?time)\s+)?fan"
_INTENSE = (
    r"(?:(?:very|really|quite|so|strong|deep|intense|extreme|severe|serious|real|big|huge|"
    r"great|acute|irrational|massive|major|general|absolute|total|complete|particular|"
    r"personal|ethical|moral|natural|profound|visceral|definite|clear|strict|firm|slight|"
    r"mild|certain|strongly|deeply|extremely|intensely|genuine|longstanding|lifelong|"
    r"[a-z]+-(?:seated|rooted|standing|held|set|term))\s+){0,3}"
)
_USE_VERBS = r"eat|drink|wear|use|buy|order|touch|consume|purchase"
_HABIT_VERBS = (  # multi-word forms first: an alternation takes the first that matches
    r"listen\s+to|go\s+to|go\s+near|participate\s+in|engage\s+in|take\s+part\s+in|"
    r"believe\s+in|dine\s+(?:at|in|out)|eat\s+(?:at|out)|shop\s+at|stay\s+(?:at|in)|"
    r"fly(?:\s+with)?|travel\s+(?:by|with)|"
    rf"{_USE_VERBS}|watch|play|read|attend|visit|drive|smoke|ride|cook|trust|support|consider|"
    r"tolerate|do"
)
_REFUSE_VERBS = (
    r"feed(?:\s+(?:my|our|the)\s+\w+)?|put\s+up\s+with|deal\s+with|work\s+with|"
    r"set\s+foot\s+in|step\s+foot\s+in|sit\s+through|pay\s+for|subscribe\s+to|"
    r"compromise\s+on|bother\s+with|"
    rf"{_HABIT_VERBS}|try|own|adopt|accept|book|choose|pick|apply|install|stand"
)
_AVOID = (
    r"avoid(?:ing)?|stay(?:ing)?\s+away\s+from|steer(?:ing)?\s+clear\s+of|keep(?:ing)?\s+"
    r"away\s+from|shy(?:ing)?\s+away\s+from|stay(?:ing)?\s+clear\s+of"
)
_PERSON_NOUNS = (
    r"cat|dog|morning|night|beach|mountain|city|country|outdoors?|indoors?|coffee|tea|wine|beer|"
    r"book|summer|winter|sun|snow|sea|ocean|water|sweet|savou?ry|breakfast|dessert|bath|shower|"
    r"spring|autumn|fall|rain|museum|party|gym|sports?|car|bike|train|road\s+trip|camping"
)
_WANT_TO = (
    r"(?:(?:'d|would)\s+(?:much\s+|really\s+)?(?:like|love|prefer|rather|want)\s+to\s+|"
    r"(?:want|need|have|try|tend|prefer|choose|like|aim|plan|strive|must|should|always|"
    r"strictly|completely|generally|usually)\s+(?:to\s+)?)?"
)
_HEDGE = r"(?<!\bfor\s)(?<!\bin\s)(?<!\bat\s)(?<!\bafter\s)(?<!\bwas\s)(?<!\bis\s)"
"""No "like" after a preposition or copula: a hedge or a likeness ("for like 20 hours")."""

_DISLIKES: tuple[Rule, ...] = (
    en(rf"\bnot\s+{_ADV}(?:much\s+of\s+)?{_FAN}\s+of\b", "dislike", "dislikes {obj}", copula="ok"),
    en(rf"\b(?:(?:'ve|have)\s+)?never\s+been\s+{_FAN}\s+of\b", "dislike", "dislikes {obj}"),
    en(
        r"\b(?:not|no\s+longer)\s+(?:(?:really|that|so|too|very|much|big)\s+)?into\b",
        "dislike",
        "dislikes {obj}",
        copula="required",
    ),
    en(
        r"\bnot\s+(?:(?:very|too|that|particularly|really|at\s+all)\s+)?(?:fond\s+of|keen\s+on|"
        r"interested\s+in|big\s+on|crazy\s+about|passionate\s+about|drawn\s+to)\b",
        "dislike",
        "dislikes {obj}",
        copula="ok",
    ),
    en(r"\b(?:un|dis)interested\s+in\b", "dislike", "dislikes {obj}", copula="ok"),
    en(r"\bdo{_NT}\s+do\s+well\s+(?:with|in|at|on)\b", "dislike", "doesn't do well with {obj}"),
    en(
        rf"\bdo{_NT}\s+{_ADV}(?:like|love|enjoy|care\s+for|appreciate)\b",
        "dislike",
        "dislikes {obj}",
    ),
    en(rf"\bdo{_NT}\s+{_ADV}want\b", "dislike", "doesn't want {obj}"),
    en(rf"\bdo{_NT}\s+{_ADV}(?P<verb>{_HABIT_VERBS})\b", "dislike", "doesn't {verb} {obj}"),
    en(
        rf"\bnever\s+(?:really\s+|ever\s+)?(?P<verb>{_HABIT_VERBS})\b",
        "dislike",
        "doesn't {verb} {obj}",
    ),
    en(
        r"\b(?:(?:'ve|have)\s+)?never\s+(?:really\s+)?(?:liked|loved|enjoyed|cared\s+for)\b",
        "dislike",
        "dislikes {obj}",
    ),
    en(r"\bno\s+longer\s+(?:like|love|enjoy|care\s+for)\b", "dislike", "dislikes {obj}"),
    en(rf"\bno\s+longer\s+(?P<verb>want|{_HABIT_VERBS})\b", "dislike", "doesn't {verb} {obj}"),
    en(
        r"\b(?:dislike|hate|detest|loathe|despise|abhor|resent|oppose|eschew|shun|boycott)\b"
        r"|\b(?:object\s+to|abstain\s+from|refrain\s+from)\b",
        "dislike",
        "dislikes {obj}",
    ),
    en(
        rf"\b{_CANT}\s+(?:even\s+)?(?:stand|bear|stomach|tolerate|handle|do|deal\s+with|cope\s+with|"
        r"take|abide|go\s+near|be\s+around|be\s+near|look\s+at)\b",
        "dislike",
        "dislikes {obj}",
    ),
    en(
        rf"\b{_CANT}\s+(?P<verb>eat|drink|have|digest|consume|wear|use|touch|participate\s+in|"
        r"engage\s+in|do)\b",
        "dislike",
        "can't {verb} {obj}",
    ),
    en(rf"\b{_WANT_TO}(?:{_AVOID})\b", "dislike", "avoids {obj}", copula="modal"),
    en(
        r"\b(?:'d\s+|would\s+)?(?:(?:much|strongly|really|definitely)\s+)?(?:prefer|like|want|"
        r"choose|try|tend|wish)\s+not\s+(?P<verb>(?:to\s+)?(?!be\b)[a-z]+(?:\s+(?:in|to|at|on|"
        r"with|from|near|around|through))?)\b",
        "dislike",
        "prefers not {verb} {obj}",
        copula="modal",
    ),
    en(
        rf"\b(?:refuse[sd]?|refusing|decline)\s+to\s+(?:ever\s+)?(?P<verb>{_REFUSE_VERBS})\b",
        "dislike",
        "refuses to {verb} {obj}",
        copula="ok",
    ),
    en(
        r"\b(?:won't|will\s+not|wouldn't|would\s+not|'d\s+never|would\s+never|will\s+never|"
        rf"'ll\s+never)\s+(?:ever\s+)?(?P<verb>{_REFUSE_VERBS})\b",
        "dislike",
        "won't {verb} {obj}",
    ),
    en(
        r"\b(?:no\s+longer|not\s+any\s*more)\s+allergic\s+to\b",
        "like",
        "no longer allergic to {obj}",
        copula="ok",
    ),
    en(
        r"\b(?:not|never\s+been)\s+(?:really\s+)?allergic\s+to\b",
        "like",
        "not allergic to {obj}",
        copula="ok",
    ),
    en(
        r"\b(?:outgrew|outgrown|got\s+over|no\s+longer\s+have)\s+(?:my\s+|the\s+|an?\s+)?"
        r"(?P<obj>[a-z][a-z -]{0,30}?)\s+(?:allergy|allergies|intolerance)\b",
        "like",
        "no longer allergic to {obj}",
    ),
    en(r"\ballergic\s+to\b", "dislike", "allergic to {obj}", copula="ok"),
    en(r"\ballergic(?=\W*$)", "dislike", "allergic to {obj}", copula="ok", elliptic=True),
    en(
        r"\b(?:have|'ve\s+got|got)\s+an?\s+(?:(?:severe|mild|bad|serious|strong)\s+)?"
        r"(?P<obj>[a-z][a-z -]{0,30}?)\s+(?:allergy|intolerance)\b",
        "dislike",
        "allergic to {obj}",
    ),
    en(r"\bhave\s+an?\s+(?:\w+\s+)?(?:allergy|intolerance)\s+to\b", "dislike", "allergic to {obj}"),
    en(
        r"\b(?<!['’])(?!(?:am|so|very|really|not|be|is|are|i|severely)\b)(?P<obj>[a-z]+)\s+"
        r"intolerant\b",
        "dislike",
        "intolerant to {obj}",
        copula="ok",
    ),
    en(r"\bintolerant\s+(?:to|of)\b", "dislike", "intolerant to {obj}", copula="ok"),
    en(r"\bsensitive\s+to\b", "dislike", "sensitive to {obj}", copula="ok"),
    en(
        rf"\b(?:have|has|feel|'ve\s+got)\s+(?:an?\s+)?{_INTENSE}(?:aversion|dislike|distaste|"
        r"disdain|hatred|loathing|antipathy|objection|bias|prejudice|revulsion|contempt|disgust|"
        r"resistance)\s+(?:to|for|of|towards?|against|about)\b",
        "dislike",
        "dislikes {obj}",
    ),
    en(
        rf"\b(?:have|has|'ve\s+got)\s+(?:an?\s+)?{_INTENSE}(?:fear|phobia|terror|dread|horror)\s+"
        r"(?:of|about)\b",
        "dislike",
        "is afraid of {obj}",
    ),
    en(
        r"\b(?:scared|afraid|terrified|frightened|fearful|wary|phobic)\s+of\b",
        "dislike",
        "is afraid of {obj}",
        copula="ok",
    ),
    en(
        r"\bhave\s+(?P<verb>(?:no|zero|little|not\s+much|absolutely\s+no)\s+(?:real\s+)?(?:interest|"
        r"desire|wish|patience|appetite|love|liking|taste|use|time)\s+(?:in|for))\b",
        "dislike",
        "has {verb} {obj}",
    ),
    en(
        r"\bhave\s+(?:an?\s+)?(?P<verb>(?:very\s+|extremely\s+|really\s+)?(?:low|limited|little|"
        r"zero|no)\s+tolerance\s+(?:for|of|to))\b",
        "dislike",
        "has {verb} {obj}",
    ),
    en(
        r"\b(?:averse|opposed)\s+to\b|\b(?:put|turned)\s+off\s+by\b|"
        r"\b(?:disgusted|repulsed|bored)\s+(?:by|with|of)\b|\bfed\s+up\s+with\b",
        "dislike",
        "dislikes {obj}",
        copula="ok",
    ),
    en(r"\bagainst\b", "dislike", "is against {obj}", copula="required"),
    en(r"\b(?:turned|turning|turn)\s+against\b", "dislike", "has turned against {obj}"),
    en(
        r"\b(?:(?:not|never)\s+(?:very\s+|really\s+|at\s+all\s+|entirely\s+|totally\s+)?"
        r"comfortable|uncomfortable)(?:\s+(?:with|around|about|near|by))?\b",
        "dislike",
        "is uncomfortable with {obj}",
        copula="ok",
    ),
    en(
        r"\b(?:never|not|don'?t|do\s+not|can'?t|cannot)\s+(?:ever\s+|really\s+)?"
        r"(?:get\s+|grow\s+)?(?:tired|sick|bored)\s+of\b",
        "like",
        "never tires of {obj}",
    ),
    en(r"\b(?:sick|tired)\s+of\b", "dislike", "dislikes {obj}", copula="required"),
    en(r"\b(?:had|'ve\s+had|have\s+had)\s+enough\s+of\b", "dislike", "dislikes {obj}"),
    en(
        r"\b(?:'m|am)\s+(?:(?:strictly|completely|fully|totally|mostly)\s+)?(?P<obj>[a-z]+)-free\b",
        "dislike",
        "avoids {obj}",
    ),
    en(
        r"^(?:(?:and|but|oh|just|so|please)\s+)*(?:no|nothing)\s+"
        r"(?!(?:more|less|later|earlier|sooner|rush|hurry|worries|problem|pressure|need|beats|tops|"
        r"compares|comes|can|could|will|has|have|ever)\b)(?P<obj>[^,;]{1,60}?)\s*,?\s+"
        r"(?:for\s+me|please)\b",
        "dislike",
        "doesn't want {obj}",
    ),
    en(
        r"\bnot\s+(?:really\s+|much\s+of\s+)?an?\s+(?:(?:big|huge|real)\s+)?"
        rf"(?P<obj>{_PERSON_NOUNS}|[a-z]+(?=\s+(?:lover|fan)))\s+(?:person|lover|fan)\b",
        "dislike",
        "dislikes {obj}",
        copula="required",
    ),
    en(
        r"\bfind\s+it\s+(?:(?:very|really|quite|so|extremely|incredibly|a\s+bit)\s+)?"
        r"(?P<adj>hard|difficult|tough|impossible|tedious|boring|exhausting|stressful|frustrating|"
        r"annoying|unpleasant|uncomfortable|draining|overwhelming)\s+to\s+(?:stay\s+(?:engaged|"
        r"focused|interested|motivated)\s+(?:with|in|during|by|on)|focus\s+(?:on|during)|"
        r"concentrate\s+(?:on|during)|enjoy|get\s+into|deal\s+with|learn\s+(?:from|with|through|"
        r"by)|engage\s+with|keep\s+up\s+with)\b",
        "dislike",
        "finds it {adj} to engage with {obj}",
        no_possessive=True,
    ),
    en(
        r"\bfind\s+it\s+(?:(?:very|really|quite|so|extremely|incredibly|a\s+bit)\s+)?"
        r"(?P<adj>hard|difficult|tough|impossible|tedious|boring|exhausting|stressful|frustrating|"
        r"annoying|unpleasant|uncomfortable|draining|overwhelming)\s+to\s+"
        rf"(?P<verb>{_REFUSE_VERBS}|sit\s+through|follow|wear|learn)\b",
        "dislike",
        "finds it {adj} to {verb} {obj}",
        no_possessive=True,
    ),
    en(r"\bno\s+more\b(?!\s+than\b)", "dislike", "doesn't want {obj}"),
    en(
        r"\b(?:'d|would)\s+rather\s+not\s+(?:have|eat|drink|use|get|wear|see|buy)\b",
        "dislike",
        "avoids {obj}",
    ),
    en(
        rf"\b{_WANT_TO}(?P<verb>quit|quitting|gave\s+up|given\s+up|giving\s+up|give\s+up|stopped|"
        r"swore\s+off|"
        r"sworn\s+off|cut\s+out|cutting\s+out|ditched)\b(?!\s+(?:on|by|at|in|for|to|with|"
        r"from|being|the\s+habit|trying|caring|worrying)\b)",
        "dislike",
        "{verb} {obj}",
        copula="ok",
        no_possessive=True,
    ),
    en(
        rf"\b{_WANT_TO}(?P<verb>cut(?:ting)?\s+(?:down|back)\s+on|limit(?:ing)?|reduc(?:e|ing)|"
        r"minimi[sz](?:e|ing))\b",
        "dislike",
        "cutting down on {obj}",
        copula="ok",
    ),
    en(
        r"\b(?:'ll|will|would|can|could)?\s*(?P<verb>eat|drink|wear|watch|read|listen\s+to|play|"
        r"try|like|love|enjoy|do)\s+(?:pretty\s+much\s+|just\s+about\s+|almost\s+)?(?:anything|"
        r"everything)\s+(?:except(?:\s+for)?|but|other\s+than|apart\s+from|save\s+for)\s+"
        r"(?P<obj>.+)",
        "dislike",
        "{verb} everything except {obj}",
    ),
    en(
        r"^(?:(?:but|and|well)\s+)?(?:not|no)\s+(?:any\s*more|longer|now|these\s+days|so\s+much)\W*$",
        "dislike",
        "no longer likes {obj}",
        elliptic=True,
        reverses=True,
    ),
)

_SWITCHES: tuple[Rule, ...] = (
    en(
        r"\b(?:switched|changed|converted|migrated|transitioned)\s+(?:over\s+)?"
        r"from\s+(?P<old>.+?)\s+(?:to|for)\s+(?P<obj>.+)",
        "like",
        "switched to {obj}",
    ),
    en(
        r"\b(?:replaced|swapped|traded|ditched|exchanged|substituted)\s+"
        rf"{EN_SWITCHED_FROM}\s+"
        rf"(?:for(?!{EN_GOOD_IDIOM})|with)\s+(?P<obj>.+)",
        "like",
        "switched to {obj}",
    ),
    en(
        rf"\b(?:switched|converted|transitioned|migrated)\s+(?:over\s+)?to\b{EN_NOT_A_TRIAL}",
        "like",
        "switched to {obj}",
    ),
    en(r"\bmade\s+the\s+switch\s+to\b", "like", "switched to {obj}"),
    en(  # "made the jump to mechanical keyboards", "moved over to Fastmail", "jumped ship to X"
        r"\b(?:made\s+the\s+(?:jump|leap|move|change)|(?:moved|gone|went|come|came)\s+over|"
        r"jumped\s+ship)\s+to\b",
        "like",
        "switched to {obj}",
    ),
)

_OTHERS: tuple[Rule, ...] = (
    en(
        r"\b(?:likes|loves|adores|enjoys|prefers|is\s+into|is\s+a\s+(?:big\s+|huge\s+)?fan\s+of)\b",
        "like",
        "likes {obj}",
        third_person=True,
    ),
    en(
        rf"\b(?:hates|dislikes|detests|(?:does|is|was){_NT}\s+(?:like|eat|drink|want))\b",
        "dislike",
        "dislikes {obj}",
        third_person=True,
    ),
)

_LIKES: tuple[Rule, ...] = (
    en(  # a diet the user keeps: "I'm vegetarian", "I am a strict vegan"
        r"\b(?:an?\s+)?(?:(?:strict|strictly|fully|mostly|ethical|committed|lifelong|practicing|"
        r"practising|longtime|proud)\s+)?(?=(?:vegetarian|vegan|pescatarian|pescetarian|"
        r"flexitarian)\b)",
        "like",
        "is {obj}",
        copula="required",
    ),
    en(
        r"\b(?P<verb>follow|follows|keep\s+to|stick\s+to|adhere\s+to|maintain|live|am\s+on|"
        r"'m\s+on)\s+(?P<obj>(?:an?\s+)?(?:[a-z-]+\s+){0,3}?(?:diet|lifestyle))\b",
        "like",
        "follows {obj}",
    ),
    en(r"\b(?:keep|eat|observe)\s+(?P<obj>kosher|halal)\b", "like", "keeps {obj}"),
    en(  # "I stick to decaf", "I'm sticking with my Kindle": keeping to a choice is liking it
        # (not "I'm stuck with a slow laptop", "I'll stick with tea" for one order, "I stuck
        # with Firefox for ages" gone by, nor "I quit sugar and I'm sticking to it": the quit)
        r"^(?:i\s+(?:(?:always|only|just|still|mostly|usually|generally|now)\s+)*stick|"
        r"(?:i'm|i\s+am)\s+(?:(?:always|only|just|still|now)\s+)*sticking)\s+(?:to|with)\b"
        r"(?!\s+(?:it|that|this|them)\b)",
        "like",
        "sticks with {obj}",
    ),
    en(  # a flip of an older dislike: "I don't mind spicy food anymore", "I no longer mind…"
        # (without the marker, "I don't mind plastic" is indifference, not a preference)
        rf"\b(?:do{_NT}\s+(?:really\s+|even\s+)?mind\b(?=.*\b(?:any\s?more|now|these\s+days|"
        r"nowadays)\b)|no\s+longer\s+minds?\b)(?!\s+(?:if|when|that|whether|me)\b)",
        "like",
        "doesn't mind {obj}",
    ),
    en(
        r"\b(?:(?:'ve|have)\s+)?(?:(?:finally|slowly|actually)\s+)?(?:come\s+(?:a)?round\s+(?:to|on)|"
        r"warmed\s+(?:up\s+)?to|gotten\s+used\s+to|got\s+used\s+to|grown\s+to\s+like)\b",
        "like",
        "likes {obj}",
    ),
    en(rf"\b{_FAN}\s+of\b", "like", "likes {obj}", copula="ok"),
    en(
        r"\ban?\s+(?:(?:big|huge|massive|lifelong|long-?time|die-?hard|true|real|total|avid)\s+)?"
        r"(?P<obj>(?!big\b|huge\b)[a-z][\w&'-]*(?:\s+[a-z][\w&'-]*)?)\s+(?:fan|lover)\b",
        "like",
        "likes {obj}",
        copula="required",
    ),
    en(  # "I'm a cat person", not "I'm a busy person": nouns that name a taste
        rf"\ban?\s+(?:(?:big|huge|real|total)\s+)?(?P<obj>{_PERSON_NOUNS})\s+person\b",
        "like",
        "likes {obj}",
        copula="required",
    ),
    en(
        r"\b(?:always|usually|generally|normally|typically|mostly)\s+(?:choose|pick|go\s+for|"
        r"opt\s+for|book|order)\b",
        "like",
        "likes {obj}",
        comparative=True,
    ),
    en(
        r"\b(?:'d|would|will|'ll)\s+(?:always\s+)?(?:pick|choose|take|go\s+for|opt\s+for)\s+"
        r"(?P<obj>[^,;]{1,60}?\s+over\s+.+)",
        "like",
        "likes {obj}",
        comparative=True,
    ),
    en(r"\b(?:got|gotten|getting)\s+(?:really\s+)?into\b", "like", "likes {obj}", copula="ok"),
    en(r"\binto\b", "like", "likes {obj}", copula="required"),
    en(
        r"\b(?:obsessed\s+with|crazy\s+about|fond\s+of|partial\s+to|passionate\s+about|"
        r"fascinated\s+(?:by|with)|drawn\s+to|devoted\s+to|keen\s+on|a\s+sucker\s+for|mad\s+about|"
        r"enthusiastic\s+about)\b",
        "like",
        "likes {obj}",
        copula="ok",
    ),
    en(
        r"\ban?\s+(?:(?:big|huge|strong|firm|passionate|keen|great|avid|true)\s+)?(?:advocate|"
        r"supporter|believer|proponent|champion|admirer|devotee|enthusiast)\s+(?:of|for|in)\b",
        "like",
        "likes {obj}",
        copula="required",
    ),
    en(rf"\b{_CANT}\s+get\s+enough\s+of\b", "like", "likes {obj}"),
    en(r"\b(?:come|came)\s+(?:a)?round\s+(?:to|on)\b", "like", "has come around to {obj}"),
    en(
        r"\b(?:'ve|have)\s+always\s+(?:liked|loved|enjoyed|preferred|adored)\b",
        "like",
        "likes {obj}",
    ),
    en(
        r"\b(?:'d|would)\s+(?:much\s+|really\s+|always\s+)?(?:prefer|rather\s+(?:have|eat|"
        r"drink|use|get|wear|buy))\b",
        "like",
        "likes {obj}",
        comparative=True,
    ),
    en(
        rf"\b(?:have|has)\s+(?:an?\s+)?{_INTENSE}(?:preference|liking|fondness|love|passion|"
        r"affinity|weakness|soft\s+spot|penchant|appreciation|enthusiasm|thing)\s+for\b",
        "like",
        "likes {obj}",
        comparative=True,
    ),
    en(
        r"\b(?:(?:will|'ll|would|can)\s+)?(?:only|exclusively|solely)\s+(?:want\s+(?:to\s+)?)?"
        rf"(?P<verb>{_HABIT_VERBS}|own|adopt|feed(?:\s+(?:my|our|the)\s+\w+)?|choose|book|"
        r"go\s+for|shop\s+for|want)\b",
        "like",
        "only {verb} {obj}",
    ),
    en(  # "I wear only Adidas now"; not "I eat only once a day", "I drink only on weekends"
        rf"\b(?P<verb>{_HABIT_VERBS})\s+(?:only|exclusively|solely)\b(?!\s+(?:once|twice|"
        r"\d|one|two|three|half|a\s+(?:few|little|bit|couple)|on|at|in|when|if|during|after|"
        r"before|every|occasionally|sometimes|rarely|socially|a\s+little|with|for)\b)",
        "like",
        "only {verb} {obj}",
    ),
    en(  # "I wear nothing but Patagonia"
        rf"\b(?P<verb>{_HABIT_VERBS})\s+nothing\s+but\b",
        "like",
        "only {verb} {obj}",
    ),
    en(  # "I drink light roast exclusively", "I play Overwatch and basically nothing else"
        rf"\b(?P<verb>{_HABIT_VERBS})\s+(?P<obj>[^,.;!?]{{1,40}}?)\s+(?:exclusively|solely|"
        r"and\s+(?:basically\s+|pretty\s+much\s+|literally\s+)?nothing\s+else)\b",
        "like",
        "only {verb} {obj}",
    ),
    en(  # "it's Coke Zero or nothing for me"
        r"^\W*(?:(?:now|these\s+days|nowadays)\s+)?(?:it'?s\s+|it\s+is\s+)?"
        r"(?P<obj>[^,.;!?]{1,40}?)\s+or\s+(?:nothing|bust)\b",
        "like",
        "only {obj}",
    ),
    en(  # "nothing beats whole milk", "nothing has beaten Nando's for me yet"
        r"\bnothing\s+(?:(?:can|could|will)\s+(?:ever\s+)?(?:beat|top|compare\s+to|come\s+close\s+"
        r"to)|(?:has|have)\s+(?:ever\s+)?(?:beaten|topped|come\s+close\s+to)|(?:ever\s+)?(?:beats|"
        r"tops|compares\s+to|comes\s+close\s+to))\s+(?P<obj>[^,.;!?]{1,40})",
        "like",
        "likes {obj}",
    ),
    en(r"\bcan\s+only\s+(?P<verb>use|eat|drink|wear|have|tolerate)\b", "like",
       "can only {verb} {obj}"),
    en(
        r"\b(?P<verb>learn|work|study|focus|train|think|sleep)\s+best\s+(?:through|with|by|in|"
        r"from|using|via|when|at|on)\b",
        "like",
        "{verb}s best with {obj}",
        comparative=True,
    ),
    en(
        r"\b(?:prioriti[sz]e|favou?r|value|opt\s+for|lean\s+towards?|believe\s+in|appreciate|"
        r"crave)\b",
        "like",
        "likes {obj}",
        comparative=True,
    ),
    en(r"\bi\s+(?:(?:really|totally|just|kinda|so)\s+)?dig\b", "like", "likes {obj}"),
    en(r"\bprefer\b", "like", "likes {obj}", comparative=True),
    en(rf"\b(?:{_HEDGE}like|love|adore|enjoy|loving|enjoying)\b", "like", "likes {obj}",
       comparative=True),
)


EN_RULES: tuple[Rule, ...] = (
    *EVALUATION_RULES, *KEPT_RULES, *EN_WISH_RULES, *CURRENT_RULES, *_SWITCHES, *_DISLIKES,
    *PAST_RULES, *_OTHERS, *_LIKES)
"""English stance rules; the earliest match in a clause wins, then the longest."""

EN_TABLE = RuleTable(EN_RULES, re.IGNORECASE)
"""The English rules, scanned together."""

__all__ = ["EN_RULES", "EN_TABLE"]

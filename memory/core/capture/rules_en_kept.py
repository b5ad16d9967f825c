"""English rules for what the user keeps and leaves: a quit that does not happen ("still can't
quit my Switch", "I'll never give up pizza"), loyalty said as who one is ("a Maggi loyalist",
"fountain pen gang", "Nikon shooter for life"), the only one used ("X is the only one I
use"), being done with something ("I'm through with Jira"), what the user cannot do
without ("I can't go a day without coffee" had stored *likes day*), a quit said of a pronoun
("Alcohol? Gave it up in January"), a taste never acquired ("never got into podcasts"), a
return ("went back to whole milk"; "can't go back to cotton", a return ruled out) and devotion
("Die-hard Marvel fan", "Liverpool till I die", "loyal to Chipotle", "we're a Subaru family").
Issue 17: the first had been stored as a change away ("has given up Nintendo Switch"), the
others mostly not at all. Kinds of phrasing, never particular objects.
"""

from __future__ import annotations

from .lexicons import EN_PEOPLE_RE
from .rules import Rule, en

EN_UNQUIT = (
    r"\b(?:can'?t|cannot|could\s*n'?t|(?:could|can|will|would|'ll|'d)\s+never|won'?t|"
    r"(?:am|'m)\s+not(?:\s+going\s+to|\s+gonna)?|never\s+(?:going\s+to|gonna))\s+"
    r"(?:ever\s+|really\s+|fully\s+)?(?P<verb>quit(?:ting)?|give\s+up|giving\s+up|"
    r"ditch(?:ing)?)\b(?!\s+(?:on|trying|caring|worrying|being|now|yet|completely|smoking|"
    r"vaping|cigarettes|nicotine|drinking|alcohol|gambling|(?:my\s+)?job)\b)"
)
"""A quit that does not happen ("still can't quit my Switch", "I'm not giving up cheese", "I'll
never give up pizza"): the user keeps what they name, a like; the statement head reads the
quitting words as a change away. Not an addiction the user fails to quit ("I can't quit
smoking, please help"), nor a job."""

EN_BACK_FOR_GOOD = (
    r"(?:^\W*|[,;.]\s*|\b)(?:(?:i'm|i\s+am|i\s+went|went|came|now|and|so)\s+)*"
    r"(?:(?:right|straight|firmly|happily)\s+)?back\s+(?:on|to|with)\s+(?:(?:my|our)\s+)?"
    r"(?P<obj>(?!(?:it|them|that|this|square\s+one|normal|work|school|bed|sleep)\b)"
    r"[^,;.!?]{1,40}?)\s*,?\s+(?:(?:for\s+good|to\s+stay|permanently|for\s+life)(?:\s+now)?|"
    r"and\s+(?:(?:honestly|really|just)\s+)?(?:loving|love|staying|happy|never\s+leaving|"
    r"not\s+leaving)|(?:and\s+)?staying\s+(?:put|there))\b"
)
"""A return said to last ("back on iPhone for good now", "went back to Apple Notes and staying
put"): a like; the statement head reads the going back as a change away (quit), so it is also
a veto of that reading (:func:`~.negation.kept`)."""

_NO_RETURN_OBJECT = (
    r"(?!(?:(?:my|our|the)\s+)?(?:it|them|that|this|him|her|you|where|what|how|when|before|"
    r"square\s+one|normal|work|school|bed|sleep|reality|basics|life|drawing\s+board|start|"
    r"beginning|first\s+one|old\s+self|office|doing|being|avoiding|waiting|looking|searching|"
    r"staring|wondering|hoping|menu|track|table|feet|form|"
    r"schedule|the\s+\d+s|\d+s)\b)"
    r"(?!(?:regular|usual|old|the\s+old\s+ones?|the\s+usual)\s*(?:[,;.!?]|$))"
)
"""What a return does not name a thing by: a pronoun, an idiom's end ("back to square one",
"back to the drawing board", "back to normal", "back on the menu"), a gerund of no taste (a
habit or a state, "back to avoiding milk", "back to waiting on hold") or a bare adjective ("so
I'm back to regular")."""
_RETURNED_TO = (
    rf"(?:(?:my|our)\s+)?(?P<obj>{_NO_RETURN_OBJECT}[a-z0-9][^,;.!?]{{0,40}}?)"
    r"(?=\s*(?:[,;.!?]|[^\w\s'&+-]|$)|\s+and\s+(?![\w-]+\s*(?:[,;.!?]|$))|"
    r"\s+(?:every|each|after|again|but|because|since|last|for|"
    r"this|next|when|now|for\s+good|lol|haha|tbh|honestly|anyway|ever\s+since)\b)"
)
"""What a return goes back to: up to a punctuation mark, an emoji, or a time or reason after it
("went back to the G502 every time", "came crawling back to Apple Music 😅"); "and" ends it
before a verb, not before a last word ("back to pen and paper")."""
EN_RETURN_FORMS = (
    r"(?:(?:^\W*|[,;]\s*)(?:(?:and|so|then|now|but|finally|eventually)\s+)*)?"
    r"(?:(?:keeps?|kept|always|still)\s+)?(?:went|gone|came|switched|moved|crawled|ran|drifted|"
    r"headed|returned|end(?:ed)?\s+up(?:\s+going|\s+coming)?)\s+(?:(?:right|straight|crawling|"
    r"running)\s+)?back\s+(?:to|on)\s+"
    rf"{_RETURNED_TO}",
    r"(?:^\W*|[,;]\s*)(?:(?:and|so|then|now|but|finally|eventually)\s+)*"
    rf"(?:(?:i'?m|i\s+am|we'?re)\s+)?(?:(?:right|straight)\s+)?back\s+(?:to|on|in)\s+{_RETURNED_TO}",
)
"""A return, with its verb ("went back to whole milk") or without ("…, back to Overcast", "I'm
back on Chrome"). Alone it is mostly no preference ("went back to the office today", "back on
antibiotics", "back to London on Friday"); after a try or a switch in the same sentence it is
(:mod:`.returns`)."""
EN_KEEP_COMING_BACK = (
    r"(?:(?:keeps?|kept|always|still)\s+(?:go|goes|going|come|comes|coming|crawling|running|"
    r"drift|drifting|gravitate|end\s+up|ending\s+up)|(?:'ve|have)\s+(?:now\s+|since\s+|"
    r"finally\s+)?(?:gone|switched|moved|come)|(?:(?:'ve|have)\s+|^\W*|[,;]\s*)been(?=\s+back\s+"
    r"(?:on\s|to\s+\w+ing\b))|(?:go|goes|went|come|comes|came)(?=\s+(?:(?:straight|right)\s+)?"
    r"back\s+to\s+[^,;.!?]{1,40}?\s+every\s+(?:single\s+)?time\b))\s+"
    rf"(?:(?:right|straight|crawling|running)\s+)?back\s+(?:to|on)\s+{_RETURNED_TO}"
)
"""A return that keeps happening or lasts ("I keep coming back to my Asics", "every summer I go
back to Anthelios", "went back to the G502 every time", "I've gone back to vinyl", "Been back
on Sublime Text for six months"): a like of what is returned to. The statement head reads the
going back as a change away (quit), so it is also a veto of that reading
(:func:`~.negation.kept`). Whose return it is, the words before say ("my roommate keeps going
back to…" is another's)."""
EN_NO_GOING_BACK = (
    r"\b(?:(?:can'?t|cannot|could\s*n'?t|won'?t|wouldn'?t|(?:could|would|'d|will|'ll)\s+never|"
    r"never|not|no\s+way\s+(?:i'?m|i\s+am|am\s+i)(?:\s+ever)?)\s+(?:ever\s+)?"
    r"(?:go|going|went)|\bno\s+going)\s+back\s+to\s+(?:the\s+)?"
    r"(?![^,;.!?]*\b(?:because|until|till|unless|without|yet|cause|cos)\b)"
    rf"{_RETURNED_TO}"
)
"""A return ruled out ("can't go back to cotton", "no way I'm going back to nano", "I'd never go
back to sitting all day"): what the user left, a dislike. Not a return the user cannot make
("I can't go back to the UK because of my visa", "…until the AC is fixed")."""
EN_SOONER_DIE = r"die|starve|be\s+dead"
"""What one would rather do than X, said to refuse X ("I'd rather die than eat liver"): no side
of a comparison (:func:`~.structures.read_structure`)."""
_DEVOTED = (
    r"proud|lifelong|life-long|loyal|total|die-?hard|hardcore|huge|massive|longtime|long-time|"
    r"devoted|card-carrying|absolute"
)
"""How much one is a fan, before what of ("a die-hard Marvel fan", "lifelong Honda guy"): said
with one of these, the fan words name a like without "for life" after them."""
_NO_THING = r"it|them|that|this|you|him|her"
"""Words after "(can't do / can do) without" that name no thing: a pronoun or a person."""

KEPT_RULES: tuple[Rule, ...] = (
    en(EN_UNQUIT, "like", "can't give up {obj}", copula="ok"),
    en(  # "Uber Eats is the only one I use anymore", "Sourdough is the only bread I buy now"
        r"(?:^\W*|[,;]\s*)(?:(?:honestly|now|so|and|but|yeah|ok|okay|nah|lol)\s+)*"
        r"(?P<obj>(?!(?:i|it|this|that|he|she|they|we|you)\b)"
        r"(?:(?!\b(?:i|i'm|i've|my|says|said|thinks|think|his|her|their)\b)[^,;]){1,60}?)\s+"
        r"(?:is|are|'s|'re)\s+"
        r"(?:(?:basically|pretty\s+much|now|really|literally|honestly)\s+)*the\s+only\s+"
        r"(?:one|ones|thing|[a-z]+(?:\s+[a-z]+)?)\s+(?:that\s+)?(?:i|we)\s+"
        r"(?:(?:ever|really|actually|still|even|will)\s+)?(?:use|buy|drink|eat|wear|play|watch|"
        r"read|listen\s+to|run|trust|order|get|keep|want|like|love|go\s+to|drive|ride|need)\b",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(  # "I'm through with Jira", "I'm so over cold brew": the user has left it
        r"\b(?:'m|am)\s+(?:(?:so|totally|completely|officially|finally|honestly|just)\s+)*"
        r"(?:done|through|finished)\s+with\b|\b(?:'m|am)\s+(?:so|totally|completely|"
        r"officially|sooo+)\s+over\b(?!\s+the\s+moon)",
        "dislike",
        "has given up {obj}",
        copula="ok",
        no_possessive=True,
    ),
    en(  # "it's Coke Zero for me from here on out": the choice from now on
        r"^\W*(?:(?:so|and|now|yeah)\s+)*(?:it'?s|it\s+is)\s+"
        r"(?P<obj>(?!(?:a\s+bit|kind\s+of|kinda|over|getting|all|only)\b)"
        r"(?:(?!\b(?:too|so|very|way|quite|pretty|not|really)\b)[^,;]){1,40}?)\s+for\s+me\s+"
        r"(?=now\b|from\s+(?:now|here)\s+on|these\s+days|going\s+forward|forever|all\s+the\s+way)",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(  # "gave up on Evernote": the quit rule leaves "gave up on" alone (on trying, on him)
        r"\b(?:i\s+|we\s+|finally\s+|just\s+)*(?:gave|given|giving)\s+up\s+on\b(?!\s+(?:him|her|"
        r"them|me|you|us|it|life|myself|ourselves|people|trying|finding|getting|ever|that|this|"
        r"the\s+idea|the\s+dream|hope|love|dating|men|women|sleep|my\s+(?:dreams?|goals?|diet|"
        r"job))\b)\s+(?P<obj>[^,;.!?]{1,40}?)(?=\s*(?:[,;.!?]|$)|\s+(?:completely|entirely|"
        r"altogether|for\s+good|after|ages|years|months|weeks|a\s+while|already|last|since|when|"
        r"because|and|but)\b)",
        "dislike",
        "has given up {obj}",
        copula="ok",
        no_possessive=True,
    ),
    en(  # "Alcohol? Gave it up in January.", "Ditched them last year": the thing named before
        r"^\W*(?:(?:and|so|i|i've|finally|just|already|honestly)\s+)*(?:gave|given|quit|ditched|"
        r"dropped|kicked|binned|dumped)\s+(?P<obj>it|them|that)(?:\s+up)?\b(?!\s+(?:a\s+(?:go|"
        r"try|shot|chance)|for\s+lent|to\s+(?:my|him|her|them|a|the))\b)",
        "dislike",
        "has given up {obj}",
        pronoun_only=True,
        first_person=True,
    ),
    en(  # "Podcasts? Never got into them", "never really warmed to Notion": no taste for it
        r"\bnever\s+(?:really\s+|quite\s+|fully\s+)?(?:got\s+into|warmed\s+(?:up\s+)?to)\b"
        r"(?!\s+(?:trouble|a\s+fight|an?\s+argument|college|uni|university|school|debt)\b)",
        "dislike",
        "never got into {obj}",
        copula="ok",
        no_possessive=True,
    ),
    en(  # "I never skip breakfast", "can't say no to dumplings": never without it, a like (the
        # statement head reads the negation and the verb of leaving out as a dislike)
        r"\b(?:(?:never|don'?t\s+ever)\s+(?:really\s+|ever\s+)?(?:skip(?:ped)?|pass(?:ed)?\s+up|"
        r"turn(?:ed)?\s+down|say\s+no\s+to)|(?:can'?t|cannot|could\s*n'?t)\s+(?:ever\s+|really\s+)?"
        r"(?:pass\s+up|turn\s+down|say\s+no\s+to))\b(?!\s+(?:a\s+(?:beat|chance|thing|day)|an?\s+"
        r"(?:opportunity|offer|invitation|invite|job)|the\s+(?:chance|opportunity|offer))\b)",
        "like",
        "never passes up {obj}",
        copula="ok",
    ),
    en(EN_BACK_FOR_GOOD, "like", "likes {obj}", first_person=True),
    en(EN_NO_GOING_BACK, "dislike", "won't go back to {obj}", copula="ok", no_possessive=True),
    en(EN_KEEP_COMING_BACK, "like", "likes {obj}", copula="ok"),
    en(  # "I can't go a day without coffee", "Can't live without my Kindle": kept, a like
        r"\b(?:can'?t|cannot|could\s*n'?t|(?:could|can)\s+never)\s+(?:(?:really|even|honestly|"
        r"literally)\s+)?(?:(?:live|survive|function|cope|do)(?:\s+(?:the\s+)?(?:winter|summer|week|"
        r"mornings?|exams?|work|commute))?|go\s+(?:a|one)\s+(?:single\s+)?(?:day|week|"
        r"morning|night)|start\s+(?:my|the)\s+(?:day|morning)|get\s+through\s+(?:the|a|my)\s+"
        r"(?:day|week|morning)|imagine\s+(?:my\s+)?life)\s+without\s+(?:(?:my|a|an|the|some|"
        rf"at\s+least\s+one|at\s+least\s+an?)\s+)?(?P<obj>(?!(?:(?:my|a|an|the)\s+)?(?:{_NO_THING}|"
        r"complaining|arguing|fighting|worrying|stressing|crying|sleep(?:ing)?|food|water|insulin|"
        r"meds|medication|medicine|inhaler|glasses|contacts|wheelchair|oxygen|charger)\b)"
        r"[^,;.!?]{1,40}?)(?=\s*(?:[,;.!?]|$)|\s+(?:anymore|now|"
        r"these\s+days|lol|tbh|honestly|to\s+be\s+honest|for\s+sure|and|but)\b)",
        "like",
        "can't do without {obj}",
        copula="ok",
    ),
    en(  # "I can live without dessert": no need of it, a dislike (it had stored a like)
        r"\b(?:can|could)\s+(?:(?:easily|happily|totally|definitely|honestly)\s+)?(?:live|do)\s+"
        rf"without\s+(?:(?:my|a|an|the)\s+)?(?P<obj>(?!(?:{_NO_THING})\b)"
        r"[^,;.!?]{1,40}?)(?=\s*(?:[,;.!?]|$)|\s+(?:tbh|honestly|to\s+be\s+honest|though|"
        r"and|but)\b)",
        "dislike",
        "can do without {obj}",
        copula="ok",
    ),
    en(  # "I'd rather die than eat liver": a refusal said as a preference
        rf"\b(?:'d|would)\s+(?:much\s+|honestly\s+)?rather\s+(?:{EN_SOONER_DIE})\s+than\s+"
        r"(?:(?:eat|drink|use|wear|watch|listen\s+to|go\s+to|touch|have|try|read|play|fly)\s+)?",
        "dislike",
        "refuses {obj}",
        copula="ok",
    ),
    en(  # "strictly Arabica beans in my grinder"; not "strictly black coffee this morning"
        r"^\W*(?:(?:so|and|now|honestly|it's|its|it\s+is)\s+)*(?:strictly|exclusively)\s+"
        r"(?!(?:speaking|for|on|in|at|to|a|an|the|business|necessary|between|with|by)\b)"
        r"(?![^.!?]*\b(?:today|tonight|this\s+(?:morning|week|weekend|evening)|until|till)\b)"
        r"(?P<obj>[a-z0-9][^,;.!?]{0,40}?)(?=\s*(?:[,;.!?]|$)|\s+(?:in|for|at|from|now|these|"
        r"only|please|lol|tbh|on|with)\b)",
        "like",
        "only {obj}",
        first_person=True,
    ),
    en(  # "Pilot G2 only.", "firefox only from here on"; not "showers only, until the wound…"
        r"(?:^\W*|[,;]\s*)(?P<obj>(?!(?:i|we|it|this|that|one|two|three|cash|card|adults?|"
        r"members?|invite|weekends?|weekdays?|today|tonight|once|twice|for|by|staff|display|"
        r"emergency|emergencies)\b)(?!\d)[a-z0-9][\w'&.+-]*(?:\s+(?!(?:is|are|was|were)\b)"
        r"[\w'&.+-]+){0,3}?)\s+only\b(?![^.!?]*\b(?:until|till|for\s+(?:now|a\s+while|the\s+next))\b)"
        r"(?=\s*(?:[,;.!?]|$)|\s+(?:now|from\s+(?:now|here)\s+on|for\s+me|these\s+days|"
        r"going\s+forward)\b)",
        "like",
        "only {obj}",
        first_person=True,
    ),
    en(  # "I've used nothing except Colgate since I was a kid"
        r"\b(?:used|worn|drunk|drank|eaten|ate|bought|driven|drove|played|read|watched|had|"
        r"flown|flew|owned)\s+nothing\s+(?:but|except|other\s+than)\s+(?P<obj>[^,;.!?]{1,40}?)"
        r"(?=\s*(?:[,;.!?]|$)|\s+(?:since|for|in|ever|growing|lol|tbh)\b)",
        "like",
        "only {obj}",
        copula="ok",
    ),
    en(  # "The only mustard allowed in my fridge is Grey Poupon"
        r"\bthe\s+only\s+(?:[\w-]+\s+){1,2}?(?:allowed|permitted|welcome|i(?:'ll)?\s+(?:ever\s+)?"
        r"(?:buy|use|drink|eat|wear|trust|order|get|read|watch|touch|fly|drive)|we\s+(?:ever\s+)?"
        r"(?:buy|use|drink|eat|order|get))\b[^,;.!?]{0,30}?\s+(?:is|are)\s+"
        r"(?P<obj>[^,;.!?]{1,40}?)(?=\s*(?:[,;.!?]|$))",
        "like",
        "only {obj}",
        first_person=True,
    ),
    en(  # devotion said with its degree: "Die-hard Marvel fan", "lifelong Honda guy here"
        r"(?:^\W*|[,;]\s*|\b(?:i'?m|i\s+am)\s+)(?:(?:honestly|still|always|forever|just|lol|tbh|"
        rf"ngl|and|but|so)\s+)*(?:an?\s+)?(?:(?:{_DEVOTED})\s+)+"
        r"(?!(?:an?|the|i|my|it|this|that|fan|user|person)\b)(?P<obj>[a-z0-9][\w'&.+-]*"
        r"(?:\s+(?!(?:an?|is|are|was|'s|of)\b)[\w'&.+-]+){0,2}?)\s+(?:fan|fangirl|fanboy|"
        r"loyalist|devotee|stan|guy|girl|person|family|household|user|customer|driver|shooter|"
        r"head|nerd|junkie|addict)\b(?!\s+of\b)",
        "like",
        "likes {obj}",
        copula="ok",
        first_person=True,
    ),
    en(  # "I stan Taylor Swift", "I bleed Dodger blue"
        r"\bi\s+(?:(?:lowkey|highkey|literally|really|so|just|kinda|totally)\s+)*(?:stan|bleed)\s+"
        r"(?P<obj>(?-i:[A-Z0-9])[^,;.!?]{0,40}?)(?=\s*(?:[,;.!?]|$)|\s+(?:so|and|but|forever|"
        r"since|lol|tbh|hard|too)\b)",
        "like",
        "likes {obj}",
    ),
    en(  # "Liverpool till I die", "Crocs 'til I die"
        r"(?:^\W*|[,;]\s*)(?:(?:honestly|still|always|forever|lol|and|but|so)\s+)*"
        r"(?P<obj>(?!(?:i|i'm|we|he|she|they|you|my|it|this|that|love|hate|like)\b)"
        r"(?:(?!\b(?:you|him|her|them|it)\b)[\w'&.+-]+\s+){0,2}[\w'&.+-]+)\s+(?:till|until|'?til)"
        r"\s+i\s+die\b",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(  # "ride or die for Trader Joe's", "loyal to Chipotle since 2009"
        r"\b(?:ride[-\s]or[-\s]die\s+(?:for|with)|loyal\s+to)\s+(?:(?:the|my|our)\s+)?"
        rf"(?!(?:[\w-]+\s+){{0,2}}{EN_PEOPLE_RE.pattern})(?P<obj>[^,;.!?]{{1,40}}?)"
        r"(?=\s*(?:[,;.!?]|$)|\s+(?:since|for|and|but|because|ever|lol|tbh)\b)",
        "like",
        "likes {obj}",
        copula="ok",
        first_person=True,
    ),
    en(  # "we're a Subaru family", "once a Mac user always a Mac user", "the Crocs gang"
        r"\bwe(?:'re|\s+are)\s+(?:an?\s+)?(?P<obj>(?-i:[A-Z0-9])[\w'&.+-]*(?:\s+[\w'&.+-]+)?)\s+"
        r"(?:family|household|house)\b",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(
        r"\bonce\s+an?\s+(?P<obj>[\w'&.+-]+(?:\s+[\w'&.+-]+)?)\s+(?:user|fan|person|guy|girl|"
        r"customer|owner|driver),?\s+always\s+an?\b",
        "like",
        "likes {obj}",
        first_person=True,
    ),
    en(
        r"(?:\b(?:an?\s+)?(?:proud|lifelong|card-carrying)\s+)?\bmember\s+of\s+(?:the\s+)?(?P<obj>[\w'&.+-]+(?:\s+[\w'&.+-]+)?)\s+(?:gang|fan\s*club|"
        r"fandom|army|nation|squad)\b",
        "like",
        "likes {obj}",
        copula="ok",
        first_person=True,
    ),
    en(  # loyalty as who one is: "a Maggi loyalist", "fountain pen gang", "Nikon shooter for life"
        r"(?:(?:^\W*|[,;]\s*)(?:(?:nah|still|always|forever|proud|just|honestly|lol|tbh|ngl|and|"
        r"but|so)\s+)*|\ban?\s+(?:(?:proud|lifelong|loyal|total|die-?hard)\s+)?)"
        r"(?!(?:an?|the|i|i'm|i've|we|he|she|they|you|my|it|it's|that|this|what|friends?|nah|member|"
        r"still|always|forever|proud|just|honestly|lol|tbh|ngl|and|but|so)\b)"
        r"(?P<obj>[a-z0-9][\w'&.+-]*(?:\s+(?!(?:an?|is|are|was|'s)\b)[\w'&.+-]+){0,3}?)\s+"
        r"(?:loyalist|devotee|purist|gang|(?:user|shooter|player|fan|guy|girl|girlie|gal|dude|kid|"
        r"nerd|person|driver|owner|rider|customer|member|drinker|eater|reader)\s+(?:for\s+life|"
        r"4\s*life|forever|to\s+the\s+bone|through\s+and\s+thr(?:ough|u)|since\s+(?:\d{4}|"
        r"forever|day\s+one|high\s+school|college|the\s+\w+))|for\s+life|4\s*life)\b",
        "like",
        "likes {obj}",
        copula="ok",
        first_person=True,
    ),
)
"""The rules, ahead of the English quit rule (:mod:`.rules_en`)."""

__all__ = [
    "EN_BACK_FOR_GOOD",
    "EN_KEEP_COMING_BACK",
    "EN_NO_GOING_BACK",
    "EN_RETURN_FORMS",
    "EN_SOONER_DIE",
    "EN_UNQUIT",
    "KEPT_RULES",
]

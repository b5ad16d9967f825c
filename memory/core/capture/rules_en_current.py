"""English rules for a current choice said as the user's routine now ("I just watch YouTube
now", "we stream on Disney+ these days", "I keep my passwords in 1Password now"), or as what
it is now ("it's Sony now": a name, capitalised; "it's cold now" names no choice), or as
fashion ("Chrome's out, Firefox is in").

A routine the user names with a present time is what they turned to: the half of a switch
that is often said alone, the other half told as a reason or not at all ("We canceled cable,
and I just watch YouTube now"). Issue 17: the statement head read such clauses as a change
away ("no longer likes YouTube") or as nothing. Kinds of phrasing, never particular objects;
what is done less, more or at a time ("I eat twice a day now", "I read more now") is no
choice of an object.
"""

from __future__ import annotations

from .rules import Rule, en

_ROUTINE_VERBS = (  # multi-word forms first: an alternation takes the first that matches
    r"listen\s+to|shop\s+at|order\s+from|stream\s+(?:on|with)|fly\s+with|bank\s+with|"
    r"browse\s+with|cook\s+with|write\s+(?:in|on|with)|holiday\s+in|go\s+with|"
    r"(?:keep|buy|get|order|store|do|host|read|watch|file|track|plan)\s+(?:all\s+)?(?:my|our)\s+"
    r"\w+\s+(?:in|on|at|from|with|through)|watch|use|drink|eat|buy|stream|read|play|"
    r"wear|fly|drive|book|run|ride|support|follow|root\s+for|cheer\s+for"
)
_NO_OBJECT = (  # how much, how often, where or when: no object chosen
    r"(?:it|them|that|this|more|less|much|way|too|a\s+lot|a\s+bit|a\s+little|once|twice|"
    r"every|each|at|in|on|with|from|for|to|by|out|alone|home|again|only|mostly|here|there|"
    r"outdoors|outside|indoors|inside|online|"
    r"\d+|one|two|three|half|both|either|(?:an?\s+)?(?:article|post|story|piece|video|thread|"
    r"review|report|book)\s+(?:about|on)\b)\b"
)

_OPENING = r"(?:^\W*|[,;]\s*)(?:(?:and|so|but|yeah|honestly|now)\s+)*"
"""Where a routine's clause opens: the message or a clause's start, and its fillers."""

_ALONE = r"only|exclusively|solely|nothing|right"
"""Said of the object alone: the rules of exclusivity read it ("I drink light roast exclusively
now": ``only drink light roast``); "right now" is this moment, no routine."""
_HOW = (
    r"daily|every\s+day|all\s+day|full-?time|mostly|too|as\s+well|(?:on|for)\s+everything|"
    r"(?:on|for)\s+all\s+(?:my|our)\s+\w+"
)
"""How often or how widely, between the object and its time: no part of the object."""

_CALENDAR = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
    r"may|june|july|august|september|october|november|december|christmas|easter|ok|okay|"
    r"spring|summer|autumn|winter|fall)\b"
)
"""A day, month or season is when it is, not a choice ("It's Friday now")."""

_TIME_LAST: tuple[Rule, ...] = (
    en(  # "I just watch YouTube now", "we holiday in Portugal these days"
        rf"{_OPENING}(?:i|we)\s+(?:(?:just|mostly|basically|pretty\s+much|all|happily|now)\s+)*"
        rf"(?P<verb>{_ROUTINE_VERBS})\s+(?:(?:a|an|the|any)\s+)?(?!{_NO_OBJECT})"
        rf"(?P<obj>(?:(?!\b(?:{_ALONE})\b)[^,;.!?]){{1,40}}?)\s+(?:(?:{_HOW})\s+)*"
        r"(?:now|these\s+days|nowadays)\b(?!\s+(?:and\s+(?:then|again)|that|or))",
        "like",
        "now likes {obj}",
        first_person=True,
        no_possessive=True,  # "I use my left hand now": the user's situation
    ),
    en(  # "I used to be a Canon guy but it's Sony now", "it's all Hoka these days"
        rf"{_OPENING}(?:it'?s|it\s+is)\s+"
        rf"(?:(?:all|only|just|strictly|100%)\s+)?(?!{_CALENDAR})"
        r"(?P<obj>(?-i:[A-Z])[\w'&.+-]*(?:\s+(?-i:[A-Z0-9])[\w'&.+-]*){0,3})\s+"
        r"(?:(?:for\s+me|all\s+the\s+way)\s+)?(?:now|these\s+days|nowadays)\b"
        r"(?!\s+(?:who|that|which|whose)\b)",  # "it's John now who does the cooking"
        "like",
        "now likes {obj}",
        first_person=True,
    ),
)
"""A routine with its time last."""

_OBJECT_END = (
    r"(?=\s+(?:for|to|at|on|in|with|every|each|because|since|as|when|and|but|instead)\b|"
    r"\s*[,;.!?]|\s*$)"
)
"""Where an object said before no time ends: a purpose, a place, a reason or the clause's end
("These days I mostly listen to podcasts on the bus": ``podcasts``)."""
_GERUNDS = (
    r"using|drinking|eating|reading|watching|listening\s+to|playing|wearing|driving|riding|"
    r"streaming|buying|ordering"
)

_TIME_FIRST: tuple[Rule, ...] = (
    en(  # "These days I mostly listen to podcasts", "Nowadays we buy everything at Aldi"
        r"(?:^\W*|[,;]\s*)(?:(?:and|so|but|yeah|honestly)\s+)*(?:these\s+days|nowadays|lately)"
        r"\s*,?\s+(?:i|we)\s+(?:(?:just|mostly|basically|pretty\s+much|all|happily)\s+)*"
        rf"(?P<verb>{_ROUTINE_VERBS})\s+(?:(?:a|an|the|any)\s+)?(?!{_NO_OBJECT})"
        rf"(?P<obj>(?:(?!\b(?:{_ALONE})\b)[^,;.!?]){{1,40}}?){_OBJECT_END}",
        "like",
        "now likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(  # "Mostly drinking oat milk these days", "Currently using Linear for tickets"
        rf"^\W*(?:(?:mostly|mainly|just|all|been|now)\s+)*(?P<verb>{_GERUNDS})\s+"
        rf"(?:(?:a|an|the)\s+)?(?!{_NO_OBJECT})(?P<obj>[^,;.!?]{{1,40}}?)\s+(?:(?:{_HOW})\s+)*"
        r"(?:now|these\s+days|nowadays|lately)\b(?!\s+(?:and\s+(?:then|again)|that|or))",
        "like",
        "now likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(
        rf"^\W*currently\s+(?P<verb>{_GERUNDS})\s+(?:(?:a|an|the)\s+)?(?!{_NO_OBJECT})"
        rf"(?P<obj>[^,;.!?]{{1,40}}?){_OBJECT_END}",
        "like",
        "now likes {obj}",
        first_person=True,
        no_possessive=True,
    ),
    en(  # "I read on my Kindle these days", "we game on a Steam Deck now": the device is chosen
        rf"{_OPENING}(?:i|we)\s+(?:(?:just|mostly|basically|pretty\s+much|all|now)\s+)*"
        r"(?P<verb>read|listen|play|game|stream)\s+on\s+(?:(?:my|our|a|an|the)\s+)?"
        r"(?P<obj>(?-i:[A-Z])[\w'&.+-]*(?:\s+[\w'&.+-]+){0,2}?)\s+"
        rf"(?:(?:{_HOW})\s+)*(?:now|these\s+days|nowadays)\b",
        "like",
        "now likes {obj}",
        first_person=True,
    ),
)
"""A routine now said with the time first, without its subject, or of the device it is done on.
Ahead of the quit rules too. The device must be a name (capitalised): "I read on my phone now"
names no choice the user would be recommended."""

_NO_PRONOUN = r"(?!(?:it|that|this|they|he|she|we|you|i)\b)"
"""A side of "X is out, Y is in" is a thing, not a pronoun."""
_IS = r"(?:'s|'re|\s+is|\s+are)\s+(?:so\s+|totally\s+|officially\s+)?"

_OUT_IN: tuple[Rule, ...] = (
    # "Chrome's out, Firefox is in", "Cable is out and streaming is in": a switch said as
    # fashion; the side that is out is left
    en(rf"^\W*(?P<old>{_NO_PRONOUN}[^,;]{{1,30}}?){_IS}out\s*(?:,|;|and|—|-)\s*(?:and\s+)?"
       rf"(?P<obj>{_NO_PRONOUN}[^,;.!?]{{1,30}}?){_IS}in\b",
       "like", "switched to {obj}", old_label="switched from {old} to {obj}"),
)

CURRENT_RULES: tuple[Rule, ...] = (*_OUT_IN, *_TIME_LAST, *_TIME_FIRST)
"""The rules, ahead of the English quit and switch rules (:mod:`.rules_en`)."""

__all__ = ["CURRENT_RULES"]

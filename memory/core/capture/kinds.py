"""From a clause's kind (the statement head's reading) to what the gate gets.

The stance rules read the phrasings they were written for; the head
(:mod:`.statements`) reads the kind of any clause. This module joins the two:

- a clause the rules read is kept, except that a confident kind corrects what
  the rules cannot see: a change of mind or quitting read as a like becomes a
  dislike, a coming-round read as a dislike becomes a like, an amount limit
  ("just no more than one a week") yields no dislike;
- a clause the rules do not read but the head does (``I've gone off olives``,
  ``Pad thai is off the menu now``, ``武侠小说我已经不看了``) gets its object
  from :func:`pull_object_en` or :func:`~.zh_objects.pull_object_zh` (the noun phrase
  left when the words of stance, time and degree are taken out) and the polarity of its
  kind, with content that reads as that polarity.

Kinds the rules read structurally (switch, exception, comparative, slot, an
allergy retracted) keep the rules' structure; with no rule match they yield
nothing rather than a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...model import Polarity, has_cjk
from ..lexical import ENGLISH_STOP_WORDS
from .clauses import EN_PERCEPTION_VERBS, is_ly_adverb
from .lexicons import EN_BEFORE_VERB, EN_OBJECT_STOP, EN_STANCE_PREPOSITIONS
from .statements import KINDS, Kind

POLAR_KINDS: dict[str, Polarity] = {
    "like": "like",
    "dislike": "dislike",
    "flip_like": "like",
    "flip_dislike": "dislike",
    "quit": "dislike",
}
"""Kinds a clause without a rule match may be read as, and the polarity each stores."""

NEW_MIN_P = 0.6
"""A clause no rule reads yields a preference only at this probability of its polarity or more.
0.7 was chosen for the embedding head alone (no false capture on the PrefEval-dev requests of
the dev topics); with the lexical part mixed in (:mod:`.lexical`), whose readings are less
extreme, 0.6 caught more preferences and fewer look-alikes than the embedding head at 0.7 on
messages by other authors than the training data's (``bench/train_statements.py``)."""
FLIP_MIN_P = 0.8
"""The head overturns the rules' polarity only at this probability or more."""
LIMIT_MIN_P = 0.5
"""A clause read as an amount limit yields no dislike at this probability or more."""

EN_LABELS: dict[str, str] = {
    "like": "likes {obj}",
    "dislike": "dislikes {obj}",
    "flip_like": "now likes {obj}",
    "flip_dislike": "no longer likes {obj}",
    "quit": "has given up {obj}",
}
ZH_LABELS: dict[str, str] = {
    "like": "喜欢{obj}",
    "dislike": "不喜欢{obj}",
    "flip_like": "现在喜欢{obj}",
    "flip_dislike": "不再喜欢{obj}",
    "quit": "戒了{obj}",
}


def labels_for(text: str, obj: str) -> dict[str, str]:
    """The labels in the language of ``text``, the words a stance on ``obj`` was read in:
    the object's own script does not decide it ("I used to hate 香菜 but now I love it" is
    "now likes 香菜"; ``之前觉得Linux难用，现在离不开了`` is ``现在喜欢Linux``). Around a
    Chinese object, Latin letters are English only with an English function word among them
    (``榴莲yyds`` is Chinese chat)."""
    rest = text.replace(obj, " ")
    if has_cjk(rest):
        return ZH_LABELS
    if not has_cjk(obj):
        return EN_LABELS
    english = any(w in ENGLISH_STOP_WORDS for w in re.findall(r"[a-z]+", rest.lower()))
    return EN_LABELS if english else ZH_LABELS


_EN_REACTIONS = frozenset(
    "wow great cool awesome thanks thank perfect amazing nice sure yes no sorry lovely "
    "brilliant fantastic excellent wonderful".split()
)
_EN_TOKEN_RE = re.compile(r"[A-Za-z][\w'&.-]*|\d+|&(?=\s*[A-Za-z])")
"""Words, numbers, and an ``&`` that joins the words of one name (``Marks & Spencer``)."""


_EN_OBJECT_PRONOUNS = frozenset("me my us our".split())
"""After a subject noun phrase, the word before one of these is its verb (``Shellfish makes
me…``, ``Strawberries make my mouth itch``): the phrase ends before it."""
_EN_SUBJECT_PRONOUNS = frozenset("it that this they which what something everything".split())
"""After one of these (or at the start), a lone word before :data:`_EN_OBJECT_PRONOUNS` is the
verb (``it bores me to tears``, ``Count me out``): no object."""
_EN_PREDICATE_NEXT = {
    **dict.fromkeys("i i've we've i'd we'd i'll we'll we".split(), "verb"),
    **dict.fromkeys("i'm am was were we're".split(), "copula"),
}
"""After one of these (and :data:`~.lexicons.EN_BEFORE_VERB`) the next word is a verb (``I can't
stand it``); after a copula, an adjective before a preposition of stance (``I was mad about…``)."""
_EN_TIME_RE = re.compile(
    r"\b(?:every|each)\s+(?:single\s+)?(?:time|day|week|morning|night|evening|weekend|month|"
    r"year|(?:mon|tues|wednes|thurs|fri|satur|sun)day|spring|summer|autumn|fall|winter)\b|"
    r"\bfor\s+the\s+(?:past|last)\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?|decades?)\b|"
    r"\b(?:last|this|next)\s+(?:week|month|year|spring|summer|autumn|fall|winter|season)\b|"
    r"\bany\s+day\b|\bright\s+now\b|\bfor\s+(?:life|good)\b|\bgrowing\s+up\b|"
    r"\ball\s+(?:day|night|week|year)(?:\s+long)?\b|\bages\s+ago\b|(?-i:\ball\s+the\s+way\b)|"
    r"\b\w+\s+times\s+out\s+of\s+\w+\b|\b(?:the\s+)?last\s+time\b|"
    r"\bin\s+(?:all\s+)?my\s+(?:whole\s+|entire\s+)?life\b|\bmy\s+(?:whole|entire)\s+life\b",
    re.IGNORECASE,
)
"""How often or when, not what: ``…over the beach every single time``, ``…last spring``,
``The last time I drank whisky…``, ``Never in my life have I…``."""
_EN_JUDGED_RE = re.compile(
    r"\b(?:find|finds|found|consider|considered)\s+(?:it|them|this|that|these|those)\b", re.I
)
"""A verdict on a thing named before ("…now I find them loud"): what follows is no object."""
_EN_CHAT_LETTERS = frozenset("w u r ur".split())
"""Chat spellings (``pickles r gross``, ``w/``), stop words only in lower case (``R`` and
``W`` may be names)."""


_EN_COLD_TURKEY_RE = re.compile(r"\bcold[-\s]turkey\b", re.IGNORECASE)
"""How the user quit ("I quit sugar cold turkey"): no object ("cold brew", "turkey" are)."""
_EN_REFUSAL_RE = re.compile(
    r"\b(?:hard|big|firm|definite|total)\s+(?:no|nope|pass)\b|"
    r"\bnot\s+(?:really\s+)?my\s+(?:cup\s+of\s+tea|thing|jam|scene|vibe)\b|"
    r"\b(?:thanks\s+but\s+)?no\s+thanks\b|"
    r"\b(?:steer|stay|keep)(?:s|ed|ing)?\s+(?:well\s+)?(?:clear|away)\b|\bkept\s+(?:clear|away)\b|"
    r"\bkeep(?=\s+(?:[\w-]+\s+){1,4}away\s+from\b)|\baway\s+from\s+(?:me|us)\b|"
    r"\b(?:break|breaks|broke|breaking)\s+out\s+in\s+(?:a\s+)?[\w-]+",
    re.IGNORECASE,
)
"""How the user refuses ("Licorice? Hard no.", "so I steer clear") or what a thing does to them
("I break out in hives"): read as a bare "no", no object ("hard cider", "clear broth" are)."""
_EN_SINCE_LEAD_RE = re.compile(
    r"^\W*(?:(?:ever\s+)?since|after|when(?=\s+(?:i|we)\s+(?:was|were)\b))\s+(?:"
    r"[^,;]{1,60}?(?:[,;]\s*|\s+)(?=(?:i|i've|i'm|i'd|we|we've|we're|my|our)\b)|"
    r"(?:i|we)\b[^,;]{0,60}?[,;]\s*|(?:[^\s,;]+\s+){0,3}[^\s,;]+[,;]\s*)",
    re.IGNORECASE,
)
"""A clause that opens with when or after what (``Since 2020 I've only used Linux``, ``Ever
since the food poisoning I can't eat oysters``, ``When I was a kid I hated…``): the object is
in what follows."""
_EN_WHEN_LEAD_RE = re.compile(
    r"^\W*(?:once|when|whenever|the\s+(?:moment|minute|first\s+time)|as\s+soon\s+as)\s+"
    r"(?=(?:i|i've|i'd|we|we've|you)\b)(?!(?:i|we)\s+(?:was|were)\b)",
    re.IGNORECASE,
)
"""A clause that opens with when the user came to a thing (``Once I tried kimchi I was
hooked``): the word is a conjunction, no object; the thing is in the when-clause."""
_EN_SINCE_TAIL_RE = re.compile(r"(?<=\w)\s+(?:ever\s+)?since\b.*$", re.IGNORECASE | re.DOTALL)
"""Since when, after what the clause is about (``Haven't touched one since my daughter was
born``): no object is in it."""
_EN_PERSON_TYPE_RE = re.compile(
    r"\b(?:a|an)\s+(?:(?:total|complete|real|true|huge|big|proper|confirmed|certified)\s+)?"
    r"(?P<what>[\w-]+(?:\s+[\w-]+)?)\s+(?:person|people|guy|gal|girl|type|snob|nerd|geek|"
    r"junkie|fiend)\b",
    re.IGNORECASE,
)
"""``I've become a total yoga person``: the kind of person names the object (``yoga``), as the
rules read ``I'm a cat person``."""
_EN_GONE_FULL_RE = re.compile(r"\b(go|goes|going|gone|went)\s+full\s+(?!-)", re.IGNORECASE)
"""``I've gone full Linux``: going all the way, no part of the object."""
_EN_BREAK_RE = re.compile(r"\s[-–—]+\s|[–—]|\bc[ao]me?\s+full\s+circle\b", re.IGNORECASE)
"""A dash between two phrases (``I came full circle — medium roast is my thing``): no object runs
across it."""
_EN_SET_FOOT_RE = re.compile(r"\bset\s+foot\s+(?:in|inside|into|on)\b", re.IGNORECASE)
"""``haven't set foot in a Starbucks``: the words of going name no object."""
_EN_STILL_BEFORE_VERB = frozenset("once ever now".split())
"""These leave the next word the verb: after a negation (``I've not once opened Tinder``), and
a time between the user and the verb ("I now book Airbnbs")."""
_EN_STUCK_WITH_RE = re.compile(r"\b(?:stuck|stick|sticks|sticking)\s+(?:with|to)\b", re.I)
"""``Stuck with Notion since 2019``: keeping to a thing, the words name no object."""
_EN_NEVER_WITHOUT_RE = re.compile(
    r"^.*?(?:n't|\b(?:not|never|no))\b(?:(?!\b(?:like|likes|love|loves|hate|hates|enjoy|"
    r"enjoys|want|wants|mind|stand|bear|prefer)\b)[^,.;!?])*?\bwithout\s+(?=\w)",
    re.IGNORECASE,
)
"""``Haven't gone a night without my weighted blanket in 4 years``: what the user is never
without is the object, not what they are never without it for."""
_EN_NOT_ONCE_RE = re.compile(r"\b(?:not|never)\s+(?:even\s+)?once\b", re.IGNORECASE)
"""``Not once in my life have I…``: never, no object."""
_EN_PERFECT_NEXT = frozenset("not never".split())
"""After ``have``, ``has`` or ``had``, one of these makes it the auxiliary of a verb
(``I have never eaten sushi``), not the verb (``I have cats``)."""
_EN_PARTED_RE = re.compile(r"\bpart(?:ed|ing)?\s+ways\s+with\b|\bdrift(?:ed|ing)?\s+away\b", re.I)
"""A phrasal verb of leaving whose words name no object ("parted ways with X", "drifted away
from X"): a verb of quitting in their place."""
_EN_FAN_RE = re.compile(
    r"\b(?:(?:not|no|a|an|such|huge|big|massive|total|die-hard|lifelong|deep|strong|real)\s+)*"
    r"(?:fan|sucker|lover|dislike|hatred|love|passion|aversion|weakness)\s+(?:of|for)\b",
    re.IGNORECASE,
)
"""``Huge fan of X``, ``a deep dislike of X``: the object is what follows."""
_EN_SUBJECT_VERBS = EN_PERCEPTION_VERBS | frozenset(
    """
    make makes made turn turns hit hits come comes came keep keeps kept give gives gave bring
    brings brought leave leaves put puts drive drives fill fills carry carries save saves saved
    help helps calm calms clear clears has have when which that who where
    """.split()
)
"""Verbs a subject noun phrase does something with (``Blue cheese smells like old socks``,
``Terracotta pots look gorgeous``): the subject ends before one."""
_EN_SENSE_HEADS = frozenset("smell scent stink whine sound noise taste texture hum".split())
"""``The smell of cut grass``: the object is what the sense is of."""
_EN_OPENERS = frozenset("a an the ngl tbh honestly imo lowkey highkey okay ok so then".split())
"""Words before a subject noun phrase that leave it the clause's opening (``then`` stands for a
comma in :func:`pull_object_en`)."""
_EN_CALLS = frozenset(
    "eh meh nah ugh hmm mate dude bro guys y'all yo hey oh ah goodbye bye".split()
)
"""A word alone at a clause's opening that calls out or addresses someone (``nah mate, warm beer
is a crime``, ``Goodbye, fizzy drinks``): no object."""
_EN_PREPOSITIONS = frozenset("from for on at in with to under around by".split())
_EN_ARTICLES = frozenset("a an the".split())


_EN_COPULAS = frozenset("is are was were isn't aren't wasn't weren't".split())
_EN_NOT_IN_SUBJECT = frozenset(
    """
    i i'm i've me my you your he she it it's we they them this that these those there here
    not no never nor n't don't doesn't didn't can't won't and or but so because if when then
    than as like love loves hate hates enjoy enjoys prefer prefers want need do does did can
    could will would should might must really very too just still always usually often ever
    sometimes mostly all any every some everything anything nothing now today lately anymore
    again also only even honestly actually literally basically totally kinda lol please
    """.split()
)
"""Words no subject noun phrase of a clause holds: pronouns, negations, conjunctions, stance
and modal verbs, quantifiers, degree and time words."""


def _verb_after_subject(tokens: list[str], start: int) -> int | None:
    """Where the verb after a clause-opening subject of two to five words stands: a copula
    ("Yard work is a chore", "Nights out used to be…") or a verb of :data:`_EN_SUBJECT_VERBS`
    before the user (``Wet dog smell makes me retch``); None where a word of
    :data:`_EN_NOT_IN_SUBJECT` comes first."""
    for k in range(start + 1, min(start + 6, len(tokens))):
        word, after = tokens[k].lower(), tokens[k + 1].lower() if k + 1 < len(tokens) else ""
        if word in _EN_COPULAS or (word == "used" and after == "to") or (
            word in _EN_SUBJECT_VERBS and after in _EN_OBJECT_PRONOUNS
        ):
            return k
        if word in _EN_NOT_IN_SUBJECT:
            return None
    return None


def _whole_subject(run: list[str], tokens: list[str], start: int, clause: str) -> list[str]:
    """``run``, the clause's first run of object words, as the whole subject it begins when
    stop words cut it (``Yard work`` not ``Yard``, ``Binge drinking``, ``Four-day work weeks``,
    ``Wet dog smell``); a title's "of" kept (``Game of Thrones``, ``Call of Duty``). Only words
    the clause has together, with no punctuation between them."""
    whole = run
    if (k := _verb_after_subject(tokens, start)) is not None and k - start > len(run):
        if tokens[start:k][: len(run)] == run:
            whole = [t.rstrip(".") for t in tokens[start:k]]
    end = start + len(run)
    if whole is run and run[-1][:1].isupper() and end + 1 < len(tokens) and (
        tokens[end].lower() == "of"
    ):
        title = end + (2 if tokens[end + 1].lower() == "the" else 1)  # the name after "of (the)"
        if title < len(tokens) and tokens[title][:1].isupper():
            whole = [*run, *(t.rstrip(".") for t in tokens[end : title + 1])]
    together = r"\s+".join(re.escape(t) for t in whole)
    return whole if whole is run or re.search(together, clause) else run


def _subject_en(run: list[str], tokens: list[str], start: int) -> list[str] | None:
    """The noun phrase a clause opens with, when it is the subject of what follows: cut
    before a verb of :data:`_EN_SUBJECT_VERBS`; a gerund with its prepositional phrase
    (``Working from cafes is…``, ``Kayaking on a quiet lake…``); what a sense is of (``The
    smell of old books…``). None when the run is not such a subject."""
    words = [w.lower() for w in run]
    if len(run) == 1 and words[0] in _EN_SENSE_HEADS:
        if start + 1 >= len(tokens) or tokens[start + 1].lower() != "of":
            return None
        return _noun_phrase(tokens, start + 2)[1] or None
    for i, word in enumerate(words[1:], start=1):
        then = tokens[start + i + 1].lower() if start + i + 1 < len(tokens) else ""
        if word in _EN_SUBJECT_VERBS and then not in _EN_SUBJECT_VERBS:
            return run[:i]  # not a noun before the verb (``Wet dog smell makes me…``)
    if len(run) != 1 or not words[0].endswith("ing") or start + 1 >= len(tokens):
        return None
    after = start + 1
    following = tokens[after].lower()
    if following not in _EN_PREPOSITIONS | _EN_ARTICLES:
        verb = following in _EN_SUBJECT_VERBS or following in ("is", "was") or (
            following.endswith("s") and following not in EN_OBJECT_STOP
        )
        return run if verb else None  # "Fishing is dull", "Gardening grounds me"
    preposition = [tokens[after]] if following in _EN_PREPOSITIONS else []
    articles, nouns = _noun_phrase(tokens, after + len(preposition))
    return [*run, *preposition, *articles, *nouns] if nouns else run


_EN_PHRASE_END = EN_OBJECT_STOP | _EN_SUBJECT_VERBS
"""Words a noun phrase after a subject's head stops before."""


def _noun_phrase(tokens: list[str], at: int) -> tuple[list[str], list[str]]:
    """The articles from ``tokens[at]`` on, then the words up to :data:`_EN_PHRASE_END`."""
    articles: list[str] = []
    while at < len(tokens) and tokens[at].lower() in _EN_ARTICLES:
        articles.append(tokens[at])
        at += 1
    nouns: list[str] = []
    while at < len(tokens) and tokens[at].lower() not in _EN_PHRASE_END:
        nouns.append(tokens[at].rstrip("."))
        at += 1
    return articles, nouns


def _plural_then_verb(run: list[str]) -> bool:
    """Whether a run of words ends in a plural noun and a bare word, the subject and its verb
    by agreement (``Open-plan offices drain…``, ``Crowded trains ruin…``); a run that ends in a
    plural (``board games``) or a possessive does not."""
    if len(run) < 2:
        return False
    noun, verb = run[-2].lower(), run[-1].lower()
    plural = len(noun) > 3 and noun.endswith("s") and not noun.endswith(("ss", "us", "is", "'s"))
    return plural and verb.isalpha() and not verb.endswith("s") and not verb[:1].isupper()


_EN_PRONOUN_ROLE_RE = re.compile(
    r"^\W*(?:(?:and|but|so|honestly|still)\s+)*(?:(?:it|that|this|they)(?:'s|'re|\s+is|\s+are|"
    r"\s+was|\s+has\s+been|'s\s+been|\s+remains?)\s+(?:\w+ly\s+|still\s+|always\s+)?(?:my|our|the|a)"
    r"|i'm\s+(?:still\s+)?(?:its|their)|i\s+am\s+(?:still\s+)?(?:its|their))\b",
    re.IGNORECASE,
)
"""A clause that gives a pronoun's thing a role (``…, it's my happy place``, ``…, and I'm its
biggest fan``): the role names no object; the thing is the one the pronoun stands for."""


def gives_a_role(clause: str) -> bool:
    """Whether an English clause only gives what a pronoun stands for a role
    (:data:`_EN_PRONOUN_ROLE_RE`): its object is the clause before's."""
    return bool(_EN_PRONOUN_ROLE_RE.match(clause))


_EN_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (_EN_TIME_RE, " then "), (_EN_FAN_RE, " then "), (_EN_COLD_TURKEY_RE, " then "),
    (_EN_REFUSAL_RE, " no "), (_EN_PARTED_RE, " quit "), (_EN_SINCE_LEAD_RE, ""),
    (_EN_WHEN_LEAD_RE, ""),
    (_EN_SET_FOOT_RE, " then "), (_EN_SINCE_TAIL_RE, ""), (_EN_PERSON_TYPE_RE, r" \g<what> "),
    (_EN_BREAK_RE, " then "), (_EN_GONE_FULL_RE, r"\1 "), (_EN_STUCK_WITH_RE, " then "),
    (_EN_NOT_ONCE_RE, " never "), (_EN_NEVER_WITHOUT_RE, " then "),
)
"""What :func:`pull_object_en` rewrites in a clause before it looks for the object, in order:
words of time, frequency and refusal, idioms of leaving or keeping, what opens or closes the
clause around it (``since…``), and what stands for a comma (``then``)."""


def pull_object_en(clause: str, *, alone: bool = False) -> str | None:
    """The noun phrase of an English clause once stance, time and degree words are out.

    The first maximal run of other words is the object (``Pad thai is off the menu for
    me now`` → ``Pad thai``; ``I've gone off olives lately`` → ``olives``), without the verb
    of a subject that acts on the speaker (``Reality TV drives me up the wall`` →
    ``Reality TV``). The word after the user as subject (past auxiliaries, negations and
    adverbs) is the verb, not the object (``I can't bear it`` has none), and so is an adjective
    of stance after a copula (``I was mad about Wordle`` → ``Wordle``). With
    ``alone``, a clause that is only the object (a part of a switch or comparison) is one.
    """
    runs: list[list[str]] = [[]]
    if gives_a_role(clause):
        return None  # "…, it's my happy place": what *it* names, not the place
    if (judged := _EN_JUDGED_RE.search(clause)) is not None:
        clause = clause[: judged.start()]  # "…I find them loud": a verdict on what *them* names
    clause = clause.replace("’", "'")
    for pattern, replacement in _EN_REWRITES:
        clause = pattern.sub(replacement, clause)
    tokens = _EN_TOKEN_RE.findall(clause.replace(",", " then "))  # no object runs over a comma
    starts, after = [0], ""
    if len(tokens) > 1 and len(tokens[0]) > 4 and tokens[0].lower().endswith("ed") and (
        tokens[1][:1].isupper() or tokens[1].lower() in ("my", "our")
    ) or len(tokens) > 1 and tokens[0].lower() in ("tried", "bought"):
        # not "grabbed a croissant on my way in": an event, which the head may read as a like
        after = "verb"  # "Deleted TikTok", "Tried tofu…": the user did, a verb first
    for i, token in enumerate(tokens):
        word = token.lower().rstrip(".")
        base = re.sub(r"(?:'s|'re|'ve|'m|'d|'ll|n't)$", "", word)
        named = token[:1].isupper() and i > 0  # "Monopoly" mid-sentence is a name
        following = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        adverb = is_ly_adverb(word, following) and not named
        predicate = not runs[-1] and bool(after) and word not in EN_BEFORE_VERB and not adverb and (
            after == "verb" or following in EN_STANCE_PREPOSITIONS)
        perfect = base in ("have", "has", "had") and (
            word != base or following in _EN_PERFECT_NEXT)  # "haven't touched"
        after = _EN_PREDICATE_NEXT.get(word) or ("verb" if perfect else "") or (
            after if word in EN_BEFORE_VERB or adverb or word in _EN_STILL_BEFORE_VERB else "")
        chat = token in _EN_CHAT_LETTERS
        numbered = word.isdigit() and runs[-1] and not runs[-1][-1].islower() and (
            re.search(rf"(?<![\w.]){word}(?![\w.])", clause)  # "Pixel 8", not "550s", "0.5"
        )
        if word in EN_OBJECT_STOP or base in EN_OBJECT_STOP or adverb or predicate or chat or (
            word.isdigit() and not numbered
        ):
            lone = len(runs[-1]) == 1 and not any(runs[:-1])
            if word in _EN_OBJECT_PRONOUNS and lone and i >= 2 and (
                tokens[i - 2].lower() in _EN_SUBJECT_PRONOUNS
            ):
                return None  # the object is the pronoun's ("it bores me to tears")
            if word in _EN_OBJECT_PRONOUNS and (len(runs[-1]) > 1 or (lone and i == 1)):
                runs[-1].pop()  # "Reality TV drives me up the wall", "Sign me up for…": the verb
            elif word in _EN_ARTICLES and _plural_then_verb(runs[-1]):
                runs[-1].pop()  # "Open-plan offices drain the life out of me": the verb
            runs.append([])
            starts.append(i + 1)
        else:
            runs[-1].append(token.rstrip("."))
    for i, run in enumerate(runs):  # "nah mate, warm beer…": past the calls that open it
        if run and not (len(run) == 1 and run[0].lower() in _EN_CALLS and all(
                t.lower() in _EN_OPENERS | _EN_CALLS for t in tokens[: starts[i]])):
            break
        run.clear()
    found = [r for r in runs if r]
    only = sum(len(r) for r in runs) == len(tokens)
    if not found or (only and not alone):
        return None  # nothing but the object: no stance word in the clause ("Wow")
    first = next(i for i, r in enumerate(runs) if r)
    opens = all(t.lower() in _EN_OPENERS | _EN_CALLS for t in tokens[: starts[first]])
    subject = _subject_en(runs[first], tokens, starts[first]) if opens else None
    if subject is not None and len(subject) > len(tokens) - 1 and not alone:
        return None  # the clause is its subject and nothing else
    phrase = " ".join(subject or _whole_subject(found[0], tokens, starts[first], clause))
    last = found[0][-1].lower()
    participle = last.endswith("ing") or (last.endswith("ed") and (
        not last.endswith("eed") or last.endswith(("agreed", "guaranteed", "freed"))))
    state = not alone and len(found[0]) == 1 and participle and not subject  # "weed": no state
    if phrase.lower() in _EN_REACTIONS or state:
        return None  # a reaction, or a state ("stuck", "excited", "struggling")
    lead = r"\bi(?:'m|\s+am)\s+(?:(?:a|an|so|really|very|quite|such|big|huge|total)\s+)*"
    if re.search(lead + re.escape(found[0][0]) + r"\b", clause, re.IGNORECASE):
        return None  # "I'm a big foodie", "I'm stuck": what the user is, not a stance
    return phrase if len(phrase) <= 60 else None


def polarity_of(kind: Kind) -> tuple[Polarity, str] | None:
    """The polarity a clause of this kind stores when no rule reads it, and the kind whose
    content label it gets; None below :data:`NEW_MIN_P`.

    The kinds of one polarity are summed (a dislike, going off a thing and quitting it all
    store a dislike), so a clause between two of them still counts.
    """
    mass = polar_mass(kind)
    for polarity in ("like", "dislike"):
        if mass[polarity] >= NEW_MIN_P:
            return polarity, strongest_kind(kind, polarity)
    return None


def polar_mass(kind: Kind) -> dict[Polarity, float]:
    """Each polarity's probability in a reading: its kinds' (:data:`POLAR_KINDS`) summed."""
    mass: dict[Polarity, float] = {"like": 0.0, "dislike": 0.0}
    for name, polarity in POLAR_KINDS.items():
        mass[polarity] += kind.of(name)
    return mass


def strongest_kind(kind: Kind, polarity: Polarity) -> str:
    """The kind of ``polarity`` (:data:`POLAR_KINDS`) a reading gives the most probability."""
    return max((n for n, p in POLAR_KINDS.items() if p == polarity), key=kind.of)


def polarity_reader(
    reader: Callable[[list[str]], list[Kind]] | None,
) -> Callable[[str], Polarity | None] | None:
    """The polarity the statement head reads in one clause (:func:`polarity_of`), or None;
    None without a head."""
    if reader is None:
        return None

    def read(clause: str) -> Polarity | None:
        found = polarity_of(kind) if (kind := reader([clause])[0]) is not None else None
        return found[0] if found else None

    return read


def overturns(kind: Kind | None, polarity: Polarity) -> Polarity | None:
    """The polarity the head puts in place of the rules' ``polarity``, or None to keep it; read
    from the linear part alone when the head has a hidden layer (:attr:`Kind.linear`)."""
    if kind is not None and kind.linear is not None:  # the linear part alone (see Kind)
        best = max(range(len(kind.linear)), key=kind.linear.__getitem__)
        kind = Kind(KINDS[best], kind.linear[best], kind.linear)
    if kind is None or kind.p < FLIP_MIN_P:
        return None
    if polarity == "like" and kind.kind in ("flip_dislike", "quit"):
        return "dislike"
    if polarity == "dislike" and kind.kind == "flip_like":
        return "like"
    return None


def is_limit(kind: Kind | None) -> bool:
    """Whether the clause only limits an amount or frequency (no dislike in it)."""
    return kind is not None and kind.kind == "limit" and kind.p >= LIMIT_MIN_P


__all__ = [
    "EN_LABELS", "POLAR_KINDS", "ZH_LABELS", "gives_a_role", "is_limit", "labels_for", "overturns",
    "polar_mass", "polarity_of", "polarity_reader", "pull_object_en", "strongest_kind",
]

"""Reading one message: clauses to stances, stances to preference candidates.

Each clause is matched against the stance rules of its language; the first match whose object
can be resolved is the clause's stance. A stance becomes one candidate per coordinated object,
plus the objects it turns away from: the one left in a switch ("switched from A to B"), the one
compared against ("tea over coffee"), the exception of a universal ("all vegetables except
eggplant"), each with the opposite polarity. Single-valued slots and protection (allergies,
intolerances) are marked on the candidate.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace

from ...model import Polarity, PreferenceCandidate, has_cjk, is_protected, is_retraction
from .allergies import mentions_allergy
from .allergy_statements import excepted_allergy, stated_allergies
from .alternatives import judged_alternatives
from .antecedents import done_with, pronoun_reach
from .categories import category_for, object_category
from .changes import changed, then_and_now
from .clauses import (
    clause_speaker,
    clauses,
    close_person_zh,
    en_prefix_speaker,
    misread_speaker,
    own_prefix,
    reason_clauses,
    sentences,
    zh_prefix_speaker,
)
from .coordination import items
from .holders import reported, someone_else
from .joint import user_shares
from .keywords import object_keywords
from .kind_stances import contrasted, elliptic_stance, excepted_stance, kind_stance, not_meant
from .kinds import EN_LABELS, ZH_LABELS, is_limit, labels_for, overturns, polarity_reader
from .negation import negated_stance
from .objects import (
    ZH_DURATION_RE,
    Cut,
    Object,
    avoidance,
    cut_en,
    cut_zh,
    fronted_topic,
    is_pronoun,
    leading_subject,
    lower_sentence_start,
    mentioned,
    resolve,
    strip_zh_subject,
)
from .orders import (
    after_a_name,
    instructs_zh,
    opens_left_out,
    requested,
    standing_left_out,
)
from .past import past_stretch, told_over_two, turned_after
from .prepare import MAX_CAPTURE_CHARS, prepare
from .questions import is_question_or_hypothetical, stated_before_question
from .retagging import retagged
from .returns import returned_over_two
from .rules import Rule
from .rules_en import EN_TABLE
from .rules_zh import ZH_TABLE
from .slots import slot_key
from .stance import Context, Stance, latest_per_object, turned_to_topic
from .statements import Kind
from .structuring import structured
from .tagged_sides import exception_sides, structure_sides
from .temporary import lasting
from .zh_objects import fronted_refusal_zh, named_alone_zh, pull_object_zh
from .zh_subjects import holds_its_object, topic_before_speaker

Reader = Callable[[list[str]], list[Kind]]
"""Reads the kind of each clause of a message in one batch
(:class:`~...client.reading.ClauseReader`)."""

logger = logging.getLogger(__name__)
RULE_CONFIDENCE = 0.6
"""Confidence of a rule-captured preference (below a tool call's default 0.7)."""

_GERUND_RE = re.compile(
    r"(?:avoid|stay|steer|keep|shy|quitt|giv|cutt|limit|reduc|minimi[sz]|refus|enjoy|lov|gett|"
    r"skipp|switch|preferr|hat|lik)ing\b",
    re.IGNORECASE,
)
_NEGATOR_START_RE = re.compile(r"^(?:no|not|never|without)\s", re.IGNORECASE)
_OPPOSITE: dict[Polarity, Polarity] = {"like": "dislike", "dislike": "like"}


def _comparative(rule: Rule, match: re.Match[str]) -> str:
    if not rule.comparative or rule.polarity != "like":
        return ""
    return "prefer" if "prefer" in match.group(0).lower() else "yes"


def _cut(match: re.Match[str], rule: Rule, clause: str, zh: bool) -> tuple[Cut, bool]:
    """The object's cut, and whether it starts its clause (capitals say nothing there)."""
    group = rule.group(match, "obj")
    raw = group if group is not None else clause[match.end() :]
    at_start = group is not None and not clause[: match.start("obj")].strip(" ,;")
    if zh:
        cut = cut_zh(raw, rule.comparative)
        return (replace(cut, display=strip_zh_subject(cut.display)) if group else cut), False
    cut = cut_en(raw, _comparative(rule, match))
    return (replace(cut, display=lower_sentence_start(cut.display)) if at_start else cut), at_start


def _words(match: re.Match[str], rule: Rule) -> dict[str, str]:
    verb = rule.group(match, "verb")
    return {
        "verb": verb.lower() if verb else match.group(0).strip(),
        "adj": (rule.group(match, "adj") or "").lower(),
        "slot": " ".join((rule.group(match, "slot") or "").split()),
        "match": match.group(0).strip(),
    }


def _old(match: re.Match[str], rule: Rule, zh: bool, context: Context) -> Object | None:
    raw = rule.group(match, "old")
    if not raw:
        return None
    display = strip_zh_subject(cut_zh(raw).display) if zh else cut_en(raw).display
    return resolve(display, zh, context.antecedent)


def _read_match(
    match: re.Match[str], rule: Rule, clause: str, context: Context, zh: bool
) -> Stance | None:
    cut, initial = _cut(match, rule, clause, zh)
    polarity, front = rule.polarity, None
    if rule.elliptic:
        if cut.display:
            return None
        obj = context.antecedent if rule.reverses else context.mentioned
        if rule.reverses:
            if context.last_polarity is None:
                return None
            polarity = _OPPOSITE[context.last_polarity]
            if polarity == "like":  # "I hate spicy food. Not anymore.": no dislike now
                rule = replace(rule, label=(ZH_LABELS if zh else EN_LABELS)["flip_like"])
    else:
        if not zh and polarity == "like" and (rest := avoidance(cut.display)):
            cut, polarity, initial = Cut(rest), "dislike", False
            rule = replace(rule, label="avoids {obj}", comparative=False)
        if rule.pronoun_only and not is_pronoun(cut.display):
            return None
        if zh and not cut.display and polarity == "dislike" and (
                front := fronted_refusal_zh(clause, match.start(), match.end())):
            cut = Cut(front)  # 酸笋不要, 过道座位别选: the thing is put first
        elif zh and not cut.display and pull_object_zh(clause[: match.start()]):
            return None  # 甜饮料全戒了: its own fronted object, not the last sentence's
        obj = resolve(cut.display, zh, context.antecedent, initial)
    if obj is None or (rule.no_possessive and obj.display.lower().startswith("my ")):
        return None
    prefix = own_prefix(clause[: match.start()], match.group(0), rule, zh)
    prefix = prefix.replace(cut.display, "", 1) if zh and front else prefix
    speaker = zh_prefix_speaker(prefix, rule) if zh else en_prefix_speaker(prefix, rule)
    if rule.third_person or (zh and _close_person_leads(match, clause)):
        speaker = "other"
    elif speaker != "other" and past_stretch(clause) and not mentions_allergy(clause):
        speaker = "stale"  # "I loved Pokemon as a kid": history, as after "used to"
    elif speaker == "unknown" and not context.in_sentence and _GERUND_RE.match(match.group(0)):
        return None  # "avoiding X could be hard": a gerund subject, not a statement
    old = _old(match, rule, zh, context)
    return Stance(rule, _words(match, rule), speaker, obj, polarity, cut, old)


def _close_person_leads(match: re.Match[str], clause: str) -> bool:
    """Whether the last 我 before a Chinese rule's object opens someone close to the
    speaker: ``我表姐花生过敏`` is the cousin's allergy, though the allergy rules match the
    speaker themselves (:func:`~.clauses.close_person_zh`)."""
    start = match.start("obj") if "obj" in match.re.groupindex else -1
    at = clause.rfind("我", 0, start) if start > 0 else -1
    return at >= 0 and close_person_zh(clause[at:])


_LATIN_START_RE = re.compile(r"^\W*[A-Za-z]+(?:'[a-z]+)?\s")
def _stance(clause: str, context: Context) -> Stance | None:
    """The first stance in a clause whose object can be resolved.

    An English clause with a Chinese object (``I absolutely love 小笼包``) is read with
    the English rules; a Chinese clause whose object is fronted before the speaker
    (``武侠小说我已经不看了``, ``羽毛球和网球我都爱打``) is read with the object put back
    after the verb.
    """
    zh = has_cjk(clause)
    tables = [(ZH_TABLE, True)] if zh else [(EN_TABLE, False)]
    if zh and _LATIN_START_RE.match(clause):
        tables.insert(0, (EN_TABLE, False))
    found = None
    for table, as_zh in tables:
        for match, rule in table.matches(clause):
            if found := _read_match(match, rule, clause, context, as_zh):
                break
        if found:
            break
    if found is not None and found.speaker != "other":
        return found
    fronted = topic_before_speaker(clause) if zh else None
    if fronted:
        split = re.split(r"([，,])", fronted.group("rest"), maxsplit=1)
        rest, comma, after = (split + ["", ""])[:3]
        rest = ZH_DURATION_RE.sub("", re.sub(r"[了的啦呢]+$", "", rest))  # not 戒了三个月
        topic = fronted.group("topic")
        if (stance := _first_zh(f"{rest}{topic}{comma}{after}", context)) is not None:
            if holds_its_object(stance.obj.display, stance.words["verb"], topic):
                return _first_zh(f"{rest}{comma}{after}", context) or stance
            return stance
    return found


def _first_zh(text: str, context: Context) -> Stance | None:
    """The first stance of the user's, and no switch, the Chinese rules read in ``text``."""
    for match, rule in ZH_TABLE.matches(text):
        stance = _read_match(match, rule, text, context, True)
        if stance is not None and not stance.old and stance.speaker != "other":
            return stance
    return None


def _format(label: str, stance: Stance, obj: str, old: str = "") -> str:
    text = label.format(obj=obj.strip(), old=old.strip(), **stance.words)
    return " ".join(text.split())


def _candidate(
    stance: Stance, content: str, polarity: Polarity, item: str, index: int, slot: str | None
) -> PreferenceCandidate | None:
    keywords = object_keywords(item)
    if not keywords:
        return None
    zh = has_cjk(item)
    category = category_for(keywords) if zh else object_category(
        item, keywords, stance.obj.initial and index == 0)
    return PreferenceCandidate(
        content=content,
        polarity=polarity,
        keywords=keywords,
        category=category,
        confidence=RULE_CONFIDENCE,
        source="rule",
        slot=slot,
        protected=is_protected(content, polarity),
    )


def _turned_away(stance: Stance) -> list[tuple[str, str]]:
    """(content, item) of the objects a like turns away from: left, compared against, excepted."""
    found: list[tuple[str, str]] = []
    rule, cut = stance.rule, stance.cut
    whole = stance.obj.display
    if stance.old is not None:
        content = _format(rule.old_label, stance, whole, stance.old.display)
        found += [(content, item) for item in items(stance.old)]
    if stance.polarity != "like":
        return found
    zh = stance.obj.zh
    main = _format(rule.label, stance, whole, stance.old.display if stance.old else "")
    for tail, exception in ((cut.contrast, False), (cut.exception, True)):
        if not tail or is_pronoun(tail):
            continue
        tail_obj = Object(tail, zh=zh)
        if exception and is_retraction(main):  # "not allergic to anything except peanuts"
            found += [(f"对{i}过敏" if zh else f"allergic to {i}", i) for i in items(tail_obj)]
            continue
        found += [(_turned_away_text(item, whole, exception, zh), item) for item in items(tail_obj)]
    return found


def _turned_away_text(item: str, whole: str, exception: bool, zh: bool) -> str:
    """Content of an excepted or compared-against object: it reads as the dislike it is
    (never ``likes tea over coffee`` filed under "avoid")."""
    if zh:
        return f"不喜欢{item}（{whole}之外）" if exception else f"{item}不如{whole}"
    if exception:
        return f"dislikes {item} (the exception to {whole})"
    return f"less keen on {item} than {whole}"


def candidates(stance: Stance) -> list[PreferenceCandidate]:
    """The candidates one stance of the user yields (empty when no object has keywords)."""
    parts = items(stance.obj)
    if stance.polarity == "like":  # "likes no sugar" would store the opposite of what was said
        parts = [p for p in parts if not _NEGATOR_START_RE.match(p)]
    slot = slot_key(stance.words["slot"]) if stance.words["slot"] and len(parts) == 1 else None
    old = stance.old.display if stance.old else ""
    found = [
        _candidate(
            stance, _format(stance.rule.label, stance, item, old), stance.polarity, item, i, slot
        )
        for i, item in enumerate(parts)
    ]
    opposite = _OPPOSITE[stance.polarity]
    found += [
        excepted_allergy(_candidate(stance, content, opposite, item, 1, None))
        for content, item in _turned_away(stance)
    ]
    return [c for c in found if c is not None]


def _overturned(stance: Stance, kind: Kind | None, clause: str) -> Stance:
    """The rules' stance with the polarity a confident kind puts in its place (and content
    that reads as it); a switch, comparison or exception keeps the rules' structure, and a
    polarity the clause's words do not mean now is never put in (``我现在不排斥香菜了``, read
    as going off it: :func:`~.kind_stances.not_meant`)."""
    if stance.old is not None or stance.cut.contrast or stance.cut.exception:
        return stance
    polarity = overturns(kind, stance.polarity)
    if polarity is None or kind is None or polarity in not_meant(clause):
        return stance
    # the label of the kind that overturned it: the linear part's best kind may differ
    # from the mixture's (a mixture reading "none" or "like" would name the wrong stance)
    same = kind.kind in (("flip_dislike", "quit") if polarity == "dislike" else ("flip_like",))
    name = kind.kind if same else ("flip_dislike" if polarity == "dislike" else "flip_like")
    label = labels_for(clause, stance.obj.display)[name]
    rule = replace(stance.rule, polarity=polarity, label=label, comparative=False)
    return replace(stance, rule=rule, polarity=polarity)


def _topic(clause: str) -> Object | None:
    """What a clause with no stance names, for a stance without an object in the next clause
    of its sentence (``臭豆腐闻着臭吃着香，我超爱``, ``Sushi, can't get enough``). A clause
    with a stance passes on its own object instead (:func:`_read_clause`:
    ``我以前讨厌香菜，现在反而挺喜欢的``, Chinese drops the object two clauses share)."""
    if not has_cjk(clause):
        return mentioned(clause, False)  # only a noun phrase ("Sushi, can't get enough")
    raw = pull_object_zh(clause) or named_alone_zh(clause)  # 钉钉，现在看着就烦
    return Object(raw, zh=True) if raw and not is_pronoun(raw) else None


def _read_clause(clause: str, context: Context, kind: Kind | None = None) -> None:
    wants, context.wants = context.wants, False
    topic, context.topic = context.topic, None
    stance = _stance(clause, context)
    stance = stance and turned_to_topic(stance, topic, context)  # 火狐，chrome…，受不了
    if stance is not None and stance.speaker == "other" and misread_speaker(
        clause, stance.words["match"]
    ):
        # The clause's kind reads it, if it reads a stance.
        stance = kind_stance(clause, context, kind, topic) or stance
    if stance is not None and stance.obj.zh and kind is not None and kind.kind == "none" and (
            instructs_zh(clause, stance.words["match"])):
        stance = None  # 不用送上楼, 不要迟到: how to do it, no thing gone without
    if is_limit(kind) and (stance is None or stance.polarity == "dislike"):
        context.wants = wants  # "I like doughnuts, just no more than one a week": no dislike
        return
    if stance is not None:
        stance = _overturned(stance, kind, clause)
    elif (again := elliptic_stance(clause, context) or excepted_stance(clause, context)):
        stance = again  # "…, but I do now"; "I don't eat pork anymore, but bacon is fine"
    elif (left := standing_left_out(clause)) and (
            standing := negated_stance(left, context, True)) is not None:
        stance = standing  # "Default to no whipped cream on my drinks from here on"
    elif not ((wants or after_a_name(clause, context.previous)) and opens_left_out(clause)) and (
            from_kind := kind_stance(clause, context, kind, topic)) is not None and not (
        context.reason and from_kind.obj == context.antecedent  # "I love X, as it…"
    ):
        stance = from_kind
    if stance is None and (negated := negated_stance(clause, context, wants)):
        context.antecedent = context.mentioned = negated.obj
        context.wants = True  # "I like tea but no sugar and no milk"
        context.found.extend(candidates(negated))
        return
    if stance is None:
        alone = has_cjk(clause) and named_alone_zh(clause)  # 华为，我不喜欢: no one speaking
        speaker = "unknown" if alone else clause_speaker(clause)
        if speaker != "unknown":
            context.speaker = speaker
        named, said = _topic(clause), mentioned(clause, has_cjk(clause))
        if named is None and speaker != "other" and said is None:
            named = topic  # "Running? ugh, count me out": a filler keeps the topic
        context.topic = named if speaker != "other" else None
        context.wants = requested(clause)
        context.mentioned = said or context.mentioned
        said_with, thing = done_with(clause)  # the nearest thing, before an older one
        if said_with and context.reach != "older":
            context.antecedent = None if context.reach == "forward" else thing
            context.topic = context.topic if thing else None  # 昨天邻居装修了一整天，受不了
        else:
            context.antecedent = context.antecedent or leading_subject(clause, speaker)
        return
    context.antecedent = context.mentioned = context.topic = stance.obj
    speaker = stance.speaker
    if speaker == "unknown":
        speaker = context.speaker if context.speaker != "stale" else "user"
    context.speaker = speaker
    context.wants = requested(clause)  # "I'd like a sofa without tufting", read as a wish
    if stance.rule.topic:
        return
    context.last_polarity = stance.polarity
    context.in_sentence = True
    if speaker == "user":
        context.wants = stance.polarity == "like"
        found = candidates(stance)
        if stance.polarity == "dislike" and is_retraction(clause):
            # ``我对花生过敏好了`` / ``my allergy is gone``: the allergy is over, not stated.
            found = [c for c in found if c.polarity != "dislike"]
        context.found.extend(found)


def _whole_sentence(
    sentence: str, parts: list[str], context: Context, kind: Kind
) -> list[PreferenceCandidate]:
    """What the head reads in a sentence whose clauses, one by one, stored nothing: a stance
    spread over them (``紧身裤勒得难受，不爱穿``: the object in one clause, the stance in the
    next, neither sure alone), on the sentence's first object. Not for a sentence told as
    then and now (the head confuses which way it went) or with another person in it."""
    if context.speaker in ("other", "stale") or then_and_now(parts) is not None:
        return []
    stance = kind_stance(sentence, context, kind)
    found = candidates(stance) if stance is not None else []
    context.found.extend(found)
    return found


def extract_preferences(text: str, *, reader: Reader | None = None) -> list[PreferenceCandidate]:
    """Find the user's own stated preferences in one message, without a model.

    Penchant's injected blocks are stripped first (a recalled memory is never
    captured again). Questions, requests, hypotheticals, reactions to the
    assistant's suggestions, other people's preferences and stances the user
    has left behind ("I used to like …") yield nothing; "used to like X, now I
    hate it" yields the current stance. A switch, a comparison or an exception
    also yields the object turned away from, with the opposite polarity.

    Args:
        text: One user message, English and/or Chinese.
        reader: Reads the kind of each clause (:class:`~...client.reading.ClauseReader`: the
            statement head over one sentence embedding per clause, in one batch); with
            it, a kind corrects the rules' polarity and a clause no rule reads yields the
            preference of its kind (:mod:`.kinds`). Without it, rules only.

    Returns:
        Candidates with ``source="rule"`` and confidence :data:`RULE_CONFIDENCE`,
        in message order, at most one per object, each with ``slot`` (a
        single-valued slot such as ``"favorite author"``, else None) and
        ``protected`` (an allergy or intolerance) set; empty when the message
        states no first-person preference.
    """
    context = Context()
    kept, fronted, said = [], {}, []
    written = returned_over_two(told_over_two(list(sentences(prepare(text or "")))))
    every = user_shares(written)  # "My wife and I both love…": "I love…"
    for sentence, as_written in zip(every, written, strict=True):
        if not is_question_or_hypothetical(sentence) and (
            as_written == sentence or not is_question_or_hypothetical(as_written)
        ):  # a rewrite keeps no 如果 of the sentence as written
            kept.append(sentence)
            said.append(as_written)
        elif (lead := stated_before_question(sentence)) is not None:
            kept.append(lead)  # "I'm vegan now, what should I cook tonight?"
            said.append(as_written)
        elif (named := fronted_topic(sentence)) is not None:
            fronted[len(kept)] = named  # "Running? count me out": the next sentence's topic
    split = [clauses(sentence) for sentence in kept]
    flat = [clause for parts in split for clause in parts]
    multi = [i for i, parts in enumerate(split) if len(parts) > 1]
    batch = flat + [kept[i] for i in multi]  # and each sentence of clauses, whole (one batch)
    read: list[Kind | None] = list(reader(batch)) if reader is not None and batch else []
    kinds = read[: len(flat)]
    kinds += [None] * (len(flat) - len(kinds))
    whole = dict(zip(multi, read[len(flat) :], strict=False))
    position, head_polarity = 0, polarity_reader(reader)
    for index, (sentence, parts) in enumerate(zip(kept, split, strict=True)):
        context.speaker, context.in_sentence, context.wants = "user", False, False
        context.reach = pronoun_reach(sentence)
        start = len(context.found)
        context.previous, context.topic = "", fronted.get(index)
        context.mentioned = context.topic or context.mentioned  # "Peanuts? I'm allergic."
        if context.topic is not None and not context.topic.zh:
            context.antecedent = context.topic  # "Alcohol? Gave it up": *it* is the topic
        by_clause: list[list[PreferenceCandidate]] = []
        reasons, turn = reason_clauses(sentence, parts), contrasted(sentence, parts)
        for at, clause in enumerate(parts):
            before, context.reason, context.contrast = len(context.found), at in reasons, at in turn
            _read_clause(clause, context, kinds[position])
            by_clause.append(context.found[before:])
            context.previous = clause
            position += 1
        sentence_kinds = kinds[position - len(parts) : position]
        turned = changed(parts, sentence_kinds, by_clause, extract_preferences, RULE_CONFIDENCE,
                         reader, whole.get(index))  # the rules alone: no reader given
        if turned is not None:
            del context.found[start:]
            context.found.extend(turned)
        found = context.found[start:]
        if not found and turned is None and (kind := whole.get(index)) is not None:
            found = _whole_sentence(sentence, parts, context, kind)
        after = next((s for s in kept[index + 1 :] if re.search(r"\w", s)), "")  # not "!"
        prior = next((s for s in reversed(kept[:index]) if re.search(r"\w", s)), "")
        made = structured(sentence, parts, sentence_kinds, found, RULE_CONFIDENCE, after,
                          head_polarity, whole.get(index), prior)
        if made is not None:
            del context.found[start:]
            context.found.extend(made)
        kind = sentence_kinds[0] if len(parts) == 1 else whole.get(index)  # None: no clause
        # the tagger reads no reason about the object ("…, since they don't itch")
        tagger_reads = (parts[0], sentence_kinds[0]) if reasons else (sentence, kind)
        sides = None if kind is None else (
            structure_sides(sentence, kind, context.found[start:], candidates)
            or exception_sides(sentence, kind, context.found[start:], candidates))
        if sides is not None:
            context.found[start:] = sides
        elif (tagged := retagged(*tagger_reads, context.found[start:])) is not None:
            del context.found[start:]  # no rule read it, or only words that name nothing
            context.found.extend(c for s in tagged for c in candidates(s))
        context.found[start:] = judged_alternatives(  # "…, Google Maps is a mess"
            sentence, kind, context.found[start:], reader, RULE_CONFIDENCE)
        own = lasting(sentence, context.found[start:])  # not "no coffee this week"
        own = [] if turned_after(sentence, after) else own  # "Loved X. Now I…": which way?
        if own and someone_else(sentence):
            own = [c for c in own if not reported(sentence, c)]
        context.found[start:] = [c.model_copy(update={"said": said[index]}) for c in own]
    context.found.extend(stated_allergies(every, context.found, RULE_CONFIDENCE))
    found = latest_per_object(context.found)
    logger.debug("rule capture found %d candidate(s)", len(found))
    return found


__all__ = ["MAX_CAPTURE_CHARS", "RULE_CONFIDENCE", "extract_preferences", "slot_key"]

"""The ``penchant`` command line (DESIGN.md §11: a stable contract).

Every data command takes ``--json`` and then prints exactly one JSON document
on stdout. Exit status:

* 0 success: something was stored, or there was nothing to store (a ``capture`` that found
  no preference, a ``forget`` that matched nothing, an ``import`` of nothing new);
* 2 invalid input, one line on stderr: a bad argument or document (stdout empty), or a
  write (``remember``, ``capture``, ``import``) whose every candidate was rejected, so that
  nothing was stored; the result, rejections and reasons included, is still printed on
  stdout;
* 1 storage or the configured model unavailable (one line on stderr).

Refused text is echoed shortened (:func:`~penchant.memory.model.records.shorten`).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from penchant.memory import (
    GateResult,
    HistorySnapshot,
    InvalidInputError,
    Memory,
    PenchantError,
    PreferenceCandidate,
    Settings,
    StorageUnavailableError,
    describe_validation_error,
    export_user,
    import_document,
    parse_document,
    redacted_url,
    shorten,
)

EXIT_OK, EXIT_STORAGE, EXIT_INVALID = 0, 1, 2
MAX_ERROR_CHARS = 400
"""Longest error line on stderr; a longer one (an echoed argument) is shortened."""
MAX_K = 1_000
"""Largest ``recall --k``."""
MAX_BUDGET = 1_000_000
"""Largest ``recall --budget``, in tokens."""
MAX_LIMIT = 10_000
"""Largest ``history --limit`` / ``changes --limit`` (the stores keep fewer)."""

logger = logging.getLogger(__name__)


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit status 2."""

    def error(self, message: str) -> NoReturn:
        line = shorten(" ".join(message.split()), MAX_ERROR_CHARS)
        self.exit(EXIT_INVALID, f"penchant: error: {line} (see 'penchant --help')\n")


def _emit(args: argparse.Namespace, document: Any, human: Callable[[], str]) -> None:
    if args.json:
        sys.stdout.write(json.dumps(document, ensure_ascii=False, default=str) + "\n")
    else:
        sys.stdout.write(human() + "\n")


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; the error names the value
    and the range (argparse adds the option's name)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{shorten(text)!r} is not a whole number; use one from {low} to {high}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range; use {low} to {high}")
        return value

    return parse


def _keywords(raw: str | None) -> list[str]:
    return [k.strip() for k in (raw or "").split(",") if k.strip()]


# -- commands -------------------------------------------------------------------------------------


def cmd_remember(memory: Memory, args: argparse.Namespace) -> int:
    try:
        candidate = PreferenceCandidate(
            content=args.content,
            polarity=args.polarity,
            keywords=_keywords(args.keywords),
            category=args.category,
            source="tool",
        )
    except ValidationError as exc:
        raise InvalidInputError(describe_validation_error(exc)) from exc
    return _gate_outcome(args, memory.remember(args.user, candidate))


def cmd_capture(memory: Memory, args: argparse.Namespace) -> int:
    return _gate_outcome(args, memory.capture(args.user, args.text))


def _gate_outcome(
    args: argparse.Namespace, result: GateResult, *, stored_else: bool = False
) -> int:
    """Print a write's result; exit 2 (one line on stderr) when every candidate was rejected.

    Args:
        args: The command's arguments (``--json``).
        result: What the gate did.
        stored_else: Something besides preferences was stored (an import's history).
    """
    _emit(args, result.public_dict(), result.describe)
    if stored_else or not result.all_rejected:
        return EXIT_OK
    sys.stderr.write(f"penchant: error: {_one_line(result.rejection_line())}\n")
    return EXIT_INVALID


def cmd_forget(memory: Memory, args: argparse.Namespace) -> int:
    result = memory.forget(args.user, args.text, args.polarity)
    _emit(args, result.public_dict(), result.describe)
    return EXIT_OK


def cmd_delete_user(memory: Memory, args: argparse.Namespace) -> int:
    """Delete every key of one user; a second run removes nothing and says so (exit 0)."""
    result = memory.delete_user(args.user)
    _emit(args, result.public_dict(), result.describe)
    return EXIT_OK


def cmd_held(memory: Memory, args: argparse.Namespace) -> int:
    """List what the gate held for the user's confirmation (possible instructions)."""
    held = memory.held(args.user)
    _emit(args, [f.public_dict() for f in held], lambda: "\n".join(
        f.describe() for f in held) or f"nothing held for {args.user!r}")
    return EXIT_OK


def cmd_confirm(memory: Memory, args: argparse.Namespace) -> int:
    """Store a held item as written (through the gate; exit 2 when it refuses it)."""
    result = memory.confirm(args.user, args.id.strip())
    if not args.json and not result.rejected:
        print(f"confirmed held item {args.id.strip()}:")
    return _gate_outcome(args, result)


def cmd_dismiss(memory: Memory, args: argparse.Namespace) -> int:
    """Drop a held item and erase its text."""
    done = memory.dismiss(args.user, args.id.strip())
    _emit(args, done.public_dict(), done.describe)
    return EXIT_OK


def cmd_prefs(memory: Memory, args: argparse.Namespace) -> int:
    prefs = memory.preferences(args.user)

    flags = [] if args.json else memory.flags(args.user)

    def human() -> str:
        lines = [] if prefs else [f"no preferences stored for {args.user!r}"]
        lines += [
            f"{p.polarity:8} {p.content}  [{', '.join(p.keywords)}] ({p.category}, "
            + (f"slot {p.slot}, " if p.slot else "")
            + ("protected, " if p.protected else "")
            + f"x{p.mention_count}, id {p.id[:8]})"
            for p in prefs
        ]
        if flags:
            lines.append("flags (to confirm; nothing was changed):")
            lines += [f"  {f.describe()}" for f in flags]
        return "\n".join(lines)

    _emit(args, [p.public_dict() for p in prefs], human)
    return EXIT_OK


def cmd_reflect(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.agent.reflect_model import reflect_model_from_settings
    from penchant.memory import Disposition, reflect

    disposition = Disposition.of(args.skepticism, args.literalism, args.empathy)
    model = reflect_model_from_settings(memory.settings)
    result = reflect(memory, args.user, args.question, disposition, model)

    def human() -> str:
        lines = [result.answer]
        lines += [
            f"  observation ({o.confidence:.2f}): {o.content}" for o in result.observations
        ]
        lines += [f"  {note}" for note in result.notes()]
        return "\n".join(lines)

    _emit(args, result.public_dict(), human)
    return EXIT_OK


def cmd_checkup(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.agent.reflect_model import checkup_judge_from_settings
    from penchant.memory import checkup_job

    judge = checkup_judge_from_settings(memory.settings)
    if not args.verbose:  # a failed try is reported below in one line; not twice
        logging.getLogger("penchant.memory.services.checkup").setLevel(logging.ERROR)
    outcome = checkup_job(memory, args.user, judge=judge, attempts=1)
    if outcome.status == "busy":
        raise PenchantError(f"another worker is checking {args.user!r} now; try again later")
    if outcome.report is None:
        raise PenchantError(f"the check-up of {args.user!r} failed: {outcome.error}")
    report = outcome.report

    def human() -> str:
        if not report.flags:
            return f"no flags for {args.user!r} ({report.pairs} pairs checked)"
        return "\n".join(f"flag {f.id[:8]}: {f.describe()}" for f in report.flags)

    _emit(args, report.public_dict(), human)
    return EXIT_OK


def cmd_history(memory: Memory, args: argparse.Namespace) -> int:
    if args.add_kind:
        memory.record_history(
            args.user, HistorySnapshot(kind=args.add_kind, summary=args.summary or "")
        )
    items = memory.history(args.user, args.limit)

    def human() -> str:
        if not items:
            return f"no history for {args.user!r}"
        return "\n".join(f"{h.at:%Y-%m-%d %H:%M} {h.kind:10} {h.summary}"
                         + (f"  (never injected: {h.unverified})" if h.unverified else "")
                         for h in items)  # fmt: skip

    _emit(args, [h.model_dump(mode="json") for h in items], human)
    return EXIT_OK


def cmd_changes(memory: Memory, args: argparse.Namespace) -> int:
    events = memory.changes(args.user, args.limit)

    def human() -> str:
        if not events:
            return f"no changes for {args.user!r}"
        lines = []
        for e in events:
            subject = (e.after or e.before or {}).get("content") or e.content or ""
            why = f" — {e.reason}" if e.reason and subject else e.reason
            lines.append(f"{e.at:%Y-%m-%d %H:%M:%S} {e.op:10} {subject}{why}".rstrip())
        return "\n".join(lines)

    _emit(args, [e.model_dump(mode="json") for e in events], human)
    return EXIT_OK


def cmd_recall(memory: Memory, args: argparse.Namespace) -> int:
    result = memory.recall(args.user, args.text, k=args.k, token_budget=args.budget)

    def human() -> str:
        if not result.items:
            return "nothing recalled"
        return "\n".join(
            f"{i.score:.4f} {i.preference.polarity:8} {i.preference.content}"
            + ("" if i.matched else "  (ranked only: not relevant to the request)")
            for i in result.items
        )

    _emit(args, result.public_dict(), human)
    return EXIT_OK


def cmd_export(memory: Memory, args: argparse.Namespace) -> int:
    document = export_user(memory, args.user)
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=None if args.json else 2))
    sys.stdout.write("\n")
    return EXIT_OK


def cmd_import(memory: Memory, args: argparse.Namespace) -> int:
    document = parse_document(_read_input(args.file), user_override=args.user)
    result = import_document(memory, document)
    return _gate_outcome(args, result, stored_else=bool(document.history))


def cmd_reembed(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.memory import reembed

    users = [args.user] if args.user else memory.users()
    report = reembed(memory, users, dry_run=args.dry_run)
    _emit(args, report, lambda: json.dumps(report, indent=2))
    return EXIT_OK


def cmd_doctor(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.memory import diagnose

    report = diagnose(memory)
    _emit(args, report, lambda: "\n".join(f"{k:18} {_doctor_value(v)}" for k, v in report.items()))
    if report.get("redis") != "ok":
        return EXIT_STORAGE
    return EXIT_INVALID if "embedder_missing" in report else EXIT_OK


def _doctor_value(value: Any) -> str:
    """A report value for people: a dict (the cluster's shape) as ``key value, …``."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def cmd_chat(args: argparse.Namespace) -> int:
    from penchant.tui.launch import run_chat

    return run_chat(user_id=args.user)


def cmd_replay(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.agent.replay import replay_file

    document = replay_file(memory, Path(args.file), args.user)
    _emit(args, document, lambda: _replay_text(document))
    return EXIT_OK


def _replay_text(document: dict[str, Any]) -> str:
    lines = []
    for turn in document["turns"]:
        lines += [f"user> {turn['user']}", f"assistant> {turn['assistant']}"]
        changes = turn.get("memory") or {}
        for op in ("created", "merged", "superseded", "rejected"):
            for item in changes.get(op, []):
                lines.append(f"  [{op}] {item.get('content', '')}")
    return "\n".join(lines)


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve MCP over stdio for one user (``--user`` or ``PENCHANT_USER``)."""
    import os

    user = args.user or os.environ.get("PENCHANT_USER", "")
    if not user.strip():
        raise InvalidInputError("no user: pass --user ID or set PENCHANT_USER; over MCP the "
                                "user is fixed by the server, never a tool argument")
    from penchant.service.runner import run_on_fast_loop, run_stdio

    run_on_fast_loop(run_stdio(user, Settings()))
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the REST API and MCP over streamable HTTP (loopback by default)."""
    from penchant.service.runner import run_on_fast_loop, serve

    run_on_fast_loop(serve(
        Settings(), host=args.host, port=args.port, allow_hosts=args.allow_host,
        allow_origins=args.allow_origin, max_body_bytes=args.max_body_bytes,
        token_cache_seconds=args.token_cache_ms / 1000.0))
    return EXIT_OK


def cmd_token_create(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.service import TokenStore, check_scope
    from penchant.service.tokens import tenant_overreach

    scope = check_scope(args.user, args.tenant)
    warning = tenant_overreach(args.tenant, memory.users()) if args.tenant else None
    if warning:
        sys.stderr.write(f"penchant: warning: {warning}\n")
    token, info = TokenStore(memory.client).create(scope, args.label or "")
    _emit(args, {"token": token, **info.public_dict()},
          lambda: f"{token}\n(token {info.id} for {scope.describe()}; shown once, stored hashed)")
    return EXIT_OK


def cmd_token_revoke(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.service import TokenStore

    revoked = TokenStore(memory.client).revoke(args.id)
    _emit(args, {"revoked": revoked, "id": args.id.strip()[:20]},
          lambda: f"revoked token {args.id.strip()[:20]}" if revoked
          else f"no token {args.id.strip()[:20]!r}; nothing revoked")
    return EXIT_OK


def cmd_token_list(memory: Memory, args: argparse.Namespace) -> int:
    from penchant.service import TokenStore

    infos = TokenStore(memory.client).list()
    _emit(args, [i.public_dict() for i in infos], lambda: "\n".join(
        f"{i.id}  {i.scope.describe():30} {i.created_at:%Y-%m-%d %H:%M}  {i.label}".rstrip()
        for i in infos) or "no tokens")
    return EXIT_OK


def _read_input(path: str) -> str:
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path!r}: {exc}") from exc


# -- parser ---------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every ``penchant`` command."""
    parser = _Parser(prog="penchant", description="Long-term preference memory for chat agents.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def command(name: str, handler: Callable[..., int], help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(handler=handler)
        if name != "chat":
            p.add_argument("--json", action="store_true", help="print one JSON document")
        return p

    p = command("chat", cmd_chat, "Start the terminal chat.")
    p.set_defaults(needs_memory=False)
    p.add_argument("--user", default="me", help="user id (default: me)")

    p = command("remember", cmd_remember, "Store a preference through the persistence gate.")
    p.add_argument("--user", required=True)
    p.add_argument("--polarity", required=True, choices=["like", "dislike"])
    p.add_argument("--content", required=True)
    p.add_argument("--keywords", help="comma-separated objects, e.g. plastic,water bottle")
    p.add_argument("--category", default="other")

    p = command("capture", cmd_capture, "Rule-capture preferences from one user message.")
    p.add_argument("--user", required=True)
    p.add_argument("--text", required=True)

    p = command("forget", cmd_forget, "Remove the preferences that TEXT names.")
    p.add_argument("--user", required=True)
    p.add_argument("text")
    p.add_argument("--polarity", choices=["like", "dislike"])

    p = command("delete-user", cmd_delete_user,
                "Delete every key of one user (preferences, log, history, transcripts, cache).")
    p.add_argument("--user", required=True)

    p = command("prefs", cmd_prefs, "List a user's active preferences.")
    p.add_argument("--user", required=True)

    p = command("held", cmd_held, "List what was held for confirmation (possible instructions).")
    p.add_argument("--user", required=True)
    for name, handler, text in (("confirm", cmd_confirm, "Store a held item as written."),
                                ("dismiss", cmd_dismiss, "Drop a held item; erase its text.")):
        p = command(name, handler, text)
        p.add_argument("--user", required=True)
        p.add_argument("id", metavar="HELD_ID",
                       help="the held item's id, or its first 6+ characters (penchant held)")

    p = command("reflect", cmd_reflect, "Answer a question about a user from memory.")
    p.add_argument("--user", required=True)
    p.add_argument("question")
    for trait in ("skepticism", "literalism", "empathy"):
        p.add_argument(f"--{trait}", type=_whole(1, 5), default=3,
                       help=f"{trait}, 1-5 (default 3; Hindsight's CARA disposition)")

    p = command("checkup", cmd_checkup, "Flag contradictions and duplicates in a user's memory.")
    p.add_argument("--user", required=True)

    p = command("history", cmd_history, "List (or add) behaviour history snapshots.")
    p.add_argument("--user", required=True)
    p.add_argument("--limit", type=_whole(1, MAX_LIMIT), default=20)
    p.add_argument("--add-kind", help="record a snapshot of this kind (search, view, …)")
    p.add_argument("--summary", help="with --add-kind: what the user did")

    p = command("changes", cmd_changes, "List a user's recent memory changes.")
    p.add_argument("--user", required=True)
    p.add_argument("--limit", type=_whole(1, MAX_LIMIT), default=50)

    p = command("recall", cmd_recall, "Recall the preferences relevant to TEXT.")
    p.add_argument("--user", required=True)
    p.add_argument("text")
    p.add_argument("--k", type=_whole(1, MAX_K), default=5,
                   help=f"most preferences recalled, 1-{MAX_K} (default 5)")
    p.add_argument("--budget", type=_whole(1, MAX_BUDGET),
                   help=f"token budget, 1-{MAX_BUDGET}")

    p = command("export", cmd_export, "Print a user's memory as JSON.")
    p.add_argument("--user", required=True)

    p = command("import", cmd_import, "Import an exported document (or '-' for stdin).")
    p.add_argument("file")
    p.add_argument("--user", help="import into this user instead of the document's")

    p = command("reembed", cmd_reembed, "Re-embed preferences with the configured model.")
    p.add_argument("--user", help="only this user (default: every user)")
    p.add_argument("--dry-run", action="store_true", help="count, write nothing")

    p = command("replay", cmd_replay, "Feed a conversation file through the agent.")
    p.add_argument("file")
    p.add_argument("--user", required=True)

    command("doctor", cmd_doctor, "Check Redis, the schema and the embedder.")
    _service_commands(sub)
    return parser


def _service_commands(sub: Any) -> None:
    """``mcp``, ``serve`` and ``token …`` (the service face; see README)."""
    from penchant.service.guard import DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT
    from penchant.service.tokens import DEFAULT_TOKEN_CACHE_SECONDS

    p = sub.add_parser("mcp", help="Serve MCP over stdio for one user.",
                       description="Serve MCP over stdio for one user.")
    p.set_defaults(handler=cmd_mcp, needs_memory=False)
    p.add_argument("--user", help="the user of every tool call (default: $PENCHANT_USER)")

    p = sub.add_parser("serve", help="Serve the HTTP API and MCP over HTTP.",
                       description="Serve the REST API under /v1 and MCP at /mcp; every "
                       "request needs a bearer token ('penchant token create').")
    p.set_defaults(handler=cmd_serve, needs_memory=False)
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to bind (default {DEFAULT_HOST}); beyond loopback it "
                   "refuses to start until a token exists")
    p.add_argument("--port", type=_whole(0, 65_535), default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another Host name to answer to (a proxy's public name); repeatable")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="a browser origin allowed to call (https://app.example); repeatable")
    p.add_argument("--max-body-bytes", type=_whole(1_024, 64 * 1024 * 1024),
                   default=DEFAULT_MAX_BODY_BYTES, help="largest request body")
    p.add_argument("--token-cache-ms", type=_whole(0, 60_000),
                   default=round(DEFAULT_TOKEN_CACHE_SECONDS * 1000),
                   help="how long a verified token is trusted before Redis is asked again, "
                   "the longest a revoked token keeps working (default %(default)s; 0: "
                   "refused from the next request)")

    token = sub.add_parser("token", help="Create, revoke or list bearer tokens.",
                           description="Create, revoke or list the service's bearer tokens.")
    tokens = token.add_subparsers(dest="token_command", required=True, parser_class=_Parser)
    p = tokens.add_parser("create", help="Mint a token (printed once, stored hashed).",
                          description="Mint a token bound to one user or a tenant prefix.")
    p.set_defaults(handler=cmd_token_create)
    bound = p.add_mutually_exclusive_group(required=True)
    bound.add_argument("--user", help="the one user the token may reach")
    bound.add_argument("--tenant", metavar="PREFIX",
                       help="every user whose id starts with PREFIX (REST only)")
    p.add_argument("--label", help="a note shown by 'token list'")
    p = tokens.add_parser("revoke", help="Revoke a token by id.", description="Revoke a token.")
    p.set_defaults(handler=cmd_token_revoke)
    p.add_argument("id", help="the token id ('penchant token list') or the token itself")
    p = tokens.add_parser("list", help="List tokens (never their secrets).",
                          description="List tokens (never their secrets).")
    p.set_defaults(handler=cmd_token_list)
    for parser in (*tokens.choices.values(),):
        parser.add_argument("--json", action="store_true", help="print one JSON document")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``penchant`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    for name, value in vars(args).items():
        if isinstance(value, str) and not _is_text(value):
            flag = name.replace("_", "-")
            sys.stderr.write(f"penchant: error: --{flag} is not valid UTF-8 text\n")
            return EXIT_INVALID
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        if not getattr(args, "needs_memory", True):  # chat, mcp, serve open their own
            return int(args.handler(args))
        settings = Settings()
        try:
            memory = Memory.from_settings(settings)
        except StorageUnavailableError as exc:
            if args.command == "doctor":
                return _doctor_without_storage(args, settings, exc)
            raise
        with memory:
            return int(args.handler(memory, args))
    except InvalidInputError as exc:
        sys.stderr.write(f"penchant: error: {_one_line(exc)}\n")
        return EXIT_INVALID
    except (StorageUnavailableError, ConnectionError) as exc:
        sys.stderr.write(f"penchant: storage unavailable: {_one_line(exc)}\n")
        return EXIT_STORAGE
    except PenchantError as exc:
        sys.stderr.write(f"penchant: error: {_one_line(exc)}\n")
        return EXIT_STORAGE
    except ValidationError as exc:
        sys.stderr.write(f"penchant: error: {_one_line(describe_validation_error(exc))}\n")
        return EXIT_INVALID
    except (UnicodeError, RecursionError) as exc:
        sys.stderr.write(f"penchant: error: input is not valid text: {_one_line(exc)}\n")
        return EXIT_INVALID


def _doctor_without_storage(
    args: argparse.Namespace, settings: Settings, exc: StorageUnavailableError
) -> int:
    location = redacted_url(settings.redis_url) if settings.redis_url else \
        f"embedded {settings.redis_dir}"
    report = {
        "redis": f"unavailable: {_one_line(exc)}",
        "redis_location": location,
        "embedder": settings.embeddings,
        "penchant_home": str(settings.home),
    }
    _emit(args, report, lambda: "\n".join(f"{k:18} {_doctor_value(v)}" for k, v in report.items()))
    return EXIT_STORAGE


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _one_line(exc: BaseException | str) -> str:
    return shorten(" ".join(str(exc).split()), MAX_ERROR_CHARS)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

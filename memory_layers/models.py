"""Pydantic models for memory items, decision criteria and journal events (schema version 1)."""

from __future__ import annotations

import re
import secrets as _secrets
from datetime import datetime, timezone
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr

SCHEMA_VERSION = 1

# the one definition of the item types: the kinds kept as files, and journal events
FileItemType = Literal["fact", "decision", "caveat", "preference", "criterion"]
ItemType = Literal[FileItemType, "event"]
FILE_ITEM_TYPES: tuple[str, ...] = get_args(FileItemType)
ITEM_TYPES: tuple[str, ...] = (*FILE_ITEM_TYPES, "event")
Status = Literal["active", "pending", "archived"]
EventKind = Literal["progress", "discussion", "rejected", "todo", "blocker", "decision", "note"]
EVENT_KINDS: tuple[str, ...] = (
    "progress", "discussion", "rejected", "todo", "blocker", "decision", "note",
)

# folder per type, one item per file
TYPE_FOLDERS: dict[str, str] = {
    "fact": "facts",
    "decision": "decisions",
    "caveat": "caveats",
    "preference": "preferences",
    "criterion": "criteria",
}
FOLDER_TYPES = {v: k for k, v in TYPE_FOLDERS.items()}

# L1 project facts, L2 profile & criteria, L3 events
TYPE_LAYER: dict[str, str] = {
    "fact": "L1", "decision": "L1", "caveat": "L1",
    "preference": "L2", "criterion": "L2",
    "event": "L3",
}
LAYERS = ("L1", "L2", "L3")

_ID_PREFIX = {
    "fact": "fact", "decision": "dec", "caveat": "cav", "preference": "pref",
    "criterion": "crit", "event": "ev",
}
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"


def now_utc() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def new_id(item_type: str) -> str:
    """A short, stable, unique id such as `dec-7k2m9q4x`."""
    tail = "".join(_secrets.choice(_ALPHABET) for _ in range(8))
    return f"{_ID_PREFIX.get(item_type, 'mem')}-{tail}"


def without_tilde(given: str) -> str:
    """A short id as a session sees it (`~7k2m9`) without its mark: `7k2m9`."""
    typed = given.strip()
    return typed[1:] if re.fullmatch(r"~[0-9a-z]{4,8}", typed) else given


# an id lorestack made (`new_id`, or a special file's fixed id): it holds no secret
GENERATED_ID = re.compile(r"(?:fact|dec|cav|pref|crit|ev|mem)-[0-9a-z]{8}|project|profile")


def slugify(text: str, max_len: int = 48) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (slug[:max_len].rstrip("-")) or "item"


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def _split_list(value):
    """Hand-written frontmatter may say `tags: a, b` or leave the key empty."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return value


# naive times in hand-written files are read as UTC
Timestamp = Annotated[datetime, AfterValidator(_aware)]
StrList = Annotated[list[str], BeforeValidator(_split_list)]


class AppliesTo(BaseModel):
    """What a criterion is about: path globs, keywords and topics."""

    model_config = ConfigDict(extra="forbid")
    paths: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.paths or self.keywords or self.topics)


class CriterionSpec(BaseModel):
    """A decidable condition: when it applies, what violates it, and what then happens."""

    model_config = ConfigDict(extra="forbid")
    applies_to: AppliesTo = Field(default_factory=AppliesTo)
    condition: str = ""
    forbid: list[str] = Field(default_factory=list)   # terms or /regex/ that violate it
    require: list[str] = Field(default_factory=list)  # terms or /regex/ that must be present
    unless: list[str] = Field(default_factory=list)   # terms or /regex/ that exempt a proposal
    # the recommended way ("use X instead"): taking it satisfies the rule, but it never
    # excuses the forbidden thing done alongside it
    alternatives: list[str] = Field(default_factory=list)
    # "" = the terms are the user's own (typed or edited); "rules" / "llm" = a draft read
    # from the sentence that nobody accepted yet: a guess, which never blocks; "confirmed" =
    # a draft the user accepted as shown: it decides, and still applies by meaning
    drafted: Literal["", "rules", "llm", "confirmed"] = ""

    def is_guess(self) -> bool:
        """True unless the terms were typed, edited or confirmed by the user."""
        return not (self.forbid or self.require) or self.drafted in ("rules", "llm")
    verdict: Literal["warn", "block"] = "warn"
    rationale: str = ""
    review_when: str = ""

    def missing_parts(self) -> list[str]:
        missing = []  # applies-to is optional: a sentence alone is judged by its meaning
        if not (self.condition.strip() or self.forbid or self.require):
            missing.append("a condition (condition text, forbid or require terms)")
        own_terms = self.forbid or self.require or self.unless or any(
            (self.applies_to.paths, self.applies_to.keywords, self.applies_to.topics))
        words = re.findall(r"[^\W_]+", self.condition)
        if len(words) == 1 and not own_terms:  # "ok", "the", "Redis": neither do nor avoid
            missing.append(f"a rule: '{words[0]}' is one word; say what to do or avoid, "
                           'e.g. "No cron for one-off tasks"')
        return missing

    def blank_terms(self) -> list[str]:
        """Parts given an empty term (`--forbid ""`): stored, it matched nothing and silently
        replaced the terms the user had typed."""
        parts = {"forbid": self.forbid, "require": self.require, "unless": self.unless,
                 "keyword": self.applies_to.keywords, "topic": self.applies_to.topics,
                 "applies-path": self.applies_to.paths}
        return [f"an empty --{name} term: give a word or phrase (--clear-terms drops the "
                "forbid/require/unless terms)" for name, terms in parts.items()
                if any(not t.strip() for t in terms)]

    def regex_problems(self) -> list[str]:
        """`/regex/` terms that do not compile (each named with the error)."""
        problems = []
        terms = [*self.forbid, *self.require, *self.unless, *self.alternatives,
                 *self.applies_to.keywords, *self.applies_to.topics]
        for term in terms:
            if len(term) >= 2 and term.startswith("/") and term.endswith("/"):
                try:
                    re.compile(term[1:-1], re.IGNORECASE | re.MULTILINE)
                except re.error as exc:
                    problems.append(f"invalid regex {term}: {exc}")
        return problems


class Source(BaseModel):
    """Who or what wrote an item."""

    model_config = ConfigDict(extra="allow")
    kind: str = "user"  # user | session | consolidation | import | hook
    session: str | None = None
    run: str | None = None
    events: list[str] = Field(default_factory=list)
    commit: str | None = None


class MemoryItem(BaseModel):
    """One L1/L2 memory item: YAML frontmatter + markdown body in one file."""

    model_config = ConfigDict(extra="allow")

    schema_: int = Field(default=SCHEMA_VERSION, alias="schema")
    id: str
    type: ItemType
    scope: str = "project"
    title: str
    created: Timestamp = Field(default_factory=now_utc)
    updated: Timestamp = Field(default_factory=now_utc)
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    source: Source = Field(default_factory=Source)
    supersedes: StrList = Field(default_factory=list)
    superseded_by: str | None = None
    status: Status = "active"
    tags: StrList = Field(default_factory=list)
    anchors: StrList = Field(default_factory=list)
    criterion: CriterionSpec | None = None
    body: str = Field(default="", exclude=True)
    # line numbers of merge-conflict markers its file holds (`markdown.parse_item`), not saved
    _conflict_lines: list[int] = PrivateAttr(default_factory=list)

    @property
    def conflict_lines(self) -> list[int]:
        return self._conflict_lines

    @conflict_lines.setter
    def conflict_lines(self, lines: list[int]) -> None:
        self._conflict_lines = list(lines)

    @property
    def layer(self) -> str:
        return TYPE_LAYER[self.type]

    @property
    def text(self) -> str:
        """Title and body, the text that is indexed and shown."""
        body = self.body.strip()
        return f"{self.title}\n\n{body}" if body and body != self.title else self.title

    @property
    def current_status(self) -> str:
        """What the item is now, as the index and every item list say: an active item whose file
        names a successor (a link typed by hand, without the archive move) is `superseded`."""
        if self.status == "active" and self.superseded_by:
            return "superseded"
        return self.status

    @property
    def human_confirmed(self) -> bool:
        return self.source.kind == "user" and self.confidence >= 1.0

    def frontmatter(self) -> dict:
        data = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        data.pop("body", None)
        return data


class JournalEvent(BaseModel):
    """One L3 event. Append-only: never edited after it is written."""

    model_config = ConfigDict(extra="allow")

    schema_: int = Field(default=SCHEMA_VERSION, alias="schema")
    id: str = Field(default_factory=lambda: new_id("event"))
    time: Timestamp = Field(default_factory=now_utc)
    kind: EventKind = "note"
    tags: StrList = Field(default_factory=list)
    source: str = "user"
    text: str
    session: str | None = None
    speaker: str | None = None

    @property
    def type(self) -> str:
        return "event"

    @property
    def title(self) -> str:
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return first[:80]

    @property
    def confidence(self) -> float:
        """What the user wrote counts as stated; anything else (an import, an extraction) less."""
        return 1.0 if self.source == "user" else 0.8

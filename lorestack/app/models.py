"""Requests and responses of every operation: what a front end sends and what it gets back.

A request is what the caller means (its folder, its `LORESTACK_*` environment, its flags and
the operation's arguments); defaults that depend on settings (k, budgets, deadlines) are left
`None` here and filled in by the operation from the settings that apply to the caller. The
service speaks these models as JSON (`SCHEMA` names their version on the wire).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lorestack.memory_layers.models import FileItemType

SCHEMA = 1  # bump when a request or response changes incompatibly

ItemType = FileItemType
EventKind = Literal["progress", "discussion", "rejected", "todo", "blocker", "decision", "note"]
Mode = Literal["default", "hybrid", "rrf", "bm25", "vector"]
ContextMode = Literal["default", "hybrid", "rrf", "bm25", "vector", "none"]
Tier = Literal["resident", "catalog", "topk"]
TIERS: tuple[Tier, ...] = ("resident", "catalog", "topk")


class Caller(BaseModel):
    """Who asks, from where: settings and the memory root are resolved for this caller.

    `env` None means "this process's environment" (a command run in-process); a dict is the
    caller's `LORESTACK_*` variables (and HOME) as the service receives them. `flags` are
    settings given on the command line (`section.key` → value), above every other layer."""

    model_config = ConfigDict(extra="forbid")

    cwd: str | None = None
    root: str | None = None
    env: dict[str, str] | None = None
    flags: dict[str, Any] = Field(default_factory=dict)


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")

    caller: Caller = Field(default_factory=Caller)


# ---- writing -------------------------------------------------------------------------------
class CriterionFields(BaseModel):
    model_config = ConfigDict(extra="forbid")

    paths: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list)
    condition: str = ""
    forbid: list[str] = Field(default_factory=list)
    require: list[str] = Field(default_factory=list)
    unless: list[str] = Field(default_factory=list)
    verdict: Literal["warn", "block"] = "warn"
    rationale: str = ""
    review_when: str = ""
    draft: bool | None = None  # None: [guardrail] draft


class RememberRequest(Request):
    text: str
    type: ItemType = "fact"
    title: str | None = None
    tags: list[str] = Field(default_factory=list)
    scope: Literal["project", "global"] = "project"
    supersedes: str | None = None
    confidence: float = Field(default=1.0, ge=0, le=1)
    importance: float = Field(default=0.5, ge=0, le=1)
    criterion: CriterionFields = Field(default_factory=CriterionFields)
    redact: bool | None = None
    force: bool = False
    source: Literal["user", "mcp"] = "user"
    about: list[str] | None = None  # files/globs/symbols it is about; None: those the text names


class Draft(BaseModel):
    drafted_by: str
    notes: list[str] = Field(default_factory=list)
    kind: str = ""


class RememberResponse(BaseModel):
    item: dict[str, Any]
    path: str
    archived: str | None = None
    duplicate_of: str | None = None
    draft: Draft | None = None


class LogRequest(Request):
    text: str
    kind: EventKind = "note"
    tags: list[str] = Field(default_factory=list)
    redact: bool | None = None


class LogResponse(BaseModel):
    event: dict[str, Any]
    notes: list[str] = []  # a day saved as UTF-16 that the append rewrote as UTF-8


class ChangeRequest(Request):
    """forget (archive with a reason), supersede (replace with `text`), restore (unarchive),
    done (close a todo or blocker; `text` says how)."""

    action: Literal["forget", "supersede", "restore", "done"]
    id: str
    reason: str = ""
    text: str = ""
    title: str | None = None
    tags: list[str] | None = None
    redact: bool | None = None


class ChangeResponse(BaseModel):
    action: str
    id: str
    path: str | None = None
    archived: str | None = None
    item: dict[str, Any] | None = None
    was_superseded_by: str | None = None  # restore: the item that had replaced it, still active
    also_archived: list[str] = Field(default_factory=list)  # forget: other files with the id


# ---- reading -------------------------------------------------------------------------------
class ListRequest(Request):
    """Items by type, layer and status (journal events too with type `event` or layer L3)."""

    type: Literal[FileItemType, "event"] | None = None
    layer: Literal["L1", "L2", "L3"] | None = None
    status: Literal["active", "pending", "archived", "superseded", "all"] = "active"
    offset: int = 0  # skip this many (negative: start this many from the end)
    limit: int | None = Field(default=None, ge=0)  # at most this many (None: all)


class ListResponse(BaseModel):
    # each item's frontmatter and body (secrets typed by hand redacted) with the core keys of
    # the one item shape (`app/item_json.py`), and `shown_status` (`superseded` for an
    # archived item something replaced) for the table
    items: list[dict[str, Any]]
    problems: list[str] = Field(default_factory=list)  # files skipped, and why
    notes: list[str] = Field(default_factory=list)  # files read (and listed) with a problem
    total: int = 0  # how many matched; `items` is the page `offset`/`limit` asked for


class ShowRequest(Request):
    id: str  # full or short id, of an item or a journal event


class ShowResponse(BaseModel):
    kind: Literal["item", "event"]
    item: dict[str, Any]  # an item's frontmatter and body, or an event's fields
    path: str | None = None
    notes: list[str] = []  # an item read truncated, or archived in a live folder


class SearchRequest(Request):
    query: str
    k: int | None = Field(default=None, ge=1, le=1000)  # None: retrieval.k
    types: list[str] = Field(default_factory=list)
    layers: list[str] = Field(default_factory=list)
    mode: Mode = "default"
    statuses: list[str] = Field(default_factory=list)  # empty: active only
    explain: bool = False
    # only items anchored to this file (or under this folder); an empty query lists them all
    about: str | None = None


class SearchResponse(BaseModel):
    hits: list[dict[str, Any]]
    warnings: list[str] = Field(default_factory=list)
    # `about` with an empty query: the items anchored there (id, type, title, anchors, updated)
    anchored: list[dict[str, Any]] | None = None


class ContextRequest(Request):
    query: str | None = None
    budget: int | None = Field(default=None, ge=0)  # None: loader.budget
    tiers: list[Tier] = Field(default_factory=lambda: list(TIERS))
    mode: ContextMode = "default"
    recent: bool = True
    about: str | None = None  # only the memory anchored to this file (the pre-tool hook's)


class ContextResponse(BaseModel):
    text: str
    tokens: int
    budget: int
    encoding: str
    ids: list[str]
    full_ids: list[str] = Field(default_factory=list)
    tiers: dict[str, Any] = Field(default_factory=dict)
    dropped: list[dict[str, Any]] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    overhead: int = 0
    about: str | None = None  # `about`: the repository-relative path answered for
    left_out: list[str] = Field(default_factory=list)  # `about`: items over the budget


class CheckRequest(Request):
    """A proposal in words (`text`, with the `paths` it touches), or one a front end built from
    a file, a diff or a tool call (`proposal`: the guardrail's Proposal as JSON)."""

    text: str = ""
    paths: list[str] = Field(default_factory=list)
    label: str = "text"
    proposal: dict[str, Any] | None = None
    retrieval: bool | None = None
    llm: bool | None = None
    strict: bool = False


class CheckResponse(BaseModel):
    """The guardrail's result as it gave it, and the exit code it means."""

    result: dict[str, Any]
    exit_code: int
    judge_request: str | None = None


# ---- hooks ---------------------------------------------------------------------------------
class HookRequest(Request):
    event: Literal["session-start", "prompt", "session-end", "pre-tool"]
    client: str = ""  # empty: the registry's default client
    stdin: str = ""
    deadline_ms: int | None = None  # None: hooks.deadline_ms / hooks.prompt_deadline_ms


class HookResponse(BaseModel):
    output: str
    ok: bool = True
    timed_out: bool = False
    error: str | None = None
    elapsed_ms: float = 0.0


# ---- upkeep --------------------------------------------------------------------------------
class ExportRequest(Request):
    scope: Literal["project", "global"] = "project"


class ExportResponse(BaseModel):
    records: list[dict[str, Any]]  # the header first, then one record per file
    root: str = ""  # the memory folder exported
    redacted: list[str] = []  # the ids (sealed) or paths whose text had a secret redacted
    redacted_files: int = 0


class ImportMemoryRequest(Request):
    """An export's records read back into a memory, file for file."""

    records: list[dict[str, Any]]
    scope: Literal["project", "global"] = "project"
    replace: bool = False
    dry_run: bool = False


class ImportMemoryResponse(BaseModel):
    written: list[str]
    unchanged: list[str]
    conflicts: list[str]
    problems: list[str]
    redacted: int = 0  # files written with a secret redacted
    dry_run: bool


class ImportRequest(Request):
    sources: list[str]
    format: str = "auto"
    index: bool = True


class ImportResponse(BaseModel):
    result: dict[str, Any]


class ConsolidateRequest(Request):
    dry_run: bool = False
    since: str | None = None
    model: str | None = None
    max_tokens: int | None = None
    commit: bool | None = None
    require_llm: bool = False
    retry_dropped: bool = False


class ConsolidateResponse(BaseModel):
    report: dict[str, Any]


class ReviewRequest(Request):
    action: Literal["list", "accept", "reject"] = "list"
    ids: list[str] = Field(default_factory=list)
    all: bool = False
    reason: str = ""


class ReviewResponse(BaseModel):
    pending: list[dict[str, Any]] = Field(default_factory=list)
    # items whose anchored code changed ("may be stale"): id, title, what changed
    stale: list[dict[str, Any]] = Field(default_factory=list)
    result: dict[str, Any] | None = None

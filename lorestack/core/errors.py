"""Domain exceptions. The CLI turns each into one line on stderr and a non-zero exit."""

from __future__ import annotations


class LorestackError(Exception):
    """Base for every error a user can cause or fix."""

    exit_code = 1


class MemoryRootNotFound(LorestackError):
    pass


class ItemNotFound(LorestackError):
    pass


class InvalidItem(LorestackError):
    """A memory file that cannot be parsed (bad frontmatter, unknown schema, not UTF-8)."""

    def __init__(self, path, problem: str, *, read: bool = False, line: int = 0):
        self.path = path
        self.problem = problem
        self.read = read  # a note on a file whose contents were read all the same
        self.line = line  # the line of one part skipped (a journal entry); 0: the whole file
        super().__init__(f"{path}:{line}: {problem}" if line else f"{path}: {problem}")


_REDACT = "Remove it, or pass --redact to store it with the secret replaced."
# where redacting is no way out: a redacted path names no code; `forget`, `edit`, `done` take
# no --redact
_NO_REDACT = {
    "about": "Remove it: an anchor names a file or symbol as the repository spells it, so it "
             "is never stored redacted.",
    "reason": "Say why without it.",
    "note": "Say how it was resolved without it.",
    "edited title": "Remove it from the file (the edit is never stored redacted).",
    "edited text": "Remove it from the file (the edit is never stored redacted).",
}


class SecretDetected(LorestackError):
    """Refused a write because it contains a credential."""

    def __init__(self, findings: list[str], where: str = "input"):
        self.findings = findings
        self.where = where
        super().__init__(f"{self.refusal()} {_NO_REDACT.get(where, _REDACT)}")

    def refusal(self) -> str:
        kinds = ", ".join(sorted(set(self.findings)))
        return (f"refused: {self.where} looks like it contains a secret ({kinds}); "
                "nothing was written.")


class InputRejected(LorestackError):
    """Input that cannot be stored as it is: NUL bytes, not UTF-8, or over a size limit."""


class ConcurrentEdit(LorestackError):
    """The file changed on disk since it was read; we refuse to overwrite it."""


class ConfigError(LorestackError):
    pass


class MissingExtra(LorestackError):
    """An optional dependency is not installed."""


class LLMError(LorestackError):
    """An LLM call failed. `transient` tells whether a retry may help; `unreachable` that the
    model's server could not be reached at all (a problem of the server, not of the request);
    `refused` that the provider turns every call away (credentials, model name, rate limit):
    not the request's fault either."""

    def __init__(self, message: str, transient: bool = False, unreachable: bool = False,
                 refused: bool = False):
        self.transient = transient
        self.unreachable = unreachable
        self.refused = refused
        super().__init__(message)


class IndexUnavailable(LorestackError):
    pass


class IndexOpening(IndexUnavailable):
    """Another request is opening this index and waiting for it would pass the deadline."""


class IndexReadOnly(IndexUnavailable):
    """The index folder cannot be written (read-only mount or permissions): not corruption."""

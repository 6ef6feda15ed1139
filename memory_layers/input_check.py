"""What a write accepts: text a reader can see, within a size every command can afford.

A NUL byte makes the stored file look binary (every reader then skips it: an invisible
item); bytes that are not UTF-8 arrive as lone surrogates and break the writer; a
multi-megabyte item stalls every later search. Each is refused with one line that says
what to do, before anything touches disk.
"""

from __future__ import annotations

from lorestack.core.errors import InputRejected
from lorestack.core.surrogates import first_lone_surrogate


def human_size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.0f} kB"
    return f"{n} bytes"


def check_input_text(
    text: str,
    *,
    where: str = "input",
    max_bytes: int = 0,
    setting: str = "limits.max_item_bytes",
    outcome: str = "nothing was written",
    advice: str = "Store a summary",
) -> None:
    """Raise InputRejected for NUL bytes, undecodable bytes, or text over `max_bytes`."""
    if not text:
        return
    if "\x00" in text:
        raise InputRejected(
            f"refused: {where} contains NUL bytes (binary data?); {outcome}. Give plain text."
        )
    bad = first_lone_surrogate(text)
    if bad is not None:
        raise InputRejected(
            f"refused: {where} is not valid UTF-8 (undecodable bytes at character "
            f"{bad}); {outcome}. Convert it first, e.g. `iconv -t UTF-8`."
        )
    if max_bytes > 0:
        size = len(text.encode("utf-8"))
        if size > max_bytes:
            raise InputRejected(
                f"refused: {where} is {human_size(size)}, over the {human_size(max_bytes)} limit "
                f"({setting}); {outcome}. {advice}, or raise the limit in config.toml."
            )


def decode_input_bytes(data: bytes, *, where: str = "stdin",
                       outcome: str = "nothing was written") -> str:
    """Strict UTF-8 (a leading BOM dropped); anything else is refused with one line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputRejected(
            f"refused: {where} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start}); {outcome}. Convert it first, e.g. `iconv -t UTF-8`."
        ) from None
    return text


def read_text_file(path, *, outcome: str = "nothing was written") -> str:
    """A file's text read as `decode_input_bytes` reads stdin (strict UTF-8, a BOM dropped, as
    Notepad writes one): a binary or UTF-16 file is one refusal naming the byte."""
    from pathlib import Path

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputRejected(f"{path}: cannot read ({exc.strerror})") from None
    return decode_input_bytes(data, where=str(path), outcome=outcome)

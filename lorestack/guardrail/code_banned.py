"""Code the sentence writes and calls never acceptable is forbidden as written (thirtieth
session, fix30).

"Don't swallow exceptions. An except block has to re-raise, …; `except Exception: pass` is
never acceptable." The clause that names the exact code had no cue the reader knew ("is never
acceptable"), so the draft forbade only 'exceptions' — the topic word — and every except block
that logs and re-raises was the forbidden thing. The code span is the rule: where a sentence
writes code in backticks as the subject of "is / are never (or not) acceptable, allowed,
permitted, OK" or "is forbidden / banned", that code is a forbidden term, matched as written
with any spacing or line breaks between its tokens (`except Exception:\\n    pass`, in a diff
`+    except Exception:\\n+        pass`)."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_BANNED = re.compile(
    r"`([^`]{3,80})`\s+(?:is|are)\s+(?:(?:never|not)\s+(?:ever\s+)?(?:acceptable|allowed|permitted|ok|okay)"
    r"|(?:forbidden|banned|prohibited))\b", re.I)
_TOKEN = re.compile(r"\w+|[^\w\s]")


def banned_code(sentence: str) -> list[tuple[str, set[str]]]:
    """(regex term, the span's lower-case words) for each code span the sentence calls never
    acceptable; a word term read from inside the span ('err' of `catch (err) {}`) is no rule."""
    if not ON:
        return []
    out = []
    for m in _BANNED.finditer(sentence):
        tokens = _TOKEN.findall(m.group(1))
        if len(tokens) < 2:
            continue
        pattern = ""
        for prev, tok in zip([None, *tokens], tokens):
            if prev is not None:
                # spaces, or a line break with a diff's `+` after it
                pattern += r"[\s+]+" if prev[-1].isalnum() and tok[0].isalnum() else r"[\s+]*"
            pattern += re.escape(tok)
        b = r"\b" if tokens[0][0].isalnum() else ""
        out.append((f"/{b}{pattern}/", {t.lower() for t in tokens if t[0].isalnum()}))
    return out

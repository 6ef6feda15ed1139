"""lorestack: layered, file-first memory for AI coding assistants."""

import logging as _logging

# a library never configures logging for its host; entry points attach handlers (core.logs)
_logging.getLogger("lorestack").addHandler(_logging.NullHandler())

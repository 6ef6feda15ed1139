"""Client hooks as the front ends see them: the work lives in `lorestack.app.hooks`.

Kept so existing callers (`lorestack.integrations.hooks.run_hook`, `prompt_context`, the
bench) keep working; new code imports from the application layer.
"""

from lorestack.app.hooks import *  # noqa: F401,F403 - the public names, re-exported
from lorestack.app.hooks import (  # noqa: F401 - private helpers callers used before the move
    HANDLERS,
    HookRun,
    _open_memory,
    pre_tool,
    prompt_context,
    run_hook,
)

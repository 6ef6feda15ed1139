"""lorestack: layered, file-first memory for AI coding assistants."""

# Logging is set up by `lorestack.core.logs` (every lorestack logger comes from there, and it
# installs the NullHandler): importing `logging` here would cost every hook process its time.

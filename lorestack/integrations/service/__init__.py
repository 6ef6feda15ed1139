"""The resident memory service: one process per user on a private Unix socket.

`protocol` and `client` are standard-library only (the hook's thin path imports them before
anything else); `server`, `warm`, `watch` and `jobs` run inside the service process.
"""

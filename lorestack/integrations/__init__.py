"""Where lorestack meets its clients: hooks, installers, the MCP server."""

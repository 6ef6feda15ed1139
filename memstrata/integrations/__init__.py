"""Where memstrata meets its clients: hooks, installers, the MCP server."""

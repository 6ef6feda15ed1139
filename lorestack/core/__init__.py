"""Shared core: errors, paths, settings. Imports nothing else of lorestack."""

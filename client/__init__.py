"""A thin HTTP client for remote agents (imports no other BangArena package)."""

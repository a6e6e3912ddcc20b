"""BangArena harness package."""

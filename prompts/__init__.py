"""BangArena prompts package."""

"""BangArena rules_machine package."""

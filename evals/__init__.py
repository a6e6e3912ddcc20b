"""BangArena evals package."""

"""BangArena leaderboard package."""

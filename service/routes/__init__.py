"""One router per resource of API v1: matches, decisions and moves, events, results (suites and
the leaderboard) and meta (rules, schemas, health, the developers page, browser sessions)."""

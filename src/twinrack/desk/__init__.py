"""Score keeper and tournament desk for games played with real tiles."""

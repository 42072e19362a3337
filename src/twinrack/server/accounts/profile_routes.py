"""Profiles at /u/NAME, "my games" of a signed-in player, and the leaderboard."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()

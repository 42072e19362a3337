"""Passwords: the rules a new one must meet (NIST SP 800-63B, section 5.1.1.2: at least 8
characters, up to 256, any characters, no composition rules, none of the common or leaked
ones of :file:`common_passwords.txt`, not the user name) and their Argon2 hashes
(argon2-cffi, its default parameters: RFC 9106's second recommended option)."""

from __future__ import annotations

import asyncio
import unicodedata
from functools import cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_CHARS = 8
MAX_CHARS = 256

_HASHER = PasswordHasher()


class PasswordRefused(ValueError):
    """A new password that does not meet the rules, with the reason in a player's words."""


@cache
def common_passwords() -> frozenset[str]:
    text = (Path(__file__).parent / "common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def normalized(password: str) -> str:
    """The password as it is hashed: Unicode NFKC (the same password typed on another
    keyboard is the same password), nothing stripped."""
    return unicodedata.normalize("NFKC", password)


def check_new(password: str, name: str) -> None:
    """Refuse a new password, whole, with the reason (PasswordRefused)."""
    text = normalized(password)
    if len(text) < MIN_CHARS:
        raise PasswordRefused(f"a password has at least {MIN_CHARS} characters "
                              f"(that one has {len(text)})")
    if len(text) > MAX_CHARS:
        raise PasswordRefused(f"a password has at most {MAX_CHARS} characters")
    lowered = text.lower()
    if lowered in common_passwords() or len(set(lowered)) == 1:
        raise PasswordRefused("that password is one of the most common ones, which are "
                              "guessed first: choose another")
    if name and name.lower() in lowered:
        raise PasswordRefused("a password may not contain the user name")


def hash_password(password: str) -> str:
    return _HASHER.hash(normalized(password))


def verify(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, normalized(password))
    except (VerificationError, InvalidHashError):
        return False


#: a hash to verify against when the account does not exist, so that the answer takes as
#: long as for a wrong password (no telling which names exist by timing)
@cache
def decoy_hash() -> str:
    return hash_password("not the password of anyone")


async def hash_off_loop(password: str) -> str:
    """Argon2 takes tens of milliseconds on purpose: on a thread, never the event loop."""
    return await asyncio.to_thread(hash_password, password)


async def verify_off_loop(password_hash: str | None, password: str) -> bool:
    if len(password) > MAX_CHARS * 4:
        return False
    return await asyncio.to_thread(verify, password_hash or decoy_hash(), password) \
        and password_hash is not None

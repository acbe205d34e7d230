"""argon2, in one place: the hasher of every password and token secret, the check, and the
hash a refusal checks when there is no stored one (so that it costs what a real check costs).

The hasher has argon2-cffi's recommended parameters (RFC 9106, low memory: ~0.1 s and 64 MiB
a check, by design); the test suite swaps in its cheapest ones (tests/fixtures/bancos.py). A
check costs what the stored hash says."""

from __future__ import annotations

import functools
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from argon2 import PasswordHasher


def hasher() -> PasswordHasher:
    from argon2 import PasswordHasher

    return PasswordHasher()


@functools.cache
def hash_falso() -> str:
    """What a refusal with no stored hash checks (an unknown name, no password): made by the
    same hasher, with its parameters, once per process."""
    return hasher().hash(secrets.token_urlsafe(32))


def confere(hash_: str, segredo: str) -> bool:
    """Whether ``segredo`` matches ``hash_`` (a malformed hash: no)."""
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(hasher().verify(hash_, segredo))
    except (VerificationError, InvalidHashError):
        return False

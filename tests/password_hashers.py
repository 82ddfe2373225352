"""The suite's password hasher: Django's PBKDF2 with one round, so a test user costs no CPU."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneRoundPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 with one iteration: the hash names its iterations (`pbkdf2_sha256$1$...`), so a
    server the tests start, on the default hashers, still verifies it. Only the suite uses it."""

    iterations = 1

"""The referee PIN: hashing, checking, rate limiting, and the secret that signs session cookies.

A PIN has few digits, so the hash is deliberately slow (scrypt) and wrong guesses are rate-limited per client;
together they make guessing impractical on a table's Wi-Fi without making the referee wait.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1
MIN_PIN_LENGTH = 4


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024, dklen=32)


def hash_pin(pin: str) -> str:
    """A salted scrypt hash of ``pin`` for ``[web] pin_hash``: ``scrypt$n$r$p$salt$digest``."""
    if len(pin) < MIN_PIN_LENGTH:
        raise ValueError(f"A PIN needs at least {MIN_PIN_LENGTH} characters.")
    salt = secrets.token_bytes(16)
    digest = _scrypt(pin, salt, _SCRYPT_N, _SCRYPT_R, _SCRYPT_P)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_pin(pin: str, pin_hash: str) -> bool:
    """Whether ``pin`` matches ``pin_hash``; a malformed hash matches nothing."""
    try:
        scheme, n, r, p, salt, digest = pin_hash.split("$")
        if scheme != "scrypt":
            return False
        actual = _scrypt(pin, _unb64(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(actual, _unb64(digest))


def pin_fingerprint(pin_hash: str) -> str:
    """Short tag of the configured hash, kept in the cookie so changing the PIN locks every open session."""
    return hashlib.sha256(pin_hash.encode("utf-8")).hexdigest()[:16]


@dataclass
class AttemptLimiter:
    """Counts wrong PINs per client in a sliding window; a client over the limit waits for the window to pass."""

    max_attempts: int
    window_seconds: float
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def retry_after(self, client: str) -> float:
        """Seconds until ``client`` may try again (0 if it may try now)."""
        with self._lock:
            failures = self._prune(client)
            if len(failures) < self.max_attempts:
                return 0.0
            return max(0.0, failures[0] + self.window_seconds - self.clock())

    def failed(self, client: str) -> int:
        """Record a wrong PIN; returns how many tries ``client`` has left."""
        with self._lock:
            failures = self._prune(client)
            failures.append(self.clock())
            return max(0, self.max_attempts - len(failures))

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)

    def _prune(self, client: str) -> deque[float]:
        failures = self._failures.setdefault(client, deque())
        horizon = self.clock() - self.window_seconds
        while failures and failures[0] <= horizon:
            failures.popleft()
        return failures


def load_secret_key(path: Path) -> bytes:
    """The cookie-signing key stored at ``path``, created (owner-only) on first use."""
    try:
        key = path.read_bytes().strip()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32).encode("ascii")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key + b"\n")
    return key

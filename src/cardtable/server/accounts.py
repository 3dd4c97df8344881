"""Accounts: names, argon2-hashed passwords, sessions, and the CSRF rule.

Accounts are optional — guests play by seat tokens as before.  A signed-in
browser holds a session cookie (:data:`SESSION_COOKIE`: ``HttpOnly``,
``SameSite=Strict``, ``Secure`` over TLS) whose token is stored only as its
SHA-256 hash, like seat tokens.  Passwords are hashed with argon2id
(``argon2-cffi``) and never logged or sent back.

Names are shown as typed (whitespace tidied, NFKC-normalised) and unique by
their *key*: the NFKC form case-folded, so ``Straße``, ``STRASSE`` and
``ｓｔｒａｓｓｅ`` are one name.

>>> name_key("Straße") == name_key("STRASSE") == name_key("ｓｔｒａｓｓｅ")
True
>>> check_account_name("  Анна_K ")
'Анна_K'

CSRF: the session cookie is ``SameSite=Strict``, so other sites' pages never
send it, and :class:`~cardtable.server.limits.LimitsMiddleware` refuses a
state-changing request whose ``Origin`` is not the server's own.  On top of
that, a state-changing request that carries the session cookie must carry an
``Origin`` header at all (every current browser sends one on ``POST``):
:func:`check_csrf` refuses it with ``csrf_failed`` otherwise.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import IntegrityError

from cardtable.server.errors import ProtocolError
from cardtable.server.limits import AddressLimiter, Clock
from cardtable.server.room import hash_token
from cardtable.server.store import Store, sessions_table, users_table

SESSION_COOKIE = "cardtable_session"
MIN_NAME, MAX_ACCOUNT_NAME = 2, 24
"""Shortest and longest account name, in characters (after normalisation)."""
MIN_PASSWORD, MAX_PASSWORD = 8, 256
"""Shortest and longest password, in characters."""
_NAME_PUNCTUATION = "_-."


def name_key(name: str) -> str:
    """The uniqueness key of a name: NFKC, case-folded, NFKC again (case folding can
    denormalise)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_account_name(value: object) -> str:
    """The account name to store for ``value`` (``bad_name`` if it is not one):
    NFKC-normalised, trimmed, letters, digits and ``_ - .`` only, of
    :data:`MIN_NAME`–:data:`MAX_ACCOUNT_NAME` characters, starting with a letter or digit."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "'name' must be a string")
    name = unicodedata.normalize("NFKC", value).strip()
    if not MIN_NAME <= len(name) <= MAX_ACCOUNT_NAME:
        raise ProtocolError("bad_name", f"an account name has {MIN_NAME} to {MAX_ACCOUNT_NAME} characters, "
                            f"not {len(name)}")
    if not all(ch.isalnum() or ch in _NAME_PUNCTUATION for ch in name) or not name[0].isalnum():
        raise ProtocolError("bad_name", "an account name is letters, digits and _ - . (no spaces), "
                            "starting with a letter or digit")
    return name


def check_password(value: object) -> str:
    """``value`` if it can be a password (``bad_password`` otherwise); it is never echoed."""
    if not isinstance(value, str):
        raise ProtocolError("bad_password", "'password' must be a string")
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise ProtocolError("bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("bad_password", "a password must be valid Unicode text") from None
    return value


@dataclass(frozen=True)
class User:
    id: int
    name: str

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name}


class Accounts:
    """Sign-up, sign-in and sessions over the store.  Sign-in attempts are limited
    per client address (``signin_per_minute``, ``rate_limited`` past it)."""

    def __init__(self, store: Store, clock: Clock, *, signin_per_minute: float, session_days: float,
                 max_addresses: int = 10000, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        self.signin_per_minute = signin_per_minute
        self.attempts = AddressLimiter(signin_per_minute / 60.0, signin_per_minute, clock, max_addresses)
        self.session_seconds = session_days * 86400.0
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))
        """Verified against when a name is unknown, so both cases take as long."""

    def check_attempt(self, address: str) -> None:
        """Count a sign-up or sign-in attempt from ``address`` (``rate_limited`` past the limit)."""
        if not self.attempts.take(address):
            raise ProtocolError("rate_limited", f"too many sign-in attempts from this address: at most "
                                f"{self.signin_per_minute:g} a minute; wait a minute and try again", status=429)

    async def sign_up(self, name_value: object, password_value: object) -> tuple[User, str]:
        """A new account and a session token for it (``name_taken`` if the name's key is in use)."""
        name = check_account_name(name_value)
        password = check_password(password_value)
        digest = await asyncio.to_thread(self.hasher.hash, password)
        key = name_key(name)

        def op(conn: Connection) -> int | None:
            if conn.execute(select(users_table.c.id).where(users_table.c.name_key == key)).first() is not None:
                return None
            result = conn.execute(insert(users_table).values(name=name, name_key=key, password_hash=digest,
                                                             created=time.time()))
            pk = result.inserted_primary_key
            return None if pk is None else int(pk[0])

        try:
            user_id = await self.store.run(op)
        except IntegrityError:  # a concurrent sign-up of the same name won the unique key
            user_id = None
        if user_id is None:
            raise ProtocolError("name_taken", f"the name {name!r} (or one differing only in case or form) "
                                "is taken", status=409)
        user = User(user_id, name)
        return user, await self.new_session(user)

    async def sign_in(self, name_value: object, password_value: object) -> tuple[User, str]:
        """The account of ``name`` and a new session, if the password is right
        (``bad_credentials`` otherwise, without saying which was wrong)."""
        if not isinstance(name_value, str) or not isinstance(password_value, str):
            raise ProtocolError("bad_message", "send 'name' and 'password' strings")
        key = name_key(name_value.strip())

        def op(conn: Connection) -> tuple[int, str, str] | None:
            row = conn.execute(select(users_table.c.id, users_table.c.name, users_table.c.password_hash)
                               .where(users_table.c.name_key == key)).first()
            return None if row is None else (int(row[0]), str(row[1]), str(row[2]))

        found = await self.store.run(op)
        digest = self._dummy_hash if found is None else found[2]
        ok = await asyncio.to_thread(self._verify, digest, password_value)
        if found is None or not ok:
            raise ProtocolError("bad_credentials", "the name or the password is wrong", status=401)
        user = User(found[0], found[1])
        return user, await self.new_session(user)

    def _verify(self, digest: str, password: str) -> bool:
        try:
            return self.hasher.verify(digest, password)
        except (VerificationError, InvalidHashError):
            return False

    async def new_session(self, user: User) -> str:
        token = secrets.token_urlsafe(32)
        now = time.time()
        row = dict(token_hash=hash_token(token), user_id=user.id, created=now, expires=now + self.session_seconds)
        await self.store.run(lambda conn: conn.execute(insert(sessions_table).values(**row)))
        return token

    async def sign_out(self, token: str) -> None:
        digest = hash_token(token)
        await self.store.run(lambda conn: conn.execute(delete(sessions_table)
                                                       .where(sessions_table.c.token_hash == digest)))

    async def user_of(self, token: str | None) -> User | None:
        """The user whose unexpired session ``token`` is, or ``None``."""
        if not token or len(token) > 200:
            return None
        digest = hash_token(token)
        now = time.time()

        def op(conn: Connection) -> User | None:
            row = conn.execute(
                select(users_table.c.id, users_table.c.name)
                .select_from(sessions_table.join(users_table, sessions_table.c.user_id == users_table.c.id))
                .where(sessions_table.c.token_hash == digest, sessions_table.c.expires > now)
            ).first()
            return None if row is None else User(int(row[0]), str(row[1]))

        return await self.store.run(op)

    async def find(self, name: str) -> User | None:
        """The account named ``name`` (by its key), or ``None``."""
        key = name_key(name.strip())

        def op(conn: Connection) -> User | None:
            row = conn.execute(select(users_table.c.id, users_table.c.name)
                               .where(users_table.c.name_key == key)).first()
            return None if row is None else User(int(row[0]), str(row[1]))

        return await self.store.run(op)


def check_csrf(method: str, has_session: bool, origin: str | None, fetch_site: str | None) -> None:
    """Refuse a state-changing request that carries the session cookie but neither an
    ``Origin`` header nor ``Sec-Fetch-Site: same-origin`` (the middleware has already
    refused a foreign ``Origin``)."""
    if method in ("GET", "HEAD", "OPTIONS") or not has_session:
        return
    if origin is None and fetch_site != "same-origin":
        raise ProtocolError("csrf_failed", "a request signed in by cookie must come from this site's pages "
                            "(send an Origin header)", status=403)

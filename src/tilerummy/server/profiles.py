"""Players' profiles: a name chosen once, kept by a secret key instead of a password.

A profile is a unique name and its secret keys. The browser keeps a *device key*
(any client of the protocol may keep one the same way) and shows a *recovery
code* once, to sign in on another device, which then gets a device key of its
own. The server keeps only the SHA-256 of each key and code: both are random
(256 and 100 bits), so a fast hash is as safe as a slow one, and nothing stored
lets anyone sign in. A recovery code made anew replaces the old one; a key can
be signed out (forgotten) by its device.

Names are unique ignoring case, accents and look-alike characters: two names
that differ only so (``Ana``, ``ANA``, ``Aná``, ``Аna`` with a Cyrillic А, ``An4``
is *not* one of them) have the same :func:`name_key`, which the database keeps
unique. A name is 3 to 20 letters, digits, spaces and ``_ - . '``, with no
control or formatting characters.

This module holds the rules; :mod:`.profile_store` keeps them in the database
and :mod:`.profile_routes` serves them.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

from ..errors import TilerummyError

NAME_MIN = 3
NAME_MAX = 20
#: Characters a name may hold besides letters and digits.
NAME_PUNCTUATION = frozenset(" _-.'")
#: The start of every device key, so that one found in a log or a paste is recognised.
KEY_PREFIX = "trk_"
#: Crockford's base 32: no I, L, O or U, so a code read aloud or copied by hand is unambiguous.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_GROUPS = 4
CODE_GROUP_LENGTH = 5
#: Names nobody may take: they would pass for the server or its computer players.
RESERVED = frozenset({"admin", "administrator", "moderator", "server", "system", "tilerummy", "computer", "guest"})
#: Characters drawn alike in most fonts, after transliteration to ASCII.
_LOOKALIKES = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s"})


class ProfileError(TilerummyError):
    """A profile request refused: ``reason`` is the protocol's name for it."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def display_name(raw: str) -> str:
    """The name as it will be shown: Unicode-composed, its spaces folded.

    :raises ProfileError: ``bad_name``, saying what is wrong with it.
    """
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    for character in name:
        category = unicodedata.category(character)
        if category[0] not in "LMN" and character not in NAME_PUNCTUATION:
            shown = character if category[0] not in "CZ" else f"U+{ord(character):04X}"
            raise ProfileError("bad_name", f"a name may hold letters, digits, spaces and _ - . ' only, not {shown!r}")
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ProfileError("bad_name", f"a name is {NAME_MIN} to {NAME_MAX} characters long, not {len(name)}")
    if not any(unicodedata.category(character)[0] in "LN" for character in name):
        raise ProfileError("bad_name", "a name needs at least one letter or digit")
    if name_key(name) in {name_key(reserved) for reserved in RESERVED}:
        raise ProfileError("bad_name", f"{name!r} is kept for the server's own use")
    return name


def name_key(name: str) -> str:
    """What makes two names the same: case, accents, scripts' look-alikes and punctuation set aside.

    Each letter that Unicode's confusables (UTS #39) say is drawn like a Latin letter or digit
    reads as that one, then case and accents go, then ASCII characters drawn alike in most
    fonts (0 and o, 1, I and l, rn and m) read as one.

    >>> name_key("Aná-María") == name_key("ANA MARIA") == name_key("Аna Maria")  # Cyrillic А
    True
    """
    latin = "".join(map(_latin_look_alike, unicodedata.normalize("NFKC", name)))
    folded = unicodedata.normalize("NFKD", latin.casefold())
    bare = "".join(character for character in folded if not unicodedata.combining(character))
    plain = bare.translate(_LOOKALIKES).replace("rn", "m").replace("vv", "w")
    key = "".join(character for character in plain if character.isalnum())
    # A name of punctuation alone (refused by display_name) still has a key.
    return key or bare


@cache
def _latin_look_alike(character: str) -> str:
    """The Latin letter or digit a character is drawn like, or the character."""
    if character.isascii():
        return character
    for alike in confusables_data.get(character, ()):
        glyph = alike["c"]
        if len(glyph) == 1 and glyph.isascii() and glyph.isalnum():
            return str(glyph)
    return character


def new_key() -> str:
    """A device key: 256 random bits."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def new_recovery_code() -> str:
    """A recovery code: 100 random bits in four groups of five, e.g. ``7KQ2M-0RZXD-...``."""
    groups = ("".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUP_LENGTH)) for _ in range(CODE_GROUPS))
    return "-".join(groups)


def normal_recovery_code(text: str) -> str | None:
    """A recovery code as typed (any case, with or without dashes or spaces; O read as 0 and
    I or L as 1, as Crockford's alphabet means), or None when it cannot be one."""
    plain = re.sub(r"[\s-]", "", text.upper()).translate(str.maketrans("OIL", "011"))
    if len(plain) != CODE_GROUPS * CODE_GROUP_LENGTH or any(character not in CODE_ALPHABET for character in plain):
        return None
    return "-".join(plain[start : start + CODE_GROUP_LENGTH] for start in range(0, len(plain), CODE_GROUP_LENGTH))


def secret_hash(secret: str) -> str:
    """What the database keeps of a key or a recovery code."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_profile_id() -> str:
    """A profile's id: public, stable across renames, and guessing one gives nothing."""
    return "p_" + secrets.token_hex(8)


@dataclass(frozen=True, slots=True)
class Profile:
    """A player's public face: what anyone may see."""

    id: str
    name: str
    created_at: float

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "created_at": self.created_at}


@dataclass(frozen=True, slots=True)
class NewProfile:
    """A profile just made: the key and code are shown this once and never again."""

    profile: Profile
    key: str
    recovery_code: str

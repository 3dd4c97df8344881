r"""Dates and times in the reader's language, for the terminal (the browser formats its
own with ``Intl.DateTimeFormat``): CLDR formats through :mod:`babel`.

>>> import datetime as dt
>>> moment = dt.datetime(2026, 12, 1, 12, 50, tzinfo=dt.timezone.utc)
>>> datetime_text(moment, "en", local=False)
'Dec 1, 2026, 12:50\u202fPM'
>>> datetime_text(moment, "ru", local=False)
'1 дек. 2026\u202fг., 12:50'
"""

from __future__ import annotations

import datetime as _dt

from babel.dates import format_date, format_time


def datetime_text(moment: _dt.datetime, lang: str, *, local: bool = True) -> str:
    """``moment`` as ``lang`` writes it (CLDR: the medium date, the short time; English
    for an unknown language), in the machine's time zone when ``local`` (a naive moment
    is taken as local time)."""
    if local:
        moment = moment.astimezone()
    locale = lang if lang in ("en", "ru") else "en"
    return f"{format_date(moment, 'medium', locale=locale)}, {format_time(moment, 'short', tzinfo=moment.tzinfo, locale=locale)}"


def saved_text(stamp: str, lang: str) -> str:
    """A record's ``"saved"`` stamp (ISO 8601) for people; the stamp itself when it is not one."""
    try:
        moment = _dt.datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    return datetime_text(moment, lang)

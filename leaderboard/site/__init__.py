"""The leaderboard's static site: the board, plots, a page per participant, head to head, the
methodology, ``leaderboard.json`` and replay pages (:func:`build_site`; see :mod:`.build` for
the layout). Works from ``file://`` and any static host: no CDN, no network."""

from .build import MARKER, SiteError, SiteReport, build_site

__all__ = ["MARKER", "SiteError", "SiteReport", "build_site"]

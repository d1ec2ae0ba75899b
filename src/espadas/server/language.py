"""The language of a request, from its ``Accept-Language`` header (Spanish by default).

>>> request_lang("en-US,en;q=0.9,es;q=0.5"), request_lang("fr, en;q=0.3"), request_lang(None)
('en', 'en', 'es')
>>> request_lang("es-AR,en;q=0.8")
'es'
"""

from __future__ import annotations

from espadas.i18n import DEFAULT_LANG, LANGS


def request_lang(header: str | None) -> str:
    """The best of our languages for ``header``."""
    if not header:
        return DEFAULT_LANG
    best: tuple[float, str] | None = None
    for position, part in enumerate(header[:500].split(",")):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-")[0]
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if lang in LANGS and quality > 0:
            score = (quality, -position)
            if best is None or score > (best[0], 0):
                best = (quality, lang) if best is None or quality > best[0] else best
    return DEFAULT_LANG if best is None else best[1]

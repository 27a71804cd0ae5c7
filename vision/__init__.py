"""Card vision: frame sources, card detection and recognition, tracker, table zones.

Not built yet: issue 3 builds it. Nothing here pretends otherwise.
"""

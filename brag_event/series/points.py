"""The organiser's points table as typed ("25, 18, 15, 12, 10, 8, 6, 4, 2, 1"): read into a
list of whole numbers, place 1 first, or refused in words. Hand-written: a comma-separated
list of numbers is one ``split``; a formset of one field a place would be forty inputs."""

from __future__ import annotations

from brag_event.core.errors import ServiceError

MOST_PLACES = 100
MOST_POINTS = 10_000


def points_parse(text: str) -> list[int]:
    """``"25, 18, 15"`` → ``[25, 18, 15]``; spaces or commas between. Each place scores a whole
    number from 0 to 10,000, never more than the place above it; at least one place scores."""
    words = [w for w in text.replace(",", " ").replace(";", " ").split() if w]
    if not words:
        raise ServiceError(
            "points_empty",
            "Give the points for each finishing place, first place first, e.g. 25, 18, 15.",
            details={"field": "points"},
        )
    points: list[int] = []
    for place, word in enumerate(words, start=1):
        if not (word.isascii() and word.isdigit()) or int(word) > MOST_POINTS:
            raise ServiceError(
                "points_not_a_number",
                f"Place {place}'s points, “{word[:20]}”, are not a whole number from 0 to "
                f"{MOST_POINTS:,}.",
                details={"field": "points", "place": place},
            )
        points.append(int(word))
    if len(points) > MOST_PLACES:
        raise ServiceError(
            "points_too_many",
            f"At most {MOST_PLACES} places score points; {len(points)} were given.",
            details={"field": "points"},
        )
    for place in range(1, len(points)):
        if points[place] > points[place - 1]:
            raise ServiceError(
                "points_not_descending",
                f"Place {place + 1} cannot score more than place {place} "
                f"({points[place]} after {points[place - 1]}).",
                details={"field": "points", "place": place + 1},
            )
    if points[0] == 0:
        raise ServiceError(
            "points_all_zero",
            "First place scores nothing: give at least one place some points.",
            details={"field": "points"},
        )
    return points


def points_text(points: list[int]) -> str:
    return ", ".join(str(p) for p in points)

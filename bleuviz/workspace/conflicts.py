"""Refusals that protect saved work: an output or a note changed under the same name.

Nothing saved is overwritten without being asked: re-adding a system with
other lines under a saved name raises ``OutputChanged`` unless the caller asks
to replace it (the old lines are then kept as an earlier version), and saving
a note that someone changed since the editor loaded it raises ``NoteChanged``
(the caller shows both texts and asks). Error spans saved under a name are
not replaced by other spans under that name without being asked either
(``SpansChanged``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bleuviz.errors import BleuvizError
from bleuviz.workspace.notes import Note


class OutputChanged(BleuvizError):
    """Systems of a saved test set would get other lines under the same names.

    Attributes:
        systems: the names whose saved lines differ from the ones given.
        set_id: the saved test set's id.
        set_name: its name.
    """

    def __init__(
        self,
        systems: Sequence[str],
        set_id: str,
        set_name: str,
        how: str = "replacing keeps the saved lines as an earlier version",
    ) -> None:
        """Name the systems and the set; ``how``: how to replace them anyway."""
        self.systems: tuple[str, ...] = tuple(systems)
        self.set_id, self.set_name = set_id, set_name
        names = ", ".join(repr(s) for s in self.systems)
        label = "system" if len(self.systems) == 1 else "systems"
        super().__init__(
            f"test set {set_name!r} ({set_id}): {label} {names} saved with other lines; {how}"
        )


class SpansChanged(BleuvizError):
    """Error spans saved under a name would be replaced by other spans under that name.

    Attributes:
        name: the annotations' name (``MQM``, ``ESA``, ...).
        set_id: the saved test set's id.
        origin: the file holding the other spans.
    """

    def __init__(
        self,
        name: str,
        set_id: str,
        origin: str,
        how: str = "replacing drops the saved spans for every system",
    ) -> None:
        """Name the annotations, the set and the file; ``how``: how to replace them anyway."""
        self.name, self.set_id, self.origin = name, set_id, origin
        super().__init__(
            f"test set {set_id}: error spans {name!r} are saved with other spans than "
            f"{origin} holds; {how}"
        )


class NoteChanged(BleuvizError):
    """A note was saved (or deleted) by someone else since the editor loaded it.

    Attributes:
        current: the note as saved now (None: it was deleted).
        expected: the revision the editor loaded (0: no note).
    """

    def __init__(self, current: Note | None, expected: int, where: str) -> None:
        self.current = current
        self.expected = expected
        now = (
            "deleted"
            if current is None
            else f"at revision {current.revision} by {current.author} "
            f"({current.saved:%Y-%m-%d %H:%M:%S} UTC)"
        )
        loaded = f"revision {expected}" if expected else "no note"
        super().__init__(f"note on {where} changed since it was loaded ({loaded}): now {now}")

"""How a long computation says how far it is: a callback told what it does and how much is done.

The core never draws anything; the app turns reports into a progress bar and
the command line may ignore them. A report costs a function call, so long
loops report once per chunk of work, not once per item.
"""

from __future__ import annotations

from collections.abc import Callable

#: Called with what is being done ("1,280 of 22,500 segments") and the fraction of it done (0-1).
Progress = Callable[[str, float], None]

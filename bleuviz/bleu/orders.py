"""How many n-gram orders BLEU counts: the default and the limit, named once."""

#: The order every implementation defaults to (BLEU-4).
DEFAULT_ORDER = 4
#: The highest order bleuviz counts (the app's, the command line's and the core's limit).
MAX_ORDER = 9

"""The skill index: what a model is told of the skills, within a budget.

`_render` (the index and its entries, in satchel's formats), `_budget` (`Budget` and the
one order in which an index that does not fit is cut) and `_listing` (listing overrides
read from a host's settings).

It may import: `core`, `foundations`, `skills`.
"""

"""The standings and the results as people read them, above the hands whose stacks in play they
count (docs/architecture.md, "The domain's order"): ``selectors`` (the money now, a person's
history) and ``results`` (a day's order, its cut, the event's final ranking)."""

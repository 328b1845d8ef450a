"""The results exchange file (issue 32, docs/results-exchange.md): one event's results as a
JSON document of the format ``brag-results/1`` — its days and rules, its people (membership
number, name, club; never contact details), each day's results, qualification and published
root, and the floor's penalties — written by one installation and read by another as a past
event.

* ``document``: the format, its JSON Schema, and the export (strict: every document written is
  checked against the schema first).
* ``reader``: reading a document leniently (unknown fields ignored, optional ones defaulted),
  every refusal a code and a sentence.
* ``services``: ``event_import_results``, a past event made from a document, in one
  transaction."""

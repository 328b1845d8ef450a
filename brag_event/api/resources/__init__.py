"""The API's views by resource (routes: ``api/urls.py``; docs/api.md, "Layout"). Each module holds
its views, their input serializers (``…In``), the serializers that describe their answers for the
OpenAPI schema (``…Out``, ``…Ref``, ``…Page``: drf-spectacular names the components after them)
and the presenters that build those answers.

The answer serializers are never instantiated on a request: the answers are built as plain data
by the presenters and the views (the action path and the versioned reads are rendered without a
serializer, see docs/api.md), and these classes say what that data is. ``tests/api`` checks that
the real answers validate against the schema built from them (``test_contract.py``, and
schemathesis' response conformance)."""

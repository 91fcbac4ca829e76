"""The HTTP API (FastAPI): the application, its dependencies, problems, OpenAPI documents and routes."""

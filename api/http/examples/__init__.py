"""The OpenAPI examples of the HTTP routes."""

"""The HTTP routers, one per concept; :mod:`api.http.app` includes each of them."""

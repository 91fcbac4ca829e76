"""What a receipt may hold, and who may write one.

A receipt is append-only: once written, the database refuses its update and its deletion. So what anyone
can write is kept for good, and is bounded here:

* the request is stored **canonical** — the validated request re-serialised (the fields the client gave,
  in the contract's order, no whitespace, no duplicate key) — never the raw body: 990 KB of padding around a
  valid request is not kept;
* a canonical request over ``MAX_RECEIPT_REQUEST_BYTES`` (64 KB) is refused (422 naming the largest field);
  a request of the contract is a few hundred bytes;
* ``VIGUEUR_RECEIPTS_TOKEN`` (:mod:`api.http.receipts_token`): when set, ``POST /v1/calculate?receipt=true`` needs
  ``Authorization: Bearer <token>`` (401 without it); calculating without a receipt stays open to anyone.
  Unset (the default, as before): anyone who can reach the API may keep receipts. Rate limiting stays the
  job of the reverse proxy in front of the API (per client address), where every worker shares it.
"""

from __future__ import annotations

from api.purchase.request import RequestError, parse_request

MAX_RECEIPT_REQUEST_BYTES = 64 * 1024


class ReceiptTooLarge(RequestError):
    """A request whose canonical form is too large to be kept for good."""


def canonical_request(raw: str | bytes) -> str:
    """The validated request re-serialised: the fields given, no whitespace, no duplicate; bounded."""
    request = parse_request(raw)
    text = request.model_dump_json(exclude_unset=True)
    size = len(text.encode("utf-8"))
    if size > MAX_RECEIPT_REQUEST_BYTES:
        fields = request.model_dump(mode="json", exclude_unset=True)
        largest = max(fields, key=lambda name: len(str(fields[name])))
        raise ReceiptTooLarge(
            [
                {
                    "field": largest,
                    "message": f"a receipt keeps at most {MAX_RECEIPT_REQUEST_BYTES} bytes of canonical "
                    f"request; this one has {size}",
                }
            ]
        )
    return text

"""Seed 003 split into its articles: each text.txt is exactly that article's bytes in the seed.

The seed separates paragraphs with one blank line; the articles are joined by that same separator, so
concatenating the article texts with it gives the seed back, byte for byte.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERSIONS = ROOT / "versions"
# The product's seeds sit next to the repository (../shared), wherever it is checked out.
SEED = ROOT.parent / "shared" / "seeds" / "003_fef9c71bc46600b1.txt"
SEED_SHA256 = "8d12287ff9a280ed495aea9a58bcb562ca2a91268cadd6a41d4390e3a57bc66d"
SEED_LENGTH = 5474
SEPARATOR = b"\n\n"

# In seed order, with the number of seed paragraphs each article holds and its first words.
ARTICLES = (
    ("D251-7.2017-01-01", 7, "Le montant de l'aide prévue à l'article D. 251-1 est fixé comme suit :"),
    ("D251-8.2017-01-01", 7, "Le montant de l'aide prévue à l'article D. 251-3 est fixé comme suit :"),
    ("D251-9.2017-01-01", 2, "Dans ce dernier cas, les aides s'imputent en totalité"),
    ("D251-10.2017-01-01", 9, "L'Agence de services et de paiement assure, au sein d'un fonds"),
    ("D251-11.2017-01-01", 1, "En dehors de la procédure de paiement de droit commun"),
    ("D251-12.2017-01-01", 1, "Les modalités de gestion des aides instituées en vertu du présent chapitre"),
    ("D251-13.2017-01-01", 2, "Les demandes d'aide sont formulées au plus tard dans les six mois"),
)


def text(version_id: str) -> bytes:
    return (VERSIONS / version_id / "text.txt").read_bytes()


def joined() -> bytes:
    return SEPARATOR.join(text(version_id) for version_id, _, _ in ARTICLES)


def test_concatenation_has_the_seed_digest() -> None:
    seed = joined()
    assert len(seed) == SEED_LENGTH
    assert hashlib.sha256(seed).hexdigest() == SEED_SHA256


def test_concatenation_is_the_seed_byte_for_byte() -> None:
    if not SEED.is_file():
        pytest.skip(f"{SEED} is not on this machine (the digest test still checks the bytes)")
    assert joined() == SEED.read_bytes()


@pytest.mark.parametrize(("version_id", "paragraphs", "opening"), ARTICLES)
def test_each_article_is_whole_paragraphs(version_id: str, paragraphs: int, opening: str) -> None:
    body = text(version_id)
    assert body.decode("utf-8").startswith(opening)
    assert len(body.split(SEPARATOR)) == paragraphs
    assert not body.startswith(b"\n") and not body.endswith(b"\n")  # only the separators between articles go


def test_the_seed_typo_vendeur_is_kept() -> None:
    assert "par le vendeuR." in text("D251-9.2017-01-01").decode("utf-8")


def test_articles_end_where_the_next_begins() -> None:
    assert text("D251-7.2017-01-01").endswith(b"b) 1 000 euros.")
    assert text("D251-8.2017-01-01").endswith(b'la norme " Euro 5 ".')
    assert text("D251-10.2017-01-01").endswith("le régime financier et comptable du dispositif.".encode())
    assert text("D251-13.2017-01-01").endswith("Leur paiement est simultané.".encode())


def test_2017_02_19_wording_of_d251_7_is_the_seed_article_plus_a_third() -> None:
    before, after = text("D251-7.2017-01-01"), text("D251-7.2017-02-19")
    assert after.startswith(before + SEPARATOR + "3° Pour les véhicules mentionnés au 6°".encode())
    assert len(after.split(SEPARATOR)) == 7 + 1


def test_2017_02_19_wording_of_d251_8_differs_only_in_its_opening_sentence() -> None:
    before, after = text("D251-8.2017-01-01").split(SEPARATOR), text("D251-8.2017-02-19").split(SEPARATOR)
    assert before[1:] == after[1:]
    assert before[0].decode() == "Le montant de l'aide prévue à l'article D. 251-3 est fixé comme suit :"
    assert after[0].decode() == ("Le montant de l'aide prévue à l'article D. 251-3 est déterminé par l'un ou "
                                 "l'autre des cas suivants :")

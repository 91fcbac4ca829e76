"""The interface's words, French by default and English with ``?lang=en`` or ``Accept-Language``.

Only the interface is translated: the texts of the law, their citations and the calculators' steps stay as the
catalogue holds them (French), and the advice of the amount timeline comes in both languages from
:mod:`legislation.advice`.
"""

from __future__ import annotations

from starlette.requests import Request

LANGUAGES = ("fr", "en")
DEFAULT = "fr"

# key: (French, English)
MESSAGES: dict[str, tuple[str, str]] = {
    "site": ("vigueur — l'interface des auditeurs", "vigueur — the auditors' interface"),
    "tagline": (
        "Quelle version des décrets s'appliquait à un achat, et ce qu'elle donnait — avec le texte pour le prouver.",
        "Which version of the decrees applied to a purchase, and what it gave — with the text to prove it.",
    ),
    "nav": ("Navigation principale", "Main navigation"),
    "home": ("Frise", "Timeline"),
    "calculator": ("Calculer", "Calculate"),
    "date_change": ("Ce que change la date", "What the date changes"),
    "parameters": ("Paramètres", "Parameters"),
    "cases": ("Cas de non-régression", "Regression cases"),
    "diff": ("Comparer", "Compare"),
    "api_docs": ("API (JSON)", "API (JSON)"),
    "language": ("Langue", "Language"),
    "skip": ("Aller au contenu", "Skip to content"),
    "timeline_title": ("Frise des versions, par dispositif", "Versions on a timeline, per scheme"),
    "timeline_help": (
        "Chaque segment est une version du texte des montants, colorée selon sa provenance ; les lacunes déclarées "
        "sont hachurées. Cliquez un segment pour lire la version.",
        "Each segment is a version of the amounts text, coloured by its provenance; declared gaps are hatched. "
        "Click a segment to read the version.",
    ),
    "legend": ("Légende", "Legend"),
    "official": ("officielle", "official"),
    "seed": ("semence (texte vérifié)", "seed (checked text)"),
    "derived": ("dérivée", "derived"),
    "secondary": ("secondaire (pas de texte verbatim)", "secondary (no verbatim text)"),
    "gap": ("lacune déclarée", "declared gap"),
    "not_on_file": ("rien au dossier", "nothing on file"),
    "ended": ("dispositif terminé", "scheme ended"),
    "coverage": ("Couverture mesurée", "Measured coverage"),
    "days": ("jours", "days"),
    "in_versions": ("par une version", "by a version"),
    "in_gaps": ("dans une lacune déclarée", "in a declared gap"),
    "with_nothing": ("sans rien", "with nothing"),
    "after_the_end": ("après la fin du dispositif", "after the scheme's end"),
    "ended_status": ("dispositif terminé", "the aid has ended"),
    "pick_date": ("Qu'est-ce qui s'appliquait à cette date ?", "What applied on this date?"),
    "date": ("Date", "Date"),
    "show": ("Afficher", "Show"),
    "on_date": ("Le", "On"),
    "no_version": ("aucune version au dossier", "no version on file"),
    "versions": ("Versions", "Versions"),
    "version": ("Version", "Version"),
    "period": ("Période", "Period"),
    "from": ("du", "from"),
    "until": ("au", "to"),
    "open_ended": ("sans fin connue", "no known end"),
    "provenance": ("Provenance", "Provenance"),
    "confidence": ("Confiance", "Confidence"),
    "period_confidence": ("confiance dans la période", "confidence in the period"),
    "source": ("Source", "Source"),
    "decree": ("Décret", "Decree"),
    "jorf": ("Journal officiel", "Official journal"),
    "nor": ("NOR", "NOR"),
    "eli": ("ELI", "ELI"),
    "legifrance": ("Légifrance", "Légifrance"),
    "text_url": ("copie du texte", "copy of the text"),
    "text": ("Texte verbatim", "Verbatim text"),
    "text_help": (
        "Les passages surlignés sont les citations des paramètres : survolez-les ou donnez-leur le focus (Tab) "
        "pour voir le nom et la valeur.",
        "Highlighted passages are the parameters' quotes: hover or focus them (Tab) to see the name and value.",
    ),
    "secondary_warning": (
        "Source secondaire : le texte verbatim n'est pas au dossier ; ce qui suit le dit.",
        "Secondary source: the verbatim text is not on file; what follows says so.",
    ),
    "parameter": ("Paramètre", "Parameter"),
    "value": ("Valeur", "Value"),
    "unit": ("Unité", "Unit"),
    "paragraph": ("Alinéa", "Paragraph"),
    "quote": ("Citation", "Quote"),
    "history": ("historique", "history"),
    "clauses": ("Dispositions transitoires", "Transitional clauses"),
    "no_clauses": ("Aucune disposition transitoire.", "No transitional clause."),
    "window": ("Fenêtre", "Window"),
    "order": ("commande", "order"),
    "decisive": ("date décisive", "decisive date"),
    "keeps": ("maintient", "keeps"),
    "reading": ("lecture", "reading"),
    "claim_deadline_rule": ("Délai de demande", "Claim deadline"),
    "months": ("mois", "months"),
    "no_deadline_text": ("Aucun texte de gestion au dossier pour cette date.", "No management text on file then."),
    "relies_on": ("S'appuie sur", "Relies on"),
    "previous": ("Version précédente", "Previous version"),
    "next": ("Version suivante", "Next version"),
    "compare_previous": ("comparer avec la précédente", "compare with the previous one"),
    "revisions": ("Révisions (temps de connaissance)", "Revisions (knowledge time)"),
    "recorded_at": ("enregistrée le", "recorded at"),
    "superseded_at": ("remplacée le", "superseded at"),
    "current": ("actuelle", "current"),
    "changes": ("changements", "changes"),
    "known_at": ("Connu au", "Known at"),
    "known_at_help": (
        "Le catalogue tel qu'il était enregistré à cet instant (temps de connaissance).",
        "The catalogue as it was recorded at that instant (knowledge time).",
    ),
    "latest": ("dernière connaissance", "latest knowledge"),
    "knowledge_of": ("Connaissance du", "Knowledge of"),
    "load": ("chargement", "load"),
    "hash": ("Empreinte", "Hash"),
    "diff_title": ("Comparer deux versions", "Compare two versions"),
    "diff_pick": ("Choisir deux versions d'une même disposition", "Pick two versions of the same provision"),
    "first_version": ("Première version", "First version"),
    "second_version": ("Seconde version", "Second version"),
    "compare": ("Comparer", "Compare"),
    "identical_text": ("Texte identique (aux espaces près).", "Same text (whitespace aside)."),
    "parameter_changes": ("Paramètres modifiés", "Parameter changes"),
    "no_parameter_change": ("Aucun paramètre modifié.", "No parameter changed."),
    "metadata_changes": ("Métadonnées modifiées", "Metadata changes"),
    "field": ("Champ", "Field"),
    "before": ("Avant", "Before"),
    "after": ("Après", "After"),
    "codification": ("Codification", "Codification"),
    "calc_title": ("Calculer une aide", "Compute an aid"),
    "calc_help": (
        "Donnez d'abord les dates : le formulaire ne demande ensuite que les faits que lisent les versions "
        "applicables à ces dates.",
        "Give the dates first: the form then asks only for the facts that the versions in force on those dates read.",
    ),
    "step_dates": ("1. L'acquisition et ses dates", "1. The acquisition and its dates"),
    "step_facts": ("2. Les faits que lisent les versions", "2. The facts the versions read"),
    "facts_for": ("Faits lus par", "Facts read by"),
    "update_fields": ("Mettre à jour les champs", "Update the fields"),
    "compute": ("Calculer", "Compute"),
    "keep_receipt": ("Garder un reçu", "Keep a receipt"),
    "receipts_token": ("Jeton des reçus", "Receipts token"),
    "unknown_value": ("— non renseigné —", "— not given —"),
    "yes": ("oui", "yes"),
    "no": ("non", "no"),
    "example_2015": ("Exemple : l'hybride de 2015 (README)", "Example: the 2015 hybrid (README)"),
    "invalid": ("Requête invalide", "Invalid request"),
    "result": ("Résultat", "Result"),
    "total": ("Total", "Total"),
    "amount": ("Montant", "Amount"),
    "status": ("Statut", "Status"),
    "eligible": ("Éligible", "Eligible"),
    "reason": ("Motif", "Reason"),
    "decisive_date": ("Date décisive", "Decisive date"),
    "decided_by": ("donnée par", "given by"),
    "clauses_examined": ("Dispositions transitoires examinées", "Transitional clauses examined"),
    "open": ("ouverte", "open"),
    "closed": ("fermée", "closed"),
    "not_evaluated": ("non évaluée", "not evaluated"),
    "steps": ("Étapes et citations", "Steps and citations"),
    "alternatives": ("Autres alinéas remplis, non retenus", "Other paragraphs met, not kept"),
    "readings": ("Lectures retenues", "Readings chosen"),
    "assumptions": ("Hypothèses", "Assumptions"),
    "missing_facts": ("Faits manquants", "Missing facts"),
    "claim_deadline": ("Date limite de la demande", "Claim deadline"),
    "warnings": ("Avertissements", "Warnings"),
    "compared": ("Versions comparées (plus favorable)", "Versions compared (more favourable)"),
    "unknown_amount": ("inconnu", "not known"),
    "lower_bound": ("(borne inférieure)", "(lower bound)"),
    "see_date_change": ("Voir ce que change la date de facture", "See what the invoice date changes"),
    "receipt": ("Reçu", "Receipt"),
    "receipt_title": ("Reçu de calcul", "Calculation receipt"),
    "created_at": ("Créé le", "Created at"),
    "catalogue_load": ("Chargement du catalogue", "Catalogue load"),
    "tree_hash": ("Empreinte du catalogue", "Catalogue fingerprint"),
    "request_hash": ("Empreinte de la requête", "Request hash"),
    "response_hash": ("Empreinte de la réponse", "Response hash"),
    "software": ("Logiciel", "Software"),
    "code_commit": ("Commit du code", "Code commit"),
    "catalogue_commit": ("Commit du catalogue", "Catalogue commit"),
    "revisions_used": ("Révisions utilisées", "Revisions used"),
    "request": ("Requête", "Request"),
    "replay": ("Rejouer", "Replay"),
    "print": ("Imprimer", "Print"),
    "replay_title": ("Rejeu du reçu", "Replay of the receipt"),
    "same_revisions": ("Avec les mêmes révisions", "With the same revisions"),
    "today": ("Avec le catalogue d'aujourd'hui", "With today's catalogue"),
    "identical": ("identique au reçu, octet pour octet", "identical to the receipt, byte for byte"),
    "differs": ("diffère du reçu", "differs from the receipt"),
    "differences": ("Différences", "Differences"),
    "path": ("Chemin", "Path"),
    "open_in_calculator": ("Ouvrir dans le calculateur", "Open in the calculator"),
    "timeline_chart": ("Montant selon la date de facture", "Amount by invoice date"),
    "window_from": ("Premier jour", "First day"),
    "window_until": ("Premier jour après", "First day after"),
    "advice": ("Conseils", "Advice"),
    "no_advice": ("Rien ne change dans la fenêtre.", "Nothing changes in the window."),
    "segments": ("Segments", "Segments"),
    "need_request": (
        "Donnez un achat (par le calculateur) pour voir ses montants selon la date.",
        "Give a purchase (through the calculator) to see its amounts across dates.",
    ),
    "parameters_title": ("Les paramètres, par notion", "The parameters, by notion"),
    "names": ("Noms", "Names"),
    "schemes": ("Dispositifs", "Schemes"),
    "parameter_history": ("Historique d'un paramètre", "A parameter's history"),
    "step_chart": ("Valeur selon la date", "Value by date"),
    "changed": ("modifiée", "changed"),
    "notes": ("Notes", "Notes"),
    "cases_title": ("Le corpus de non-régression, par version", "The regression corpus, by version"),
    "cases_source_db": ("Cas enregistrés dans la base", "Cases stored in the database"),
    "cases_source_files": ("Fichiers du dépôt", "Files of the repository"),
    "cases_pick": (
        "Choisissez une version (le nombre de ses cas) pour lister ses cas ; ceux qui échouent sont toujours listés.",
        "Pick a version (its number of cases) to list its cases; those that fail are always listed.",
    ),
    "no_cases": ("Aucun cas au dossier.", "No case on file."),
    "passed": ("réussis", "passed"),
    "failed": ("échoués", "failed"),
    "errors": ("erreurs", "errors"),
    "case": ("Cas", "Case"),
    "outcome": ("Résultat", "Outcome"),
    "checks": ("Vérifications", "Checks"),
    "error_title": ("Erreur", "Error"),
    "back_home": ("Retour à la frise", "Back to the timeline"),
    "scheme_bonus": ("bonus écologique", "bonus écologique"),
    "scheme_conversion_premium": ("prime à la conversion", "prime à la conversion"),
    "computed": ("calculé", "computed"),
    "missing_facts_status": ("faits manquants", "missing facts"),
    "no_version_on_file": ("aucune version au dossier", "no version on file"),
    "kept_version_not_on_file": ("version maintenue absente", "kept version not on file"),
    "not_covered_on_file": ("non couvert par le texte au dossier", "not covered by the text on file"),
    "render_time": ("Page rendue en", "Page rendered in"),
}

STATUS_KEYS = {
    "computed": "computed",
    "missing_facts": "missing_facts_status",
    "no_version_on_file": "no_version_on_file",
    "kept_version_not_on_file": "kept_version_not_on_file",
    "not_covered_on_file": "not_covered_on_file",
    "ended": "ended_status",
}


def language(request: Request) -> str:
    """``?lang=`` when it names a language, else the first language of ``Accept-Language`` we speak, else French."""
    asked = request.query_params.get("lang", "").lower()
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";", 1)[0].strip().lower()
        if tag[:2] in LANGUAGES:
            return tag[:2]
    return DEFAULT


def translator(lang: str) -> Translate:
    return Translate(1 if lang == "en" else 0)


class Translate:
    """``t("key")``: the interface word in the page's language (the key itself when unknown, never an error)."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __call__(self, key: str) -> str:
        words = MESSAGES.get(key)
        return words[self.index] if words else key

"""vigueur's pure domain: versions of the French clean-vehicle aid texts, their timeline, the resolver
and one calculator per version. No web, no database, no clock: dates are arguments."""

from legislation.award import Award, Reading, Step
from legislation.enums import (
    Acquisition,
    CritAir,
    Energy,
    EuroStandard,
    KeepMode,
    PersonKind,
    PowerBasis,
    Provenance,
    Role,
    Scheme,
    VanClass,
    VehicleCategory,
)
from legislation.errors import CatalogueError, InvalidDates, MissingFact, UnknownVersion, VigueurError
from legislation.facts import Buyer, Purchase, ScrappedVehicle, Vehicle
from legislation.resolver import Resolution, SchemeResult, calculate, resolve
from legislation.timeline import Catalogue, Gap, Timeline
from legislation.versions import Parameter, Source, TransitionalClause, Version

__all__ = [
    "Acquisition", "Award", "Buyer", "Catalogue", "CatalogueError", "CritAir", "Energy", "EuroStandard", "Gap",
    "InvalidDates", "KeepMode", "MissingFact", "Parameter", "PersonKind", "PowerBasis",
    "Provenance", "Purchase", "Reading", "Resolution", "Role", "Scheme", "SchemeResult", "ScrappedVehicle",
    "Source", "Step", "Timeline", "TransitionalClause", "UnknownVersion", "VanClass", "Vehicle",
    "VehicleCategory", "VigueurError", "Version", "calculate", "resolve",
]

"""The calculators, one per rule shape, registered explicitly under the key a version's ``calculator`` names.

A calculator is a module with ``FACTS`` (the request paths it may read, checked whenever it explains) and
``calculate(ctx)``, written once against :class:`~legislation.calculators.kit.Ctx`: the explained path and
the batch path run the same function in two contexts. Versions that differ only in their numbers share a
calculator: their numbers are their ``version.toml`` parameters. ``kit`` and the ``_`` modules are the
shared toolkit and shared rules, not calculators.
"""

from __future__ import annotations

from types import ModuleType

from legislation.calculators import (
    bonus_2008_01_01,
    bonus_2012_08_01,
    bonus_2013_11_01,
    bonus_2015_01_01,
    bonus_2016_01_04,
    bonus_2017_01_01,
    bonus_2017_02_19,
    bonus_2018_01_01,
    bonus_2019_01_01,
    bonus_2020_01_01,
    bonus_2020_06_01,
    bonus_2021_01_21,
    bonus_2021_07_01,
    bonus_2021_07_26,
    bonus_2023_01_01,
    bonus_2023_12_16,
    bonus_2024_02_14,
    bonus_2024_12_02,
    conversion_premium_2007_12_31,
    conversion_premium_2009_01_21,
    conversion_premium_2009_12_20,
    conversion_premium_2012_01_01,
    conversion_premium_2015_01_01,
    conversion_premium_2015_04_01,
    conversion_premium_2016_01_04,
    conversion_premium_2017_01_01,
    conversion_premium_2017_02_19,
    conversion_premium_2018_01_01,
    conversion_premium_2019_01_01,
    conversion_premium_2019_08_01,
    conversion_premium_2020_06_01,
    conversion_premium_2021_07_01,
    conversion_premium_2021_07_26,
    conversion_premium_2022_07_31,
    conversion_premium_2023_01_01,
)

CALCULATORS: dict[str, ModuleType] = {
    "bonus_2008_01_01": bonus_2008_01_01,
    "bonus_2012_08_01": bonus_2012_08_01,
    "bonus_2013_11_01": bonus_2013_11_01,
    "bonus_2015_01_01": bonus_2015_01_01,
    "bonus_2016_01_04": bonus_2016_01_04,
    "bonus_2017_01_01": bonus_2017_01_01,
    "bonus_2017_02_19": bonus_2017_02_19,
    "bonus_2018_01_01": bonus_2018_01_01,
    "bonus_2019_01_01": bonus_2019_01_01,
    "bonus_2020_01_01": bonus_2020_01_01,
    "bonus_2020_06_01": bonus_2020_06_01,
    "bonus_2021_01_21": bonus_2021_01_21,
    "bonus_2021_07_01": bonus_2021_07_01,
    "bonus_2021_07_26": bonus_2021_07_26,
    "bonus_2023_01_01": bonus_2023_01_01,
    "bonus_2023_12_16": bonus_2023_12_16,
    "bonus_2024_02_14": bonus_2024_02_14,
    "bonus_2024_12_02": bonus_2024_12_02,
    "conversion_premium_2007_12_31": conversion_premium_2007_12_31,
    "conversion_premium_2009_01_21": conversion_premium_2009_01_21,
    "conversion_premium_2009_12_20": conversion_premium_2009_12_20,
    "conversion_premium_2012_01_01": conversion_premium_2012_01_01,
    "conversion_premium_2015_01_01": conversion_premium_2015_01_01,
    "conversion_premium_2015_04_01": conversion_premium_2015_04_01,
    "conversion_premium_2016_01_04": conversion_premium_2016_01_04,
    "conversion_premium_2017_01_01": conversion_premium_2017_01_01,
    "conversion_premium_2017_02_19": conversion_premium_2017_02_19,
    "conversion_premium_2018_01_01": conversion_premium_2018_01_01,
    "conversion_premium_2019_01_01": conversion_premium_2019_01_01,
    "conversion_premium_2019_08_01": conversion_premium_2019_08_01,
    "conversion_premium_2020_06_01": conversion_premium_2020_06_01,
    "conversion_premium_2021_07_01": conversion_premium_2021_07_01,
    "conversion_premium_2021_07_26": conversion_premium_2021_07_26,
    "conversion_premium_2022_07_31": conversion_premium_2022_07_31,
    "conversion_premium_2023_01_01": conversion_premium_2023_01_01,
}


def get_calculator(key: str) -> ModuleType:
    """The calculator module registered under ``key`` (KeyError when there is none)."""
    return CALCULATORS[key]

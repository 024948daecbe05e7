"""The core tests start each test with the placeholder resolver's and the state dialects'
memos empty: a memo filled by an earlier test would answer for the code beneath it (what a
mutation run changes), so each test reaches the rule itself."""

from __future__ import annotations

import pytest

from mwzrepro.core import placeholder_resolver, state_dialects


@pytest.fixture(autouse=True)
def _empty_memos():
    for memo in (placeholder_resolver.lexicon, placeholder_resolver.domain_word,
                 placeholder_resolver.resolve, state_dialects._known_name,
                 state_dialects.resolve_state_json):
        memo.cache_clear()
    yield

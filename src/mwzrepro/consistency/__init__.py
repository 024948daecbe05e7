"""Annotation-consistency correction of Qian et al. 2021 (spec-annotation-consistency): rules, context, lexicons, the correction, its export, counts and tables."""

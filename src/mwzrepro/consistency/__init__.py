"""Annotation-consistency correction (Qian et al., 2021; spec-annotation-consistency): rules, context, lexicons, the correction, its export, counts and tables."""

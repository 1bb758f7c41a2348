# Choices that combine: four conditionals give sixteen texts; at most eight are kept, and the site says that
# some were left out.
def combined(a, b, c, d):
    raise ValueError(
        ("alpha " if a else "beta ")
        + ("gamma " if b else "delta ")
        + ("epsilon " if c else "zeta ")
        + ("eta" if d else "theta")
    )

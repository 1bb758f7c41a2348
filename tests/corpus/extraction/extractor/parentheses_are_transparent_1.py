raise E(('parenthesized'))

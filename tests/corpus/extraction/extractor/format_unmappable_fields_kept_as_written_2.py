raise E('{0!r:>3} {k}'.format(*args))

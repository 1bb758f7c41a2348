raise E('{!r}: {:.2f}'.format(a, b))

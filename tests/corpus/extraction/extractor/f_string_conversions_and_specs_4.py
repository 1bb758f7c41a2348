raise E(f'{x!r:>10}')
